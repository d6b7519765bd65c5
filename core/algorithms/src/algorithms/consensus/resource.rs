//! A downstream resource (storage) that the leader writes to with a fencing
//! token (M. Kleppmann, "How to do distributed locking", 2016; the fencing
//! tokens of Chubby, Burrows 2006, section 2.4).
//!
//! Consensus and coordination algorithms list it among their extra nodes
//! (`Extra::Resource`); [`super::extras::Node`] adds it after their
//! participants and routes their `WRITE` messages to
//! [`Resource::on_write`]. With `fencing: true` the resource rejects a
//! token lower than the highest it has applied, so a leader that was paused
//! or partitioned and still believes it leads cannot overwrite the work of
//! its successor. With `fencing: false` the stale write is applied and the
//! checker reports it as `stale_write_accepted`. The highest token is
//! durable ([`super::extras::Durable::Resource`]), so a crash of the
//! resource does not reopen the door to old tokens.

use crate::protocol::{Config, Ctx, NodeId, Role};

/// The resource's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    fencing: bool,
    highest: Option<u64>,
    applied: u64,
    rejected: u64,
    last_writer: Option<NodeId>,
}

impl Resource {
    /// A fresh resource; fencing as the scenario says.
    pub fn new(config: &Config) -> Self {
        Self {
            fencing: config.options.fencing,
            highest: None,
            applied: 0,
            rejected: 0,
            last_writer: None,
        }
    }

    /// A resource restarted after a crash: storage is durable, so it still
    /// knows the highest token it applied (`highest` from
    /// [`Resource::highest`], kept as [`super::extras::Durable::Resource`]).
    pub fn restore(config: &Config, highest: Option<u64>) -> Self {
        Self {
            highest,
            ..Self::new(config)
        }
    }

    /// The highest token applied so far (what must survive a crash).
    pub fn highest(&self) -> Option<u64> {
        self.highest
    }

    /// Announces the resource's role; call from `on_start`.
    pub fn on_start<M, T>(&self, ctx: &mut Ctx<'_, M, T>) {
        ctx.set_role(Role::Service, None);
    }

    /// Handles a write from `writer` carrying `token`; returns whether it
    /// was applied.
    pub fn on_write<M, T>(&mut self, ctx: &mut Ctx<'_, M, T>, writer: NodeId, token: u64) -> bool {
        let stale = self.highest.is_some_and(|h| token < h);
        let accept = !(self.fencing && stale);
        if accept {
            self.highest = Some(self.highest.map_or(token, |h| h.max(token)));
            self.applied += 1;
            if stale {
                let highest = self.highest.unwrap_or(token);
                ctx.note_with(|| {
                    format!(
                        "applies n{writer}'s write with stale token {token} (it has seen {highest}): no fencing, so an old leader overwrote newer data"
                    )
                });
            }
            self.last_writer = Some(writer);
        } else {
            self.rejected += 1;
        }
        ctx.resource_write(writer, token, accept);
        accept
    }

    /// Every field, for the inspector.
    pub fn inspect(&self) -> Vec<(&'static str, String)> {
        vec![
            ("kind", "storage service".to_string()),
            ("fencing", self.fencing.to_string()),
            (
                "highest token",
                self.highest.map_or("none".to_string(), |t| t.to_string()),
            ),
            ("writes applied", self.applied.to_string()),
            ("writes rejected", self.rejected.to_string()),
            (
                "last writer",
                self.last_writer
                    .map_or("none".to_string(), |w| format!("n{w}")),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{config, ctx_commands};

    fn applied(out: &[Command<(), ()>]) -> Vec<(u64, bool)> {
        out.iter()
            .filter_map(|c| match c {
                Command::ResourceWrite {
                    token, accepted, ..
                } => Some((*token, *accepted)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn fencing_rejects_a_lower_token() {
        let c = config(3, "ascending");
        assert!(c.options.fencing, "fencing is on by default");
        let mut r = Resource::new(&c);
        let out = ctx_commands(3, &c, |ctx: &mut Ctx<'_, (), ()>| {
            r.on_write(ctx, 1, 4);
            r.on_write(ctx, 2, 5);
            r.on_write(ctx, 1, 4);
            r.on_write(ctx, 2, 5);
        });
        assert_eq!(
            applied(&out),
            vec![(4, true), (5, true), (4, false), (5, true)]
        );
    }

    #[test]
    fn without_fencing_the_stale_write_gets_through() {
        let mut c = config(3, "ascending");
        c.options.fencing = false;
        let mut r = Resource::new(&c);
        let out = ctx_commands(3, &c, |ctx: &mut Ctx<'_, (), ()>| {
            r.on_write(ctx, 2, 5);
            r.on_write(ctx, 1, 4);
        });
        assert_eq!(applied(&out), vec![(5, true), (4, true)]);
    }
}
