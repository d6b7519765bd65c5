//! Property checks that run during every run.
//!
//! For classical algorithms ([`Safety::OneLeaderPerComponent`]): two live
//! leaders that can reach each other break `one_leader_per_component`; two
//! leaders only in different partition groups are reported as
//! `split_brain`, the expected, documented failure of these algorithms under
//! a partition. Each episode is reported once, when it begins.
//!
//! # Property checks
//!
//! Checked during every run by `core/engine/src/checks.rs`; each failure is a
//! `violation` with a time, a property name, a sentence and the nodes. An
//! algorithm's `Protocol::SAFETY` says what it claims:
//!
//! | property | checked for | what it means |
//! |---|---|---|
//! | `one_leader_per_component` | classical algorithms | two live leaders in one partition group: a bug |
//! | `split_brain` | classical algorithms | several leaders, each in its own partition group: the documented failure of these algorithms, reported once per episode |
//! | `one_leader_per_term` | consensus algorithms | two nodes leader of the same term |
//! | `terms_never_decrease` | any algorithm that announces terms | a node's announced term went down |
//! | `one_vote_per_term` | any algorithm that votes | a node voted for two candidates in one term |
//! | `stale_write_accepted` | algorithms with a resource | an applied write's token is below one applied before; with fencing on this is a bug, with `"fencing": false` it is the failure being shown |
//! | `lease_overlap` | algorithms that announce leases | two nodes believe they hold the lease at once: the expected failure when a clock drifts past the bound or a holder pauses |
//!
//! The invitation algorithm claims nothing about leader count
//! (`SeveralLeadersAllowed`): several leaders are its design, shown in the
//! metrics, never a violation. Multi-Paxos announces the ballot a replica
//! has promised as its term (a leader's is its own ballot, which names it:
//! replica i owns ballots k·n + i + 1) and a promise as a vote, so the
//! consensus checks read per ballot: one leader per ballot, ballots never
//! go back, one promise per ballot; its fencing token is the ballot. Each
//! episode of the leader-count checks is reported when it begins. The fault
//! fuzzer (`core/tools/src/fuzz.rs`) treats the
//! first four consensus properties as bugs and `lease_overlap` as expected
//! after a clock fault or a pause.

use crate::protocol::{NodeId, Role, Safety};
use crate::time::Micros;
use crate::vec_map::VecMap;
use serde::Serialize;

/// A safety property the checker reports: its `id` (the `property` of a
/// [`Violation`]) and a short `label` for people ("Split brain").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Property {
    /// Stable id, as in JSON.
    pub id: &'static str,
    /// A short title for the page's lists and legends.
    pub label: &'static str,
}

/// `one_leader_per_term`: two leaders in one term.
pub const ONE_LEADER_PER_TERM: Property = Property {
    id: "one_leader_per_term",
    label: "Two leaders in one term",
};
/// `split_brain`: split brain.
pub const SPLIT_BRAIN: Property = Property {
    id: "split_brain",
    label: "Split brain",
};
/// `one_leader_per_component`: two leaders that can reach each other.
pub const ONE_LEADER_PER_COMPONENT: Property = Property {
    id: "one_leader_per_component",
    label: "Two leaders that can reach each other",
};
/// `stale_write_accepted`: a stale write got through.
pub const STALE_WRITE_ACCEPTED: Property = Property {
    id: "stale_write_accepted",
    label: "A stale write got through",
};
/// `lease_overlap`: two lease holders at once.
pub const LEASE_OVERLAP: Property = Property {
    id: "lease_overlap",
    label: "Two lease holders at once",
};
/// `terms_never_decrease`: a term went backwards.
pub const TERMS_NEVER_DECREASE: Property = Property {
    id: "terms_never_decrease",
    label: "A term went backwards",
};
/// `one_vote_per_term`: two votes in one term.
pub const ONE_VOTE_PER_TERM: Property = Property {
    id: "one_vote_per_term",
    label: "Two votes in one term",
};

/// Every property the checker reports, in the order the page lists them.
pub const PROPERTIES: [Property; 7] = [
    ONE_LEADER_PER_TERM,
    SPLIT_BRAIN,
    ONE_LEADER_PER_COMPONENT,
    STALE_WRITE_ACCEPTED,
    LEASE_OVERLAP,
    TERMS_NEVER_DECREASE,
    ONE_VOTE_PER_TERM,
];

/// A failed property check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// When it began, microseconds.
    pub at_us: Micros,
    /// Which property (a [`Property::id`]).
    pub property: &'static str,
    /// What happened, in words.
    pub detail: String,
    /// The nodes involved.
    pub nodes: Vec<NodeId>,
}

/// The state of the checks across a run.
#[derive(Debug, Clone)]
pub struct Checker {
    safety: Safety,
    same_component: bool,
    split: bool,
    /// Consensus: the leader of each term seen so far.
    term_leader: VecMap<u64, NodeId>,
    /// Highest term each node has announced, by node id (a plain table:
    /// node ids are dense, and a map per key type is code in the wasm).
    last_term: Vec<Option<u64>>,
    /// Each node's latest vote (term, candidate), by node id.
    last_vote: Vec<Option<(u64, NodeId)>>,
    /// Whether each node believes it holds a lease, by node id.
    lease_holders: Vec<bool>,
    /// Highest token a resource has applied.
    max_token: Option<u64>,
    /// Every violation so far.
    pub violations: Vec<Violation>,
}

/// The entry of `node` in a table indexed by node id, grown as needed.
fn slot<V: Default>(table: &mut Vec<V>, node: NodeId) -> &mut V {
    let i = node as usize;
    if table.len() <= i {
        table.resize_with(i + 1, V::default);
    }
    &mut table[i]
}

