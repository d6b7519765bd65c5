//! Removing one node from a scenario, for the shrinker: the higher ids
//! (participants and the algorithm's extra nodes after them) move down by
//! one, faults aimed at the removed node are dropped, a partition loses
//! it from its groups, and the start set and candidate list are
//! renumbered the same way.

use crate::scenario::{Fault, FaultAction, Scenario, StartSet, Target};

/// The new id of `id` once `gone` is removed; `None` for `gone` itself.
fn renumber(id: u32, gone: u32) -> Option<u32> {
    match id.cmp(&gone) {
        std::cmp::Ordering::Less => Some(id),
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some(id - 1),
    }
}

fn ids(list: &[u32], gone: u32) -> Vec<u32> {
    list.iter().filter_map(|&id| renumber(id, gone)).collect()
}

fn target(t: Target, gone: u32) -> Option<Target> {
    match t {
        Target::Leader => Some(Target::Leader),
        Target::LeaderOrNext => Some(Target::LeaderOrNext),
        Target::Node(id) => renumber(id, gone).map(Target::Node),
    }
}

/// `action` with `gone` removed, or `None` when it was aimed at `gone`
/// (or a partition has no group left).
fn action(a: &FaultAction, gone: u32) -> Option<FaultAction> {
    use FaultAction as A;
    Some(match a {
        A::Crash(t) => A::Crash(target(*t, gone)?),
        A::Recover(t) => A::Recover(target(*t, gone)?),
        A::Pause { node, for_us } => A::Pause {
            node: target(*node, gone)?,
            for_us: *for_us,
        },
        A::Clock {
            node,
            offset_us,
            drift,
        } => A::Clock {
            node: target(*node, gone)?,
            offset_us: *offset_us,
            drift: *drift,
        },
        A::Slow { node, extra_us } => A::Slow {
            node: target(*node, gone)?,
            extra_us: *extra_us,
        },
        A::Flaky {
            node,
            period_us,
            down_us,
            for_us,
        } => A::Flaky {
            node: target(*node, gone)?,
            period_us: *period_us,
            down_us: *down_us,
            for_us: *for_us,
        },
        A::Cut { from, to } => A::Cut {
            from: renumber(*from, gone)?,
            to: renumber(*to, gone)?,
        },
        A::Uncut { from, to } => A::Uncut {
            from: renumber(*from, gone)?,
            to: renumber(*to, gone)?,
        },
        A::Partition(groups) => {
            let groups: Vec<Vec<u32>> = groups
                .iter()
                .map(|g| ids(g, gone))
                .filter(|g| !g.is_empty())
                .collect();
            if groups.is_empty() {
                return None;
            }
            A::Partition(groups)
        }
        A::Heal => A::Heal,
        A::Network(n) => A::Network(n.clone()),
    })
}

/// `s` without participant `gone` (which must be below `s.nodes`); `None`
/// when it is the last one.
pub fn remove_node(s: &Scenario, gone: u32) -> Option<Scenario> {
    if s.nodes <= 1 || gone >= s.nodes {
        return None;
    }
    let mut c = s.clone();
    c.nodes -= 1;
    if let StartSet::Ids(list) = &s.start {
        c.start = StartSet::Ids(ids(list, gone));
    }
    c.candidates = s.candidates.as_ref().map(|list| ids(list, gone));
    c.faults = s
        .faults
        .iter()
        .filter_map(|f| {
            action(&f.action, gone).map(|action| Fault {
                at_us: f.at_us,
                action,
            })
        })
        .collect();
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioExt;

    #[test]
    fn renumbers_and_drops() {
        let s = Scenario::from_json(
            r#"{"algorithm": "bully", "nodes": 4, "faults": [
                {"at_ms": 1, "crash": 2}, {"at_ms": 2, "crash": 3},
                {"at_ms": 3, "partition": [[0, 2], [3]]}, {"at_ms": 4, "cut": [1, 3]},
                {"at_ms": 5, "crash": "leader"}]}"#,
        )
        .unwrap();
        let c = remove_node(&s, 2).unwrap();
        assert_eq!(c.nodes, 3);
        let text = serde_json::to_string(&c.to_json()["faults"]).unwrap();
        assert_eq!(
            text,
            r#"[{"at_ms":2,"crash":2},{"at_ms":3,"partition":[[0],[2]]},{"at_ms":4,"cut":[1,2]},{"at_ms":5,"crash":"leader"}]"#
        );
        assert!(remove_node(&c, 3).is_none());
    }
}
