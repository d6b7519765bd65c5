//! Unit tests of the story's rules on small runs; the answers against
//! `election run`'s summary over several algorithms are in core/tests/story.rs.

use super::*;
use crate::ScenarioExt;

fn scenario(text: &str) -> Scenario {
    Scenario::from_json(text).unwrap()
}

#[test]
fn kinds_go_by_their_json_names() {
    for k in QuestionKind::ALL {
        assert_eq!(QuestionKind::from_name(k.name()), Some(k));
        assert_eq!(
            serde_json::to_value(k).unwrap(),
            serde_json::Value::from(k.name())
        );
    }
    assert_eq!(QuestionKind::from_name("leeder"), None);
}

#[test]
fn captions_start_at_zero_and_are_sorted() {
    let s = story(&scenario(r#"{"algorithm":"bully","nodes":5,"seed":2}"#));
    assert_eq!(s.captions[0].at_ms, 0.0);
    assert!(s.captions.windows(2).all(|w| w[0].at_ms < w[1].at_ms));
    assert_eq!(s.moments_ms[0], 0.0);
    assert!(s.moments_ms.windows(2).all(|w| w[0] < w[1]));
}
