//! [`AnyNode`]: a node of any algorithm, so that one engine type,
//! `Engine<AnyNode>`, runs them all. Its message, timer and persistent
//! types are enums over the algorithms' own; every call is one `match`
//! that hands the algorithm its own types. Hashing and `Debug` go
//! straight to the inner value (no variant tag), so trace hashes and
//! event texts are exactly those of the algorithm run on its own.

use super::{
    bully, candidate_ordinary, chang_roberts, hirschberg_sinclair, invitation, lease, lelann,
    next_in_line, raft, zab, zookeeper,
};
use crate::engine::driver::{Driver, Env, run_inner};
use crate::protocol::{Boot, Config, Message, NodeId, Protocol, Purpose, Safety};
use std::fmt;
use std::hash::{Hash, Hasher};

/// How a variant holds its value: [`Inline`] or boxed. Large node states
/// and messages are boxed, so that the enums stay as small as the common
/// case (a Chang-Roberts message is 8 bytes, a Raft one 64: inline, every
/// queued event of every algorithm would carry 72).
pub trait Holder<T> {
    /// Wraps a value.
    fn hold(value: T) -> Self;
    /// The value, by reference.
    fn get(&self) -> &T;
    /// The value, mutably.
    fn get_mut(&mut self) -> &mut T;
    /// The value.
    fn take(self) -> T;
}

/// A value held in place.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Inline<T>(T);

impl<T> Holder<T> for Inline<T> {
    fn hold(value: T) -> Self {
        Inline(value)
    }
    fn get(&self) -> &T {
        &self.0
    }
    fn get_mut(&mut self) -> &mut T {
        &mut self.0
    }
    fn take(self) -> T {
        self.0
    }
}

impl<T> Holder<T> for Box<T> {
    fn hold(value: T) -> Self {
        Box::new(value)
    }
    fn get(&self) -> &T {
        self
    }
    fn get_mut(&mut self) -> &mut T {
        self
    }
    fn take(self) -> T {
        *self
    }
}

