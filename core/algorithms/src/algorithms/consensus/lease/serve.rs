//! The coordination service's side of the Lease algorithm (the service
//! itself is `crate::algorithms::service`): how it answers reads and
//! compare-and-swap writes of the Lease, and the resource taking the
//! leader's writes.

use super::{C, Elector, Msg};
use crate::algorithms::extras::{Participant, write_token_of_msg_write};
use crate::algorithms::service::{LeaseWrite, Service};
use crate::protocol::{Boot, NodeId, Role};

/// The service answers reads and compare-and-swap writes of the Lease;
/// the resource takes the leader's `WRITE`s.
impl Participant for Elector {
    write_token_of_msg_write!();

    fn start_service(service: &mut Service, ctx: &mut C<'_>, boot: Boot) {
        ctx.set_role(Role::Service, None);
        if boot == Boot::Recover {
            let record = service.lease();
            ctx.note_with(|| format!("back with its replicated data: the Lease is {record:?}"));
        }
    }

    fn serve(svc: &mut Service, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Get => ctx.send(
                from,
                Msg::Lease {
                    record: svc.lease(),
                },
            ),
            Msg::Update {
                expected,
                record,
                acquire,
            } => {
                let answer = match svc.write_lease(expected, record) {
                    LeaseWrite::Written(record) => Msg::Updated { record, acquire },
                    LeaseWrite::Conflict(record) => Msg::Conflict { record, acquire },
                };
                ctx.send(from, answer);
            }
            Msg::Lease { .. } | Msg::Updated { .. } | Msg::Conflict { .. } | Msg::Write { .. } => {}
        }
    }
}
