//! The `ctx` a script's handlers get (core/algorithms/src/script/mod.rs, module
//! docs, The contract): what a node can read (`ctx.id`, `ctx.n`, `ctx.peers`,
//! `ctx.next`, `ctx.prev`, `ctx.starts`, `ctx.now_ms`, ...)
//! and what it can ask for (`ctx.send`, `ctx.set_timer`,
//! `ctx.become_leader`, ...). Every request becomes an engine
//! [`Command`], carried out in order after the handler returns, exactly
//! as a built-in algorithm's; `ctx.random` draws from the engine's own
//! generator at once, so the draws interleave with the engine's as the
//! built-ins' do.

use super::limits::{
    MAX_COMMANDS_PER_CALL, MAX_MESSAGE_BYTES, MAX_SENT_BYTES_PER_CALL, MAX_STATE_BYTES,
};
use super::value;
use super::wire::{ScriptMsg, ScriptTimer};
use crate::protocol::{Command, NodeId, Role};
use crate::scenario::MAX_TIME_US;
use crate::time::Micros;
use election_model::rng::SimRng;
use rhai::{Array, Dynamic, EvalAltResult, INT, ImmutableString, Map};
use std::cell::RefCell;
use std::rc::Rc;

/// What one handler call sees and asks for.
pub(crate) struct Call {
    pub id: NodeId,
    pub n: u32,
    pub next: NodeId,
    pub prev: NodeId,
    pub starts: bool,
    pub recovered: bool,
    pub local_us: i64,
    pub election_timeout_us: (Micros, Micros),
    pub heartbeat_us: Micros,
    pub reply_timeout_us: Micros,
    pub latency_max_us: Micros,
    /// The engine's generator, lent for the call and handed back.
    pub rng: SimRng,
    pub out: Vec<Command<ScriptMsg, ScriptTimer>>,
    pub role: Role,
    pub term: Option<u64>,
    /// `ctx.persist`: what survives a crash.
    pub persist: Map,
    pub recording: bool,
    /// Message data sent so far in this call, every copy counted.
    pub sent_bytes: usize,
}

impl Call {
    /// Adds a request of the handler, refused past
    /// [`MAX_COMMANDS_PER_CALL`].
    fn push(&mut self, command: Command<ScriptMsg, ScriptTimer>) -> Result<(), String> {
        if self.out.len() >= MAX_COMMANDS_PER_CALL {
            return Err(format!(
                "one handler call may make at most {MAX_COMMANDS_PER_CALL} requests (sends, timers, log lines, roles): an endless loop?"
            ));
        }
        self.out.push(command);
        Ok(())
    }

    /// Sends `msg` to `to`, counted against [`MAX_SENT_BYTES_PER_CALL`].
    fn send(&mut self, to: NodeId, msg: ScriptMsg) -> Result<(), String> {
        self.sent_bytes = self.sent_bytes.saturating_add(msg.bytes as usize);
        if self.sent_bytes > MAX_SENT_BYTES_PER_CALL {
            return Err(format!(
                "one handler call may send at most {} MiB of message data (every copy counted)",
                MAX_SENT_BYTES_PER_CALL >> 20
            ));
        }
        self.push(Command::Send { to, msg })
    }
}

/// What a program's `ctx` values share: the call in progress and the
/// kind and timer names the run has used.
#[derive(Default)]
pub(crate) struct Shared {
    pub call: RefCell<Option<Call>>,
    /// What the call in progress holds, watched as it runs.
    pub watch: super::watch::Watch,
    /// The variables the script reads as copies somewhere
    /// (script/copies.rs), set once it is compiled: the watch charges
    /// their reads for the values they clone.
    pub copied: RefCell<std::collections::BTreeSet<String>>,
    names: RefCell<Vec<&'static str>>,
}

impl Shared {
    /// Adds what the call in progress keeps in `ctx.persist` to `held`
    /// (the handler's watch, script/watch.rs); an error past its limits.
    pub fn add_persist(&self, held: &mut super::value::Held) -> Result<(), String> {
        if let Ok(call) = self.call.try_borrow()
            && let Some(call) = call.as_ref()
        {
            for (_, v) in call.persist.iter() {
                held.add("ctx.persist", v)?;
            }
        }
        Ok(())
    }

    /// A line for the event log (`ctx.log`, `print`, `debug`); only a
    /// recording run keeps it, as a built-in's notes.
    pub fn log(&self, text: &str) {
        if let Some(call) = self.call.borrow_mut().as_mut() {
            if call.recording && call.out.len() < MAX_COMMANDS_PER_CALL {
                // As the trace keeps it (core/engine/src/limits.rs).
                call.out
                    .push(Command::Note(election_engine::limits::cut_text(
                        text.to_string(),
                    )));
            }
        }
    }