fn names(nodes: &[NodeId]) -> String {
    let v: Vec<String> = nodes.iter().map(|n| format!("n{n}")).collect();
    v.join(" and ")
}

impl Checker {
    /// A checker for an algorithm that claims `safety`.
    pub fn new(safety: Safety) -> Self {
        Self {
            safety,
            same_component: false,
            split: false,
            term_leader: VecMap::new(),
            last_term: Vec::new(),
            last_vote: Vec::new(),
            lease_holders: Vec::new(),
            max_token: None,
            violations: Vec::new(),
        }
    }

    /// Re-checks after the leaders or the partition changed. `leaders` are
    /// the live leaders, `group` the partition group of every node. Returns
    /// the violations that begin now.
    pub fn on_change(&mut self, now: Micros, leaders: &[NodeId], group: &[u32]) -> Vec<Violation> {
        if self.safety != Safety::OneLeaderPerComponent {
            return Vec::new();
        }
        let mut new = Vec::new();
        // Leaders sharing a group are in one component.
        let mut shared: Vec<NodeId> = Vec::new();
        for (i, &a) in leaders.iter().enumerate() {
            if leaders
                .iter()
                .enumerate()
                .any(|(j, &b)| i != j && group[a as usize] == group[b as usize])
            {
                shared.push(a);
            }
        }
        let same_component = !shared.is_empty();
        if same_component && !self.same_component {
            new.push(Violation {
                at_us: now,
                property: ONE_LEADER_PER_COMPONENT.id,
                detail: format!(
                    "{} all lead while they can reach each other",
                    names(&shared)
                ),
                nodes: shared.clone(),
            });
        }
        self.same_component = same_component;
        let split = !same_component && leaders.len() > 1;
        if split && !self.split {
            new.push(Violation {
                at_us: now,
                property: SPLIT_BRAIN.id,
                detail: format!(
                    "{} each lead their own side of the partition (split brain)",
                    names(leaders)
                ),
                nodes: leaders.to_vec(),
            });
        }
        self.split = split;
        self.violations.extend(new.iter().cloned());
        new
    }

    fn report(&mut self, v: Violation) -> Vec<Violation> {
        self.violations.push(v.clone());
        vec![v]
    }

    /// A node announced `role` in `term`: checks one leader per term and
    /// terms never going back (consensus algorithms).
    pub fn on_role(
        &mut self,
        now: Micros,
        node: NodeId,
        role: Role,
        term: Option<u64>,
    ) -> Vec<Violation> {
        let Some(term) = term else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let last = slot(&mut self.last_term, node).get_or_insert(term);
        if term < *last {
            let detail = format!("n{node} went back from term {last} to term {term}");
            out.extend(self.report(Violation {
                at_us: now,
                property: TERMS_NEVER_DECREASE.id,
                detail,
                nodes: vec![node],
            }));
        }
        *slot(&mut self.last_term, node) = Some(term);
        if role == Role::Leader && self.safety == Safety::Consensus {
            match self.term_leader.get(&term) {
                Some(&other) if other != node => {
                    out.extend(self.report(Violation {
                        at_us: now,
                        property: ONE_LEADER_PER_TERM.id,
                        detail: format!("n{node} and n{other} both became leader of term {term}"),
                        nodes: vec![other, node],
                    }));
                }
                _ => {
                    self.term_leader.insert(term, node);
                }
            }
        }
        out
    }

    /// A node voted: checks one vote per node per term.
    pub fn on_vote(
        &mut self,
        now: Micros,
        node: NodeId,
        term: u64,
        candidate: NodeId,
    ) -> Vec<Violation> {
        let previous = slot(&mut self.last_vote, node).replace((term, candidate));
        match previous {
            Some((t, c)) if t == term && c != candidate => self.report(Violation {
                at_us: now,
                property: ONE_VOTE_PER_TERM.id,
                detail: format!("n{node} voted for both n{c} and n{candidate} in term {term}"),
                nodes: vec![node, c, candidate],
            }),
            _ => Vec::new(),
        }
    }

    /// A resource handled a write: an applied token below the highest
    /// applied one is a stale leader's write getting through.
    pub fn on_write(
        &mut self,
        now: Micros,
        writer: NodeId,
        token: u64,
        accepted: bool,
    ) -> Vec<Violation> {
        if !accepted {
            return Vec::new();
        }
        let max = self.max_token.unwrap_or(token);
        self.max_token = Some(max.max(token));
        if token < max {
            return self.report(Violation {
                at_us: now,
                property: STALE_WRITE_ACCEPTED.id,
                detail: format!(
                    "the resource applied n{writer}'s write with token {token} after token {max}: an old leader's write got through (fencing would have rejected it)"
                ),
                nodes: vec![writer],
            });
        }
        Vec::new()
    }

    /// A node began or stopped believing it holds a lease (a crashed node
    /// holds nothing): two holders at once is a broken lease.
    pub fn on_lease(&mut self, now: Micros, node: NodeId, held: bool) -> Vec<Violation> {
        let count = |h: &[bool]| h.iter().filter(|&&x| x).count();
        let before = count(&self.lease_holders);
        *slot(&mut self.lease_holders, node) = held;
        if before < 2 && count(&self.lease_holders) >= 2 {
            let holders: Vec<NodeId> = (0..)
                .zip(&self.lease_holders)
                .filter(|&(_, &h)| h)
                .map(|(id, _)| id)
                .collect();
            return self.report(Violation {
                at_us: now,
                property: LEASE_OVERLAP.id,
                detail: format!(
                    "{} both believe they hold the lease: their clocks disagree by more than the lease allows for (drift or a pause beyond the bound)",
                    names(&holders)
                ),
                nodes: holders,
            });
        }
        Vec::new()
    }
}
