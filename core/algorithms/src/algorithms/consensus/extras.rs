//! The extra nodes, added once for every algorithm that needs them.
//!
//! Consensus and coordination algorithms run beside nodes that are not
//! participants ([`Extra`] in the registry entry):
//! the fenced [`Resource`] the leader writes to and, for the recipes, the
//! coordination [`Service`]. Their ids follow the `n` participants (see
//! [`Config`]). [`Node`] is one node of such a cluster: a participant,
//! which is the algorithm proper (a [`Protocol`] of its own, tested on its
//! own), or one of the extra nodes, which only need to know a few things
//! about the algorithm's messages ([`Participant`]).
//!
//! ```text
//!   Node<P> ── id < n ──────────────▶ P (the algorithm's node)
//!           ── id = config.service ─▶ Service, requests through P::serve
//!           ── id = config.resource ▶ Resource, writes through P::write_token
//! ```
//!
//! Messages and timers stay the algorithm's own types, so wrapping changes
//! no kind, no trace text and no trace hash.

use super::resource::Resource;
use super::service::{Service, Store};
use crate::protocol::{Boot, Config, Ctx, Extra, NodeId, Protocol, Role, Safety, TimerClass};

/// What an algorithm with extra nodes tells them about its messages.
pub trait Participant: Protocol {
    /// The fencing token if `msg` is a write to the resource.
    fn write_token(msg: &Self::Msg) -> Option<u64>;

    /// The coordination service comes up (fresh or after a crash). Only
    /// algorithms that list [`Extra::Service`](crate::protocol::Extra)
    /// have a service; the default only announces its role.
    fn start_service(service: &mut Service, ctx: &mut Ctx<'_, Self::Msg, Self::Timer>, boot: Boot) {
        let _ = (service, boot);
        ctx.set_role(Role::Service, None);
    }

    /// The coordination service handles `msg` from `from` (the default
    /// ignores it).
    fn serve(
        service: &mut Service,
        ctx: &mut Ctx<'_, Self::Msg, Self::Timer>,
        from: NodeId,
        msg: Self::Msg,
    ) {
        let _ = (service, ctx, from, msg);
    }

    /// A timer of the coordination service fired (the default ignores it).
    fn service_timer(
        service: &mut Service,
        ctx: &mut Ctx<'_, Self::Msg, Self::Timer>,
        timer: Self::Timer,
    ) {
        let _ = (service, ctx, timer);
    }

    /// What a timer of the coordination service is for. The service's
    /// only timers are its session expiries (a session is a lease on the
    /// client's ephemeral nodes), so the default says so.
    fn service_timer_class(timer: Self::Timer) -> TimerClass {
        let _ = timer;
        TimerClass::LeaseExpiry
    }
}

/// [`Participant::write_token`] for the algorithms whose resource write
/// is `Msg::Write { token }` (`Msg` being the message type in scope):
/// written once here, expanded in each `impl Participant`.
macro_rules! write_token_of_msg_write {
    () => {
        fn write_token(msg: &Msg) -> Option<u64> {
            match msg {
                Msg::Write { token } => Some(*token),
                _ => None,
            }
        }
    };
}
pub(crate) use write_token_of_msg_write;

/// One node of a cluster with extra nodes.
#[derive(Debug, Clone)]
pub enum Node<P> {
    /// A participant (boxed: it is much larger than the extra nodes).
    Participant(Box<P>),
    /// The coordination service.
    Service(Service),
    /// The fenced resource.
    Resource(Resource),
}

/// What survives a crash of a [`Node`], by kind of node.
#[derive(Debug, Clone)]
pub enum Durable<S> {
    /// A participant's persistent state. The default, for any kind of
    /// node: a fresh service or resource starts from nothing stored.
    Participant(S),
    /// The service's replicated data.
    Service(Box<Store>),
    /// The highest token the resource applied.
    Resource(Option<u64>),
}

impl<S: Default> Default for Durable<S> {
    fn default() -> Self {
        Durable::Participant(S::default())
    }
}

impl<P: Participant> Protocol for Node<P> {
    type Msg = P::Msg;
    type Timer = P::Timer;
    type Persistent = Durable<P::Persistent>;
    const KINDS: &'static [&'static str] = P::KINDS;
    const SAFETY: Safety = P::SAFETY;
    const EXTRAS: &'static [Extra] = P::EXTRAS;
    const WANTS_UNDELIVERABLE: bool = P::WANTS_UNDELIVERABLE;

    fn new(id: NodeId, config: &Config, stored: &Self::Persistent) -> Self {
        let (fresh_store, fresh_own);
        if Some(id) == config.service {
            let store = match stored {
                Durable::Service(store) => store,
                _ => {
                    fresh_store = Store::default();
                    &fresh_store
                }
            };
            Node::Service(Service::new(config, store))
        } else if Some(id) == config.resource {
            let highest = match stored {
                Durable::Resource(highest) => *highest,
                _ => None,
            };
            Node::Resource(Resource::restore(config, highest))
        } else {
            let own = match stored {
                Durable::Participant(own) => own,
                _ => {
                    fresh_own = P::Persistent::default();
                    &fresh_own
                }
            };
            Node::Participant(Box::new(P::new(id, config, own)))
        }
    }

    fn on_start(&mut self, ctx: &mut Ctx<'_, P::Msg, P::Timer>, boot: Boot) {
        match self {
            Node::Participant(p) => p.on_start(ctx, boot),
            Node::Service(s) => P::start_service(s, ctx, boot),
            Node::Resource(r) => r.on_start(ctx),
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx<'_, P::Msg, P::Timer>, from: NodeId, msg: P::Msg) {
        match self {
            Node::Participant(p) => p.on_message(ctx, from, msg),
            Node::Service(s) => P::serve(s, ctx, from, msg),
            Node::Resource(r) => {
                if let Some(token) = P::write_token(&msg) {
                    r.on_write(ctx, from, token);
                }
            }
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx<'_, P::Msg, P::Timer>, timer: P::Timer) {
        match self {
            Node::Participant(p) => p.on_timer(ctx, timer),
            Node::Service(s) => P::service_timer(s, ctx, timer),
            Node::Resource(_) => {}
        }
    }

    fn timer_class(&self, timer: P::Timer) -> TimerClass {
        match self {
            Node::Participant(p) => p.timer_class(timer),
            Node::Service(_) => P::service_timer_class(timer),
            // The resource arms no timers.
            Node::Resource(_) => TimerClass::Other,
        }
    }

    fn on_undeliverable(&mut self, ctx: &mut Ctx<'_, P::Msg, P::Timer>, to: NodeId, msg: P::Msg) {
        if let Node::Participant(p) = self {
            p.on_undeliverable(ctx, to, msg);
        }
    }

    fn persistent(&self) -> Self::Persistent {
        match self {
            Node::Participant(p) => Durable::Participant(p.persistent()),
            Node::Service(s) => Durable::Service(Box::new(s.store().clone())),
            Node::Resource(r) => Durable::Resource(r.highest()),
        }
    }

    fn heap_bytes(&self) -> usize {
        match self {
            Node::Participant(p) => p.heap_bytes(),
            Node::Service(_) | Node::Resource(_) => 0,
        }
    }

    fn persistent_heap_bytes(stored: &Self::Persistent) -> usize {
        match stored {
            Durable::Participant(own) => P::persistent_heap_bytes(own),
            Durable::Service(_) | Durable::Resource(_) => 0,
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        match self {
            Node::Participant(p) => p.inspect(),
            Node::Service(s) => s.inspect(),
            Node::Resource(r) => r.inspect(),
        }
    }
}
