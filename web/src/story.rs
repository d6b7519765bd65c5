//! The story of the session's scenario for the page (captions, story
//! moments, questions; `election_core::story`), computed by one recorded
//! run on the first call after the scenario changed and kept per
//! revision of the [`crate::playground::Playground`]'s scenario (every
//! live fault is a new revision). Only conversion and caching: what the
//! captions say and what the answers are is the core's.

use election_core::Scenario;
use election_core::story::{QuestionKind, Story, StoryRun};

/// The story of one revision of a scenario, with its JSON text.
struct Told {
    revision: u64,
    run: StoryRun,
    story: Story,
    json: String,
}

/// What a playground keeps of its story: the last revision told.
#[derive(Default)]
pub struct StoryCache {
    told: Option<Told>,
}

impl StoryCache {
    /// The story of `scenario` at `revision`, told again only when the
    /// revision changed.
    fn told(&mut self, scenario: &Scenario, revision: u64) -> &Told {
        if self.told.as_ref().is_none_or(|t| t.revision != revision) {
            let run = StoryRun::new(scenario);
            let story = run.story();
            let json = serde_json::to_string(&story).unwrap_or_else(|_| "null".to_string());
            self.told = Some(Told {
                revision,
                run,
                story,
                json,
            });
        }
        self.told.as_ref().expect("told above")
    }

    /// The Story JSON text.
    pub fn json(&mut self, scenario: &Scenario, revision: u64) -> String {
        self.told(scenario, revision).json.clone()
    }

    /// The first story moment strictly after `now_ms`.
    pub fn next_ms(&mut self, scenario: &Scenario, revision: u64, now_ms: f64) -> Option<f64> {
        let moments = &self.told(scenario, revision).story.moments_ms;
        let k = moments.partition_point(|m| *m <= now_ms);
        moments.get(k).copied()
    }

    /// The question JSON text of `kind` at `at_ms` (`"null"` when no
    /// election follows), or the error naming `kind`.
    pub fn question_json(
        &mut self,
        scenario: &Scenario,
        revision: u64,
        at_ms: f64,
        kind: &str,
    ) -> Result<String, String> {
        let Some(k) = QuestionKind::from_name(kind) else {
            let names: Vec<&str> = QuestionKind::ALL.iter().map(|k| k.name()).collect();
            return Err(format!(
                "kind: {kind:?} is not a question kind; one of {}",
                names.join(", ")
            ));
        };
        let told = self.told(scenario, revision);
        let question = told.run.question_at(at_ms, k);
        Ok(serde_json::to_string(&question).unwrap_or_else(|_| "null".to_string()))
    }
}
