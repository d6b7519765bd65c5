//! [`Driver`]: what the engine needs of the node logic it runs. One
//! implementation, [`crate::algorithms::any::AnyNode`], covers every
//! algorithm by matching on which one it holds, so the engine is compiled
//! once instead of once per algorithm (it was 35% of the wasm code, 11
//! times over).

use crate::algorithms::any::{AnyMsg, AnyTimer};
use crate::protocol::{Boot, Command, Config, Ctx, Message, NodeId, Out, Safety};
use crate::rng::SimRng;
use std::fmt::Debug;
use std::hash::Hash;

/// A node of some algorithm, as the engine drives it: the handlers of
/// [`crate::protocol::Protocol`] plus what the engine used to read from
/// its constants, asked of the algorithm `Self::Algo` names.
pub trait Driver: Sized + Clone + 'static {
    /// Messages on the wire.
    type Msg: Message;
    /// Timers a node can arm.
    type Timer: Copy + Eq + Debug + Hash;
    /// State that survives a crash.
    type Persistent: Clone;
    /// Which algorithm an engine runs.
    type Algo: Copy + 'static;

    /// Names of the message kinds, indexed by [`Message::kind`].
    fn kinds(algo: Self::Algo) -> &'static [&'static str];
    /// What counts as a violation.
    fn safety(algo: Self::Algo) -> Safety;
    /// Whether undeliverable messages are reported back to their sender.
    fn wants_undeliverable(algo: Self::Algo) -> bool;
    /// The persistent state of a node that never ran.
    fn fresh_persistent(algo: Self::Algo) -> Self::Persistent;
    /// A node's state when it comes to life.
    fn new(algo: Self::Algo, id: NodeId, config: &Config, persistent: &Self::Persistent) -> Self;
    /// The node starts.
    fn on_start(&mut self, env: Env<'_, Self::Msg, Self::Timer>, boot: Boot);
    /// A message arrived.
    fn on_message(&mut self, env: Env<'_, Self::Msg, Self::Timer>, from: NodeId, msg: Self::Msg);
    /// A timer fired.
    fn on_timer(&mut self, env: Env<'_, Self::Msg, Self::Timer>, timer: Self::Timer);
    /// A message this node sent could not be delivered.
    fn on_undeliverable(
        &mut self,
        env: Env<'_, Self::Msg, Self::Timer>,
        to: NodeId,
        msg: Self::Msg,
    );
    /// The part of the state that survives a crash.
    fn persistent(&self) -> Self::Persistent;
    /// Estimated heap bytes of the node's state.
    fn heap_bytes(&self) -> usize;
    /// Estimated heap bytes of a persistent state.
    fn persistent_heap_bytes(persistent: &Self::Persistent) -> usize;
    /// Every field of the state, for the inspector.
    fn inspect(&self) -> Vec<(&'static str, String)>;
}

/// What the engine hands a [`Driver`] for one handler call: the parts of
/// a [`Ctx`], with the engine's own command list (a concrete `Vec`, so
/// that wrapping an algorithm's commands into it is a direct push).
pub struct Env<'a, M, T> {
    pub(crate) id: NodeId,
    pub(crate) config: &'a Config,
    pub(crate) local_now_us: i64,
    pub(crate) rng: &'a mut SimRng,
    pub(crate) recording: bool,
    pub(crate) out: &'a mut Vec<Command<M, T>>,
}

/// Runs `handler` with a context of the inner algorithm's types whose
/// commands go to `env`'s list, wrapped with `msg` and `timer`.
#[inline(always)]
pub(crate) fn run_inner<M, T>(
    env: Env<'_, AnyMsg, AnyTimer>,
    msg: fn(M) -> AnyMsg,
    timer: fn(T) -> AnyTimer,
    handler: impl FnOnce(&mut Ctx<'_, M, T>),
) {
    let mut inner = Ctx {
        id: env.id,
        config: env.config,
        local_now_us: env.local_now_us,
        rng: env.rng,
        recording: env.recording,
        out: Out::Any {
            out: env.out,
            msg,
            timer,
        },
    };
    handler(&mut inner);
}
