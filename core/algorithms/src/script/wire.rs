//! What a scripted node sends, arms and keeps across a crash: its
//! messages are object maps with a `kind` ([`ScriptMsg`]), its timers are
//! names ([`ScriptTimer`]), what survives a crash is `ctx.persist`
//! ([`ScriptPersist`]). Apart from the node (node.rs), so that the `ctx`
//! API and the interpreter's set-up take them from below.

use super::value;
use crate::protocol::{Message, Purpose};
use rhai::Map;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// A script's message: the object map it sent (its `kind` included),
/// with the kind interned and the purpose read once.
#[derive(Clone)]
pub struct ScriptMsg {
    /// The `kind` field.
    pub kind: &'static str,
    /// `background: true` in the map: counted as background (heartbeats).
    pub background: bool,
    /// Estimated heap bytes of the map (`value::approx_bytes`), for the
    /// run's memory limit.
    pub bytes: u32,
    /// The whole map, as the receiver gets it.
    pub body: Rc<Map>,
}

impl Message for ScriptMsg {
    /// Not used: the engine numbers script kinds in the order a run
    /// first sends them ([`Message::kind_name`]).
    fn kind(&self) -> usize {
        0
    }
    fn purpose(&self) -> Purpose {
        if self.background {
            Purpose::Background
        } else {
            Purpose::Election
        }
    }
    fn kind_name(&self) -> Option<&'static str> {
        Some(self.kind)
    }
    fn heap_bytes(&self) -> usize {
        self.bytes as usize
    }
}

impl Hash for ScriptMsg {
    fn hash<H: Hasher>(&self, state: &mut H) {
        value::hash_map(&self.body, state);
    }
}

/// `KIND(field: value, ...)`, the fields other than `kind` and
/// `background`, for the event log.
impl fmt::Debug for ScriptMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fields: Vec<String> = self
            .body
            .iter()
            .filter(|(k, _)| k.as_str() != "kind" && k.as_str() != "background")
            .map(|(k, v)| format!("{k}: {}", value::show(v, 40)))
            .collect();
        if fields.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}({})", self.kind, fields.join(", "))
        }
    }
}

/// A script's timer: its name.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScriptTimer(pub &'static str);

impl fmt::Debug for ScriptTimer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// What survives a crash: `ctx.persist`.
#[derive(Debug, Clone, Default)]
pub struct ScriptPersist(pub Map);
