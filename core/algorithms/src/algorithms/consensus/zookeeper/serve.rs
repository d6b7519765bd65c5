//! The coordination service's side of the recipe (the service itself is
//! `crate::algorithms::service`): how it answers a client's requests and
//! fires the watches, and the resource taking the leader's writes.

use super::{C, Client, Msg, Timer};
use crate::algorithms::extras::{Participant, write_token_of_msg_write};
use crate::algorithms::service::Service;
use crate::protocol::{Boot, NodeId};

/// The service serves the recipe's requests and fires its watches; the
/// resource takes the leader's `WRITE`s.
impl Participant for Client {
    write_token_of_msg_write!();

    fn start_service(service: &mut Service, ctx: &mut C<'_>, boot: Boot) {
        service.on_start(ctx, boot);
    }

    fn serve(svc: &mut Service, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        let expired = |ctx: &mut C<'_>, session| ctx.send(from, Msg::SessionExpired { session });
        match msg {
            Msg::Connect => {
                let session = svc.connect(ctx, from);
                ctx.send(from, Msg::Connected { session });
            }
            Msg::Create { session } => match svc.create(ctx, session) {
                Some(znode) => ctx.send(from, Msg::Created { znode }),
                None => expired(ctx, session),
            },
            Msg::GetChildren { session } => {
                if svc.touch(ctx, session) {
                    let children = svc.children();
                    ctx.send(from, Msg::Children { children });
                } else {
                    expired(ctx, session);
                }
            }
            Msg::Exists { session, seq } => {
                if svc.touch(ctx, session) {
                    let exists = svc.exists_watch(session, seq);
                    ctx.send(from, Msg::Stat { seq, exists });
                } else {
                    expired(ctx, session);
                }
            }
            Msg::Ping { session } => {
                if svc.touch(ctx, session) {
                    let lowest = svc.lowest();
                    ctx.send(from, Msg::Pong { lowest });
                } else {
                    expired(ctx, session);
                }
            }
            Msg::Connected { .. }
            | Msg::Created { .. }
            | Msg::Children { .. }
            | Msg::Stat { .. }
            | Msg::WatchEvent { .. }
            | Msg::Pong { .. }
            | Msg::SessionExpired { .. }
            | Msg::Write { .. } => {}
        }
    }

    fn service_timer(service: &mut Service, ctx: &mut C<'_>, timer: Timer) {
        if let Timer::Service(t) = timer {
            for n in service.on_timer(ctx, t) {
                ctx.send(n.to, Msg::WatchEvent { seq: n.seq });
            }
        }
    }
}
