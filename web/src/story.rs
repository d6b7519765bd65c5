//! The story of the session's scenario for the page (captions, story
//! moments, questions; `election_core::story`), computed by one recorded
//! run on the first call after the scenario changed and kept per
//! revision of the [`crate::playground::Playground`]'s scenario (every
//! live fault is a new revision). Only conversion and caching: what the
//! captions say and what the answers are is the core's.

use election_core::Scenario;
use election_core::story::{QuestionKind, Story, StoryRecording, StoryRun};

/// The story of one revision of a scenario, with its JSON text.
struct Told {
    revision: u64,
    run: StoryRun,
    story: Story,
    json: String,
}

/// What a playground keeps of its story: the last revision told, and
/// the recording of the next one while it is made in pieces.
#[derive(Default)]
pub struct StoryCache {
    told: Option<Told>,
    recording: Option<(u64, StoryRecording)>,
}

impl StoryCache {
    /// Whether the story of `scenario` at `revision` is told, after about
    /// `max_events` more events of its recording (made in pieces between
    /// the page's frames: a run of a million events would block the page
    /// for seconds in one call); with 0 only what is known.
    pub fn ready_within(&mut self, scenario: &Scenario, revision: u64, max_events: u64) -> bool {
        if self.told.as_ref().is_some_and(|t| t.revision == revision) {
            return true;
        }
        if max_events == 0 {
            return false;
        }
        if self.recording.as_ref().is_none_or(|(r, _)| *r != revision) {
            self.recording = Some((revision, StoryRecording::new(scenario)));
        }
        let done = self
            .recording
            .as_mut()
            .is_some_and(|(_, rec)| rec.within(max_events));
        if done {
            self.told(scenario, revision);
        }
        done
    }

    /// The story of `scenario` at `revision`, told again only when the
    /// revision changed (going on with its recording when one was begun).
    fn told(&mut self, scenario: &Scenario, revision: u64) -> &Told {
        if self.told.as_ref().is_none_or(|t| t.revision != revision) {
            let run = match self.recording.take() {
                Some((r, rec)) if r == revision => rec.finish(scenario),
                _ => StoryRun::new(scenario),
            };
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

#[cfg(test)]
mod tests {
    //! Caching and conversion only; what the story says is tested in the
    //! core (core/tests/story.rs).
    use super::*;
    use election_core::ScenarioExt;

    #[test]
    fn a_story_is_told_once_per_revision_and_asked_by_kind_name() {
        let mut s = Scenario::from_json(
            r#"{"algorithm":"bully","nodes":5,"seed":1,"faults":[{"at_ms":1000,"crash":"leader"}]}"#,
        )
        .unwrap();
        let mut cache = StoryCache::default();
        let first = cache.json(&s, 0);
        let story: serde_json::Value = serde_json::from_str(&first).unwrap();
        assert_eq!(story["captions"][0]["at_ms"], 0.0);
        assert_eq!(cache.next_ms(&s, 0, 999.0), Some(1000.0));
        assert_eq!(cache.next_ms(&s, 0, 1e9), None);
        let q = cache.question_json(&s, 0, 1000.0, "first_mover").unwrap();
        assert!(
            q.starts_with(r#"{"at_ms":1000.0,"kind":"first_mover""#),
            "{q}"
        );
        assert_eq!(
            cache.question_json(&s, 0, 1000.0, "leeder").unwrap_err(),
            r#"kind: "leeder" is not a question kind; one of leader, election_messages, first_mover, time_to_leader, split_brain"#
        );
        // The same revision keeps the story told, even of another scenario
        // (the playground bumps the revision whenever its scenario changes).
        s.faults.clear();
        assert_eq!(cache.json(&s, 0), first);
        assert_ne!(cache.json(&s, 1), first);
        assert_eq!(
            cache.question_json(&s, 1, 1000.0, "leader").unwrap(),
            "null"
        );
    }
}
