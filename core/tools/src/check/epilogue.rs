//! For a liveness check, what undoes a fault schedule once it is over
//! (the epilogue [`super::spec::CheckSpec::full`] appends), and when a
//! schedule is over. Apart from `schedule.rs`, which draws schedules from
//! a spec, so that the spec can append an epilogue without importing
//! what imports it.

use crate::ScenarioExt;
use crate::scenario::{Fault, FaultAction, NetworkSpec, Scenario, Target};
use crate::time::{Micros, ms};

/// When the last of `faults` is over: its time, plus its length for a
/// pause or a bounded flaky spell.
pub fn faults_over_us(faults: &[Fault]) -> Micros {
    faults
        .iter()
        .map(|f| {
            f.at_us
                + match &f.action {
                    FaultAction::Pause { for_us, .. } => *for_us,
                    FaultAction::Flaky { for_us, .. } => for_us.unwrap_or(0),
                    _ => 0,
                }
        })
        .max()
        .unwrap_or(0)
}

/// What undoes the faults of `core`, 1 s after they are over: a heal
/// after any partition or cut, a loss-free network (the scenario's
/// latency) after a network fault or on a lossy network, a recovery of
/// every node that may have crashed, and normal speed for every slowed
/// node. Clock faults stay (a clock that is off is not undone).
pub fn epilogue(core: &Scenario) -> Vec<Fault> {
    let at_us = faults_over_us(&core.faults) + ms(1000);
    let mut out = Vec::new();
    let mut push = |action| out.push(Fault { at_us, action });
    let has = |p: fn(&FaultAction) -> bool| core.faults.iter().any(|f| p(&f.action));
    if has(|a| matches!(a, FaultAction::Partition(_) | FaultAction::Cut { .. })) {
        push(FaultAction::Heal);
    }
    let lossy = core.network.drop > 0.0 || core.network.duplicate > 0.0;
    if lossy || has(|a| matches!(a, FaultAction::Network(_))) {
        push(FaultAction::Network(NetworkSpec {
            drop: 0.0,
            duplicate: 0.0,
            ..core.network.clone()
        }));
    }
    let n = core.total_nodes();
    let aimed = |f: &Fault, id: u32, crash: bool| match &f.action {
        FaultAction::Crash(t) | FaultAction::Flaky { node: t, .. } if crash => {
            matches!(t, Target::Leader | Target::LeaderOrNext) || *t == Target::Node(id)
        }
        FaultAction::Slow { node: t, .. } if !crash => {
            matches!(t, Target::Leader | Target::LeaderOrNext) || *t == Target::Node(id)
        }
        _ => false,
    };
    for id in 0..n {
        if core.faults.iter().any(|f| aimed(f, id, true)) {
            push(FaultAction::Recover(Target::Node(id)));
        }
    }
    for id in 0..n {
        if core.faults.iter().any(|f| aimed(f, id, false)) {
            push(FaultAction::Slow {
                node: Target::Node(id),
                extra_us: 0,
            });
        }
    }
    out
}