macro_rules! any_algorithm {
    ($($variant:ident $id:literal => $ty:ty, $module:ident, $node_holder:ident, $msg_holder:ident;)*) => {
        /// Which algorithm an engine runs.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Algo {
            $(
                #[doc = concat!("`", $id, "`")]
                $variant,
            )*
        }

        impl Algo {
            /// The algorithm with this scenario id.
            pub fn from_id(id: &str) -> Option<Self> {
                match id {
                    $($id => Some(Algo::$variant),)*
                    _ => None,
                }
            }
        }

        /// A node of any algorithm.
        #[derive(Clone)]
        pub enum AnyNode {
            $(
                #[doc = concat!("A `", $id, "` node.")]
                $variant($node_holder<$ty>),
            )*
        }

        /// A message of any algorithm.
        #[derive(Clone)]
        pub enum AnyMsg {
            $(
                #[doc = concat!("A `", $id, "` message.")]
                $variant($msg_holder<$module::Msg>),
            )*
        }

        /// A timer of any algorithm.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub enum AnyTimer {
            $(
                #[doc = concat!("A `", $id, "` timer.")]
                $variant($module::Timer),
            )*
        }

        /// The persistent state of a node of any algorithm.
        #[derive(Clone)]
        pub enum AnyPersistent {
            $(
                #[doc = concat!("Of a `", $id, "` node.")]
                $variant(<$ty as Protocol>::Persistent),
            )*
        }

        impl Message for AnyMsg {
            #[inline]
            fn kind(&self) -> usize {
                match self {
                    $(AnyMsg::$variant(m) => m.get().kind(),)*
                }
            }
            #[inline]
            fn purpose(&self) -> Purpose {
                match self {
                    $(AnyMsg::$variant(m) => m.get().purpose(),)*
                }
            }
        }

        impl Hash for AnyMsg {
            #[inline]
            fn hash<H: Hasher>(&self, state: &mut H) {
                match self {
                    $(AnyMsg::$variant(m) => m.get().hash(state),)*
                }
            }
        }

        impl fmt::Debug for AnyMsg {
            #[inline]
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(AnyMsg::$variant(m) => fmt::Debug::fmt(m.get(), f),)*
                }
            }
        }

        impl Hash for AnyTimer {
            #[inline]
            fn hash<H: Hasher>(&self, state: &mut H) {
                match self {
                    $(AnyTimer::$variant(t) => t.hash(state),)*
                }
            }
        }

        impl fmt::Debug for AnyTimer {
            #[inline]
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(AnyTimer::$variant(t) => fmt::Debug::fmt(t, f),)*
                }
            }
        }

        impl Driver for AnyNode {
            type Msg = AnyMsg;
            type Timer = AnyTimer;
            type Persistent = AnyPersistent;
            type Algo = Algo;

            fn kinds(algo: Algo) -> &'static [&'static str] {
                match algo {
                    $(Algo::$variant => <$ty as Protocol>::KINDS,)*
                }
            }

            fn safety(algo: Algo) -> Safety {
                match algo {
                    $(Algo::$variant => <$ty as Protocol>::SAFETY,)*
                }
            }

            fn wants_undeliverable(algo: Algo) -> bool {
                match algo {
                    $(Algo::$variant => <$ty as Protocol>::WANTS_UNDELIVERABLE,)*
                }
            }

            fn fresh_persistent(algo: Algo) -> AnyPersistent {
                match algo {
                    $(Algo::$variant => AnyPersistent::$variant(Default::default()),)*
                }
            }

            fn new(algo: Algo, id: NodeId, config: &Config, persistent: &AnyPersistent) -> Self {
                match (algo, persistent) {
                    $((Algo::$variant, AnyPersistent::$variant(p)) => {
                        AnyNode::$variant(Holder::hold(<$ty as Protocol>::new(id, config, p)))
                    })*
                    // The engine keeps each slot's persistent state of
                    // its own algorithm; a mismatch starts afresh.
                    (algo, _) => Self::new(algo, id, config, &Self::fresh_persistent(algo)),
                }
            }

            fn on_start(&mut self, env: Env<'_, AnyMsg, AnyTimer>, boot: Boot) {
                match self {
                    $(AnyNode::$variant(node) => run_inner(
                        env,
                        |m| AnyMsg::$variant(Holder::hold(m)),
                        AnyTimer::$variant,
                        |c| node.get_mut().on_start(c, boot),
                    ),)*
                }
            }

            fn on_message(
                &mut self,
                env: Env<'_, AnyMsg, AnyTimer>,
                from: NodeId,
                msg: AnyMsg,
            ) {
                match (self, msg) {
                    $((AnyNode::$variant(node), AnyMsg::$variant(m)) => run_inner(
                        env,
                        |m| AnyMsg::$variant(Holder::hold(m)),
                        AnyTimer::$variant,
                        |c| node.get_mut().on_message(c, from, m.take()),
                    ),)*
                    _ => debug_assert!(false, "a message of another algorithm"),
                }
            }

            fn on_timer(&mut self, env: Env<'_, AnyMsg, AnyTimer>, timer: AnyTimer) {
                match (self, timer) {
                    $((AnyNode::$variant(node), AnyTimer::$variant(t)) => run_inner(
                        env,
                        |m| AnyMsg::$variant(Holder::hold(m)),
                        AnyTimer::$variant,
                        |c| node.get_mut().on_timer(c, t),
                    ),)*
                    _ => debug_assert!(false, "a timer of another algorithm"),
                }
            }

            fn on_undeliverable(
                &mut self,
                env: Env<'_, AnyMsg, AnyTimer>,
                to: NodeId,
                msg: AnyMsg,
            ) {
                match (self, msg) {
                    $((AnyNode::$variant(node), AnyMsg::$variant(m)) => run_inner(
                        env,
                        |m| AnyMsg::$variant(Holder::hold(m)),
                        AnyTimer::$variant,
                        |c| node.get_mut().on_undeliverable(c, to, m.take()),
                    ),)*
                    _ => debug_assert!(false, "a message of another algorithm"),
                }
            }

            fn persistent(&self) -> AnyPersistent {
                match self {
                    $(AnyNode::$variant(node) => AnyPersistent::$variant(node.get().persistent()),)*
                }
            }

            fn heap_bytes(&self) -> usize {
                match self {
                    $(AnyNode::$variant(node) => node.get().heap_bytes(),)*
                }
            }

            fn persistent_heap_bytes(persistent: &AnyPersistent) -> usize {
                match persistent {
                    $(AnyPersistent::$variant(p) => <$ty as Protocol>::persistent_heap_bytes(p),)*
                }
            }

            fn inspect(&self) -> Vec<(&'static str, String)> {
                match self {
                    $(AnyNode::$variant(node) => node.get().inspect(),)*
                }
            }
        }
    };
}

any_algorithm! {
    Bully "bully" => bully::Bully, bully, Inline, Inline;
    ChangRoberts "chang-roberts" => chang_roberts::ChangRoberts, chang_roberts, Inline, Inline;
    LeLann "lelann" => lelann::LeLann, lelann, Inline, Box;
    HirschbergSinclair "hirschberg-sinclair" => hirschberg_sinclair::HirschbergSinclair, hirschberg_sinclair, Inline, Inline;
    Invitation "invitation" => invitation::Invitation, invitation, Box, Box;
    NextInLine "next-in-line" => next_in_line::NextInLine, next_in_line, Box, Box;
    CandidateOrdinary "candidate-ordinary" => candidate_ordinary::CandidateOrdinary, candidate_ordinary, Box, Inline;
    Raft "raft" => raft::Raft, raft, Inline, Box;
    Zab "zab" => zab::Zab, zab, Inline, Box;
    ZooKeeper "zookeeper" => zookeeper::ZooKeeper, zookeeper, Box, Box;
    Lease "lease" => lease::Lease, lease, Box, Box;
}