    /// The interned `name`, counted against
    /// [`super::limits::MAX_NAMES_PER_RUN`].
    pub fn name(&self, what: &str, name: &str) -> Result<&'static str, String> {
        let mut names = self.names.borrow_mut();
        if let Some(&known) = names.iter().find(|n| **n == name) {
            return Ok(known);
        }
        super::intern::check_name(what, name)?;
        let max = super::limits::MAX_NAMES_PER_RUN;
        if names.len() >= max {
            return Err(format!(
                "a run may use at most {max} distinct message kinds and timer names; {name:?} is one more"
            ));
        }
        let interned = super::intern::intern(name)?;
        names.push(interned);
        Ok(interned)
    }
}

/// The `ctx` argument of every handler (type name `Ctx` in scripts).
#[derive(Clone)]
pub struct NodeCtx(pub(crate) Rc<Shared>);

type R<T> = Result<T, Box<EvalAltResult>>;

impl NodeCtx {
    fn with<T>(&self, f: impl FnOnce(&mut Call) -> Result<T, String>) -> R<T> {
        let mut cell = self.0.call.borrow_mut();
        match cell.as_mut() {
            Some(call) => f(call).map_err(Into::into),
            None => Err("ctx can only be used while its handler runs".into()),
        }
    }

    fn message(&self, msg: Map) -> Result<ScriptMsg, String> {
        let kind = match msg.get("kind") {
            Some(k) if k.is_string() => k.clone().into_immutable_string().unwrap_or_default(),
            Some(k) => {
                return Err(format!(
                    "a message's kind must be a string, got {}",
                    k.type_name()
                ));
            }
            None => {
                return Err(
                    "a message needs a string `kind`, e.g. #{kind: \"ELECTION\", id: ctx.id}"
                        .into(),
                );
            }
        };
        let background = match msg.get("background") {
            None => false,
            Some(b) => b
                .as_bool()
                .map_err(|t| format!("a message's background must be true or false, got {t}"))?,
        };
        let mut bytes = 48usize;
        for (key, v) in &msg {
            value::check_plain(v).map_err(|t| format!("message field {key}: {t}"))?;
            bytes = bytes.saturating_add(32 + key.len() + value::approx_bytes(v));
        }
        if bytes > MAX_MESSAGE_BYTES {
            return Err(format!(
                "a message may hold at most {} KiB of data; this {kind} holds about {} KiB",
                MAX_MESSAGE_BYTES / 1024,
                bytes.div_ceil(1024)
            ));
        }
        Ok(ScriptMsg {
            kind: self.0.name("message kind", &kind)?,
            background,
            bytes: bytes as u32,
            body: Rc::new(msg),
        })
    }

    fn timer(&self, name: &str) -> Result<ScriptTimer, String> {
        Ok(ScriptTimer(self.0.name("timer name", name)?))
    }
}

/// A node id a script passed, checked against the participants.
fn node_id(call: &Call, what: &str, id: INT) -> Result<NodeId, String> {
    if id < 0 || id >= INT::from(call.n) {
        return Err(format!(
            "{what}: no node {id}; ids run from 0 to {}",
            call.n - 1
        ));
    }
    Ok(id as NodeId)
}

/// A timer duration in microseconds, checked.
fn duration_us(us: INT) -> Result<Micros, String> {
    if us < 0 || us as u64 > MAX_TIME_US {
        return Err(format!(
            "a timer's delay must be from 0 to one day, got {us} us"
        ));
    }
    Ok(us as Micros)
}

fn set_role(call: &mut Call, role: Role, leader: Option<NodeId>) -> Result<(), String> {
    call.role = role;
    call.push(Command::Role {
        role,
        term: call.term,
    })?;
    call.push(Command::Leader(leader))
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Follower => "follower",
        Role::Candidate => "candidate",
        Role::Leader => "leader",
        Role::Service => "service",
        Role::Observer => "observer",
    }
}

