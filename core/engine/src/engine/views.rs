//! What the page and the inspector see of the engine: node rows and every
//! field of one node.

use super::*;

impl<P: Protocol> Engine<P> {
    /// One-way links cut right now, `(from, to)`, ascending.
    pub fn cuts(&self) -> Vec<(NodeId, NodeId)> {
        self.network.cuts.iter().copied().collect()
    }

    /// A view of every node. An extra node (the service or the resource,
    /// ids from `n` on) is a service from the start: it announces its
    /// role only when its start event runs, and a crashed node's slot
    /// falls back to follower, but what it is never changes, so a page
    /// at 0 ms or with it crashed draws it as what it is.
    pub fn node_views(&self) -> Vec<NodeView> {
        let participants = self.config.n as usize;
        self.slots
            .iter()
            .enumerate()
            .map(|(id, s)| NodeView {
                next_timer: self.next_timer(s),
                id: id as NodeId,
                alive: s.state.is_some(),
                paused: s.paused_until.is_some(),
                slow_us: s.slow_us,
                role: if id >= participants {
                    Role::Service
                } else {
                    s.role
                },
                term: s.term,
                leader: s.leader,
                local_us: s.clock.local(self.now),
                group: self.network.group[id],
                timers: s.timers.len(),
            })
            .collect()
    }

    /// The armed timer of `slot` that fires first (the first listed of
    /// those that fire at the same time), with its class, which is asked
    /// of the node's state only here.
    fn next_timer(&self, slot: &Slot<P>) -> Option<PendingTimer> {
        let state = slot.state.as_ref()?;
        let mut first: Option<(Micros, &ArmedTimer<P::Timer>)> = None;
        for t in &slot.timers {
            let fires = t.fires_at(&slot.clock, slot.paused_until, self.now);
            if first.is_none_or(|(f, _)| fires < f) {
                first = Some((fires, t));
            }
        }
        first.map(|(fires_us, t)| PendingTimer {
            class: state.timer_class(t.timer),
            armed_us: t.armed_at,
            fires_us,
        })
    }

    /// Every field of a node's algorithm state plus what the engine knows.
    pub fn inspect(&self, node: NodeId) -> Vec<(String, String)> {
        let Some(slot) = self.slots.get(node as usize) else {
            return Vec::new();
        };
        let mut out = vec![
            (
                "status".to_string(),
                match (&slot.state, slot.paused_until) {
                    (None, _) => "crashed".to_string(),
                    (Some(_), Some(t)) => format!("paused until {} ms", to_ms(t)),
                    (Some(_), None) => "up".to_string(),
                },
            ),
            (
                "local clock".to_string(),
                format!(
                    "{} ms (true {} ms; offset {} ms, drift {})",
                    slot.clock.local(self.now) as f64 / 1000.0,
                    to_ms(self.now),
                    slot.clock.offset_us as f64 / 1000.0,
                    slot.clock.drift
                ),
            ),
        ];
        for t in &slot.timers {
            let fires = t.fires_at(&slot.clock, slot.paused_until, self.now);
            let class = slot
                .state
                .as_ref()
                .map_or(TimerClass::Other, |s| s.timer_class(t.timer));
            out.push((
                "timer".to_string(),
                format!(
                    "{:?} ({}) armed at {} ms, fires at {} ms",
                    t.timer,
                    class.label(),
                    to_ms(t.armed_at),
                    to_ms(fires)
                ),
            ));
        }
        if let Some(state) = &slot.state {
            out.extend(state.inspect().into_iter().map(|(k, v)| (k.to_string(), v)));
        }
        out
    }
}
