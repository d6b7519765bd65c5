//! [`ScriptNode`]: the protocol that runs a script, so the engine runs a
//! scripted algorithm exactly as a built-in one
//! (core/algorithms/src/script/mod.rs, module docs). Its messages are object
//! maps with a `kind` ([`ScriptMsg`]), its timers are names ([`ScriptTimer`]),
//! what survives
//! a crash is `ctx.persist` ([`ScriptPersist`]).

use super::kept::NodeState;
use super::program::{HANDLERS, Program};
use super::value;
pub use super::wire::{ScriptMsg, ScriptPersist, ScriptTimer};
use super::{ScriptError, intern};
use crate::protocol::{Boot, Config, Ctx, NodeId, Protocol, Safety, TimerClass};
use crate::scenario::Scenario;
use rhai::{Dynamic, INT, Map};
use std::any::Any;
use std::fmt;
use std::rc::Rc;

/// What a timer is for, from its name (the page's countdown arcs and
/// legend): the first rule that matches, ignoring case.
///
/// | name contains | class |
/// |---|---|
/// | `heartbeat`, `ping` | heartbeat |
/// | `renew` | lease renewal |
/// | `lease`, `expir` | lease expiry |
/// | `wait`, `reply` | reply wait |
/// | `retry`, `delay`, `backoff` | retry or delay |
/// | `election`, `leader`, `watchdog`, `timeout` | election timeout |
/// | `write` | resource write |
/// | anything else | other |
pub fn timer_class(name: &str) -> TimerClass {
    let n = name.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if has(&["heartbeat", "ping"]) {
        TimerClass::Heartbeat
    } else if has(&["renew"]) {
        TimerClass::LeaseRenew
    } else if has(&["lease", "expir"]) {
        TimerClass::LeaseExpiry
    } else if has(&["wait", "reply"]) {
        TimerClass::ReplyWait
    } else if has(&["retry", "delay", "backoff"]) {
        TimerClass::Retry
    } else if has(&["election", "leader", "watchdog", "timeout"]) {
        TimerClass::ElectionTimeout
    } else if has(&["write"]) {
        TimerClass::Write
    } else {
        TimerClass::Other
    }
}

/// One node running the scenario's script.
#[derive(Clone)]
pub struct ScriptNode {
    program: Option<Rc<Program>>,
    /// What it keeps between handler calls.
    kept: NodeState,
}

impl fmt::Debug for ScriptNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScriptNode")
            .field("state", &self.kept.state)
            .field("persist", &self.kept.persist)
            .field("role", &self.kept.role)
            .field("term", &self.kept.term)
            .finish_non_exhaustive()
    }
}

type C<'a> = Ctx<'a, ScriptMsg, ScriptTimer>;

impl ScriptNode {
    fn run(&mut self, ctx: &mut C<'_>, i: usize, boot: Option<Boot>, args: Vec<Dynamic>) {
        let Some(program) = self.program.clone() else {
            self.kept.error = Some(ScriptError {
                node: None,
                handler: Some(HANDLERS[i].0.into()),
                line: None,
                column: None,
                at_ms: None,
                message: "the scenario has no script that compiles".into(),
            });
            return;
        };
        program.run(&mut self.kept, ctx, i, boot, args);
    }
}

/// The run's compiled program, as [`ScriptNode::prepare`] left it.
fn program_of(config: &Config) -> Option<Rc<Program>> {
    config.prepared.clone()?.downcast::<Program>().ok()
}

impl Protocol for ScriptNode {
    type Msg = ScriptMsg;
    type Timer = ScriptTimer;
    type Persistent = ScriptPersist;
    const KINDS: &'static [&'static str] = &[];
    const SAFETY: Safety = Safety::OneLeaderPerComponent;

    fn safety(config: &Config) -> Safety {
        program_of(config).map_or(Self::SAFETY, |p| p.claims)
    }

    /// Compiles the scenario's script once per run, for every node.
    fn prepare(scenario: &Scenario) -> Option<Rc<dyn Any>> {
        match &scenario.script {
            Some(source) if scenario.algorithm == super::ALGORITHM => Program::compile(source)
                .ok()
                .map(|p| Rc::new(p) as Rc<dyn Any>),
            _ => None,
        }
    }

    fn new(_: NodeId, config: &Config, persistent: &ScriptPersist) -> Self {
        Self {
            program: program_of(config),
            kept: NodeState::new(persistent.0.clone()),
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        self.run(ctx, 0, Some(boot), Vec::new());
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: ScriptMsg) {
        let body = Rc::try_unwrap(msg.body).unwrap_or_else(|rc| (*rc).clone());
        self.run(
            ctx,
            1,
            None,
            vec![Dynamic::from(INT::from(from)), Dynamic::from_map(body)],
        );
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: ScriptTimer) {
        self.run(ctx, 2, None, vec![Dynamic::from(timer.0)]);
    }

    fn timer_class(&self, timer: ScriptTimer) -> TimerClass {
        timer_class(timer.0)
    }

    fn persistent(&self) -> ScriptPersist {
        ScriptPersist(self.kept.persist.clone())
    }

    fn take_error(&mut self) -> Option<ScriptError> {
        self.kept.error.take()
    }

    fn heap_bytes(&self) -> usize {
        value::approx_bytes(&self.kept.state)
            + self
                .kept
                .persist
                .iter()
                .map(|(k, v)| k.len() + value::approx_bytes(v))
                .sum::<usize>()
    }

    fn persistent_heap_bytes(persistent: &ScriptPersist) -> usize {
        persistent
            .0
            .iter()
            .map(|(k, v)| k.len() + value::approx_bytes(v))
            .sum()
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let mut rows = vec![(
            "term",
            self.kept.term.map_or("none".to_string(), |t| t.to_string()),
        )];
        let mut add = |prefix: &str, map: &Map| {
            for (k, v) in map.iter().take(32) {
                let key = format!("{prefix}{k}");
                let name = intern::check_name("field", &key)
                    .ok()
                    .and_then(|()| intern::intern(&key).ok())
                    .unwrap_or("(field)");
                rows.push((name, value::show(v, 80)));
            }
        };
        if let Some(state) = self.kept.state.read_lock::<Map>() {
            add("", &state);
        }
        add("persist.", &self.kept.persist);
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timer_names_map_to_classes() {
        for (name, class) in [
            ("heartbeat", TimerClass::Heartbeat),
            ("election_timeout", TimerClass::ElectionTimeout),
            ("leader_timeout", TimerClass::ElectionTimeout),
            ("await_ok", TimerClass::ReplyWait),
            ("reply_timeout", TimerClass::ReplyWait),
            ("retry", TimerClass::Retry),
            ("lease_renew", TimerClass::LeaseRenew),
            ("lease", TimerClass::LeaseExpiry),
            ("write", TimerClass::Write),
            ("tick", TimerClass::Other),
        ] {
            assert_eq!(timer_class(name), class, "{name}");
        }
    }
}