/// Registers `Ctx` and everything a script can do with it.
pub(crate) fn register(engine: &mut rhai::Engine) {
    engine.register_type_with_name::<NodeCtx>("Ctx");

    // What a node can read.
    engine.register_get("id", |c: &mut NodeCtx| c.with(|c| Ok(INT::from(c.id))));
    engine.register_get("n", |c: &mut NodeCtx| c.with(|c| Ok(INT::from(c.n))));
    engine.register_get("peers", |c: &mut NodeCtx| {
        c.with(|c| {
            Ok((0..c.n)
                .filter(|&p| p != c.id)
                .map(|p| Dynamic::from(INT::from(p)))
                .collect::<Array>())
        })
    });
    engine.register_get("next", |c: &mut NodeCtx| c.with(|c| Ok(INT::from(c.next))));
    engine.register_get("prev", |c: &mut NodeCtx| c.with(|c| Ok(INT::from(c.prev))));
    engine.register_get("starts", |c: &mut NodeCtx| c.with(|c| Ok(c.starts)));
    engine.register_get("recovered", |c: &mut NodeCtx| c.with(|c| Ok(c.recovered)));
    engine.register_get("now_ms", |c: &mut NodeCtx| {
        c.with(|c| Ok(c.local_us.div_euclid(1000)))
    });
    engine.register_get("now_us", |c: &mut NodeCtx| c.with(|c| Ok(c.local_us)));
    engine.register_get("role", |c: &mut NodeCtx| {
        c.with(|c| Ok(ImmutableString::from(role_name(c.role))))
    });
    engine.register_get("term", |c: &mut NodeCtx| {
        c.with(|c| Ok(c.term.map_or(Dynamic::UNIT, |t| Dynamic::from(t as INT))))
    });
    engine.register_get("persist", |c: &mut NodeCtx| {
        c.with(|c| Ok(c.persist.clone()))
    });
    engine.register_set("persist", |c: &mut NodeCtx, m: Map| {
        c.with(|c| {
            let mut bytes = 48usize;
            for (key, v) in &m {
                value::check_plain(v).map_err(|t| format!("ctx.persist.{key}: {t}"))?;
                bytes = bytes.saturating_add(32 + key.len() + value::approx_bytes(v));
            }
            if bytes > MAX_STATE_BYTES {
                return Err(format!(
                    "ctx.persist may hold at most {} KiB; this one holds about {} KiB",
                    MAX_STATE_BYTES / 1024,
                    bytes.div_ceil(1024)
                ));
            }
            c.persist = m;
            Ok(())
        })
    });
    engine.register_get("heartbeat_ms", |c: &mut NodeCtx| {
        c.with(|c| Ok((c.heartbeat_us / 1000) as INT))
    });
    engine.register_get("heartbeat_us", |c: &mut NodeCtx| {
        c.with(|c| Ok(c.heartbeat_us as INT))
    });
    engine.register_get("reply_timeout_ms", |c: &mut NodeCtx| {
        c.with(|c| Ok((c.reply_timeout_us / 1000) as INT))
    });
    engine.register_get("reply_timeout_us", |c: &mut NodeCtx| {
        c.with(|c| Ok(c.reply_timeout_us as INT))
    });
    engine.register_get("latency_max_us", |c: &mut NodeCtx| {
        c.with(|c| Ok(c.latency_max_us as INT))
    });
    engine.register_get("election_timeout_us", |c: &mut NodeCtx| {
        c.with(|c| {
            let (lo, hi) = c.election_timeout_us;
            Ok(vec![Dynamic::from(lo as INT), Dynamic::from(hi as INT)])
        })
    });
    engine.register_get("election_timeout_ms", |c: &mut NodeCtx| {
        c.with(|c| {
            let (lo, hi) = c.election_timeout_us;
            Ok(vec![
                Dynamic::from((lo / 1000) as INT),
                Dynamic::from((hi / 1000) as INT),
            ])
        })
    });

    // Messages.
    engine.register_fn("send", |c: &mut NodeCtx, to: INT, msg: Map| -> R<()> {
        let msg = c.message(msg)?;
        c.with(|c| {
            let to = node_id(c, "ctx.send", to)?;
            c.send(to, msg)
        })
    });
    engine.register_fn("send_next", |c: &mut NodeCtx, msg: Map| -> R<()> {
        let msg = c.message(msg)?;
        c.with(|c| c.send(c.next, msg))
    });
    engine.register_fn("broadcast", |c: &mut NodeCtx, msg: Map| -> R<()> {
        let msg = c.message(msg)?;
        c.with(|c| {
            let me = c.id;
            for to in (0..c.n).filter(|&p| p != me) {
                c.send(to, msg.clone())?;
            }
            Ok(())
        })
    });

    // Timers.
    engine.register_fn(
        "set_timer",
        |c: &mut NodeCtx, name: &str, ms: INT| -> R<()> {
            let timer = c.timer(name)?;
            c.with(|c| {
                let after_us = duration_us(ms.saturating_mul(1000))?;
                c.push(Command::SetTimer { timer, after_us })
            })
        },
    );
    engine.register_fn(
        "set_timer_us",
        |c: &mut NodeCtx, name: &str, us: INT| -> R<()> {
            let timer = c.timer(name)?;
            c.with(|c| {
                let after_us = duration_us(us)?;
                c.push(Command::SetTimer { timer, after_us })
            })
        },
    );
    engine.register_fn("cancel_timer", |c: &mut NodeCtx, name: &str| -> R<()> {
        let timer = c.timer(name)?;
        c.with(|c| c.push(Command::CancelTimer(timer)))
    });

    // Randomness, from the run's seeded generator.
    engine.register_fn("random", |c: &mut NodeCtx, lo: INT, hi: INT| -> R<INT> {
        c.with(|c| {
            if hi < lo {
                return Err(format!("ctx.random({lo}, {hi}): hi must not be below lo"));
            }
            let span = hi.wrapping_sub(lo) as u64;
            Ok(lo.wrapping_add(c.rng.between(0, span) as INT))
        })
    });
    engine.register_fn("random_timeout_us", |c: &mut NodeCtx| -> R<INT> {
        c.with(|c| {
            let (lo, hi) = c.election_timeout_us;
            Ok(c.rng.between(lo, hi) as INT)
        })
    });

    // The event log.
    engine.register_fn("log", |c: &mut NodeCtx, text: Dynamic| {
        c.0.log(&text.to_string());
    });

    // Roles, leader beliefs, terms, votes.
    engine.register_fn("become_leader", |c: &mut NodeCtx| -> R<()> {
        c.with(|c| {
            let id = c.id;
            set_role(c, Role::Leader, Some(id))
        })
    });
    engine.register_fn("become_follower", |c: &mut NodeCtx, leader: INT| -> R<()> {
        c.with(|c| {
            let leader = node_id(c, "ctx.become_follower", leader)?;
            set_role(c, Role::Follower, Some(leader))
        })
    });
    engine.register_fn("become_follower", |c: &mut NodeCtx| -> R<()> {
        c.with(|c| set_role(c, Role::Follower, None))
    });
    engine.register_fn("become_candidate", |c: &mut NodeCtx| -> R<()> {
        c.with(|c| {
            c.push(Command::ElectionStarted)?;
            set_role(c, Role::Candidate, None)
        })
    });
    engine.register_fn("election_started", |c: &mut NodeCtx| -> R<()> {
        c.with(|c| c.push(Command::ElectionStarted))
    });
    engine.register_fn("set_term", |c: &mut NodeCtx, term: INT| -> R<()> {
        c.with(|c| {
            if term < 0 {
                return Err(format!("ctx.set_term({term}): a term is 0 or more"));
            }
            let term = term as u64;
            // Raft's rule (Ongaro and Ousterhout 2014, figure 2, "Rules
            // for Servers"): a leader or candidate that learns of a higher
            // term steps down. Announcing its old role in the new term
            // would make it leader of a term it never won, a
            // `one_leader_per_term` violation for a correct step-down.
            let steps_down = matches!(c.role, Role::Leader | Role::Candidate)
                && c.term.is_some_and(|now| term > now);
            c.term = Some(term);
            if steps_down {
                set_role(c, Role::Follower, None)
            } else {
                c.push(Command::Role {
                    role: c.role,
                    term: c.term,
                })
            }
        })
    });
    engine.register_fn(
        "vote",
        |c: &mut NodeCtx, term: INT, candidate: INT| -> R<()> {
            c.with(|c| {
                if term < 0 {
                    return Err(format!("ctx.vote({term}, ..): a term is 0 or more"));
                }
                let candidate = node_id(c, "ctx.vote", candidate)?;
                c.push(Command::Vote {
                    term: term as u64,
                    candidate,
                })
            })
        },
    );
}

