//! What a Multi-Paxos replica says in the event log, one method per
//! occasion. Notes cost nothing in runs that keep no trace (the text is
//! only built when recording) and are not part of the trace hash.

use super::{C, Phase, Replica};
use crate::algorithms::quorum;
use crate::protocol::NodeId;
use crate::time::Micros;

/// `n1, n3, n4`.
pub(super) fn names(ids: &[NodeId]) -> String {
    let v: Vec<String> = ids.iter().map(|i| format!("n{i}")).collect();
    v.join(", ")
}

/// Local microseconds as milliseconds.
pub(super) fn ms(us: i64) -> f64 {
    us as f64 / 1000.0
}

impl Replica {
    pub(super) fn say_recovered(&self, ctx: &mut C<'_>) {
        let (p, a) = (self.promised, self.accepted);
        let lease = self.master_lease;
        ctx.note_with(|| {
            let mut s = format!(
                "recovers from disk: promised ballot {p}, accepted ballot {a}; waits as a follower"
            );
            if lease {
                s.push_str(
                    " and, having forgotten whom it granted a master lease, promises nobody for one lease",
                );
            }
            s
        });
    }

    pub(super) fn say_timed_out(&self, ctx: &mut C<'_>) {
        match self.leader {
            Some(l) => ctx.note_with(|| {
                format!("heard no heartbeat from leader n{l} for an election timeout: suspects it")
            }),
            None => ctx.note("knows no leader and its election timer ran out"),
        }
    }

    pub(super) fn say_prepare(&self, ctx: &mut C<'_>, seen: u64) {
        let b = self.ballot;
        ctx.note_with(|| {
            if seen == 0 {
                format!("proposes ballot {b}, its first, promises it to itself and sends PREPARE to all")
            } else {
                format!("proposes ballot {b} (its lowest above {seen}, the highest it has seen), promises it to itself and sends PREPARE to all")
            }
        });
    }

    pub(super) fn say_reject(&self, ctx: &mut C<'_>, from: NodeId, ballot: u64) {
        let p = self.promised;
        ctx.note_with(|| format!("rejects n{from}'s ballot {ballot}: it has promised ballot {p}"));
    }

    pub(super) fn say_pre_empted(&self, ctx: &mut C<'_>, from: NodeId, higher: u64) {
        let (b, leading) = (self.ballot, self.phase == Phase::Leader);
        ctx.note_with(|| {
            let what = if leading { "leadership" } else { "proposal" };
            format!("its {what} of ballot {b} is pre-empted: n{from} names ballot {higher}")
        });
    }

    pub(super) fn say_attempt_failed(&self, ctx: &mut C<'_>) {
        let (b, got, need) = (self.ballot, self.promises.len(), quorum::majority(self.n));
        ctx.note_with(|| {
            format!("ballot {b}: {got} of the {need} promises a majority needs within the reply timeout; gives up")
        });
    }

    pub(super) fn say_backoff(&self, ctx: &mut C<'_>, wait: Micros) {
        ctx.note_with(|| {
            format!(
                "backs off for a random {} ms before trying again, unless it hears a leader",
                ms(wait as i64)
            )
        });
    }

    pub(super) fn say_lease_refused(&self, ctx: &mut C<'_>, from: NodeId) {
        ctx.note_with(|| {
            format!("n{from} refuses its ballot: it granted a master lease that is still valid")
        });
    }

    pub(super) fn say_won(&self, ctx: &mut C<'_>) {
        let (b, h) = (self.ballot, self.highest_accepted);
        ctx.note_with(|| {
            let carried = if h == 0 {
                "none had accepted a ballot".to_string()
            } else {
                format!(
                    "the highest accepted ballot among them is {h}, whose value it would re-propose"
                )
            };
            format!(
                "promises from {} (a majority): leads ballot {b}; {carried}",
                names(&self.promises)
            )
        });
    }

    pub(super) fn say_follows(&self, ctx: &mut C<'_>, from: NodeId, ballot: u64) {
        ctx.note_with(|| format!("accepts n{from}'s heartbeat of ballot {ballot}; follows it"));
    }

    pub(super) fn say_no_majority(&self, ctx: &mut C<'_>, heard: usize, window: i64) {
        let need = quorum::majority(self.n);
        ctx.note_with(|| {
            format!(
                "only {heard} of the {need} replicas a majority needs acknowledged within {} ms: steps down",
                ms(window)
            )
        });
    }

    pub(super) fn say_lease_taken(&self, ctx: &mut C<'_>, round: u64, until: i64) {
        ctx.note_with(|| {
            format!(
                "a majority acknowledged heartbeat round {round}: holds the master lease until {} ms on its own clock",
                ms(until)
            )
        });
    }

    pub(super) fn say_lease_expired(&self, ctx: &mut C<'_>) {
        ctx.note("could not renew its master lease before it ran out on its own clock: stops acting as master");
    }

    pub(super) fn say_lease_refusal(
        &self,
        ctx: &mut C<'_>,
        from: NodeId,
        ballot: u64,
        holder: Option<NodeId>,
    ) {
        ctx.note_with(|| match holder {
            Some(h) => format!(
                "refuses n{from}'s ballot {ballot}: the master lease it granted n{h} is still valid"
            ),
            None => format!(
                "refuses n{from}'s ballot {ballot}: it recovered and may have granted a master lease it forgot"
            ),
        });
    }

    pub(super) fn say_waits_for_grant(&self, ctx: &mut C<'_>, holder: Option<NodeId>, left: i64) {
        ctx.note_with(|| {
            let whom = holder.map_or("someone".to_string(), |h| format!("n{h}"));
            format!(
                "the master lease it granted {whom} has {} ms left: waits for it to run out before proposing",
                ms(left)
            )
        });
    }
}
