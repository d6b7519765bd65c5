//! What a scripted node keeps between handler calls, which each call
//! reads and changes: `this`, `ctx.persist`, the role and term it last
//! announced, the error that stopped it, and the bytes it held. Apart
//! from the node (node.rs), which holds the program, so that the program
//! (program.rs) can run a handler on it without importing the node.

use super::ScriptError;
use crate::protocol::Role;
use rhai::{Dynamic, Map};

/// A node's script state between handler calls.
#[derive(Clone)]
pub struct NodeState {
    /// `this`: an object map, empty at boot and after a crash.
    pub(crate) state: Dynamic,
    /// `ctx.persist`.
    pub(crate) persist: Map,
    /// The role and term this node last announced.
    pub(crate) role: Role,
    pub(crate) term: Option<u64>,
    /// The error that stopped its last handler, until the engine takes it.
    pub(crate) error: Option<ScriptError>,
    /// Bytes `this` and `persist` held after its last handler call, as
    /// `value::check_state` measured them: what its next call starts
    /// holding, charged to every operation (script/watch.rs). 0 at boot
    /// (a recovered node's `persist` is measured at the first look).
    pub(crate) held_bytes: usize,
}

impl NodeState {
    /// A node at boot, keeping `persist` from before a crash.
    pub fn new(persist: Map) -> Self {
        Self {
            state: empty_state(),
            persist,
            role: START_ROLE,
            term: None,
            error: None,
            held_bytes: 0,
        }
    }
}

/// An empty object map, a node's state at boot and after a crash.
pub(crate) fn empty_state() -> Dynamic {
    Dynamic::from_map(Map::new())
}

/// The role a node starts in.
pub(crate) const START_ROLE: Role = Role::Follower;