#[cfg(test)]
mod tests {
    /// Every name `ctx` has is in the students' reference, docs/lab.md
    /// (issue 29, item 18: `set_timer_us`, `ctx.heartbeat_us` and the
    /// no-argument `become_follower()` were only in ARCHITECTURE.md).
    #[test]
    fn docs_lab_lists_every_ctx_name() {
        let source = include_str!("api.rs");
        let docs = include_str!("../../../../docs/lab.md");
        let mut names = Vec::new();
        for call in ["register_get(\"", "register_set(\"", "register_fn(\""] {
            for part in source.split(call).skip(1) {
                let name = &part[..part.find('"').unwrap()];
                if call == "register_fn(\"" && part.contains("|c: &mut NodeCtx") {
                    names.push(format!("ctx.{name}("));
                } else if call != "register_fn(\"" {
                    names.push(format!("ctx.{name}"));
                }
            }
        }
        assert!(names.len() > 30, "{names:?}");
        let missing: Vec<&String> = names
            .iter()
            .filter(|n| !docs.contains(n.as_str()))
            .collect();
        assert!(
            missing.is_empty(),
            "docs/lab.md does not mention {missing:?}"
        );
        // Both forms of become_follower, with their meaning.
        assert!(
            docs.contains("`ctx.become_follower()`") && docs.contains("`ctx.become_follower(id)`")
        );
    }
}
