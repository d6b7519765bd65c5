//! Per-node local clocks: `local = offset + (1 + drift) x true time`.
//!
//! Nodes only ever see their local clock; timers are set in local
//! durations and the engine converts them to true time here. The rate is an
//! `f64`, but every conversion rounds to whole microseconds with IEEE-754
//! operations that behave the same natively and in wasm.

use crate::time::Micros;

/// One node's clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalClock {
    /// Offset from true time, microseconds.
    pub offset_us: i64,
    /// Rate error: 0.05 means the clock runs 5% fast.
    pub drift: f64,
}

impl Default for LocalClock {
    fn default() -> Self {
        Self {
            offset_us: 0,
            drift: 0.0,
        }
    }
}

impl LocalClock {
    /// The local reading at true time `t`.
    pub fn local(&self, t: Micros) -> i64 {
        if self.drift == 0.0 {
            return self.offset_us.saturating_add(t as i64);
        }
        self.offset_us
            .saturating_add((t as f64 * (1.0 + self.drift)).round() as i64)
    }

    /// The earliest true time at which the local clock reads at least
    /// `local`, but never before `now`.
    pub fn true_time_of(&self, local: i64, now: Micros) -> Micros {
        let rate = 1.0 + self.drift;
        let since_offset = local.saturating_sub(self.offset_us);
        let t = if self.drift == 0.0 {
            since_offset.max(0) as Micros
        } else {
            (since_offset as f64 / rate).ceil().max(0.0) as Micros
        };
        t.max(now)
    }

    /// The true time when a timer of local duration `after_us`, armed at
    /// true time `now`, fires.
    pub fn deadline(&self, now: Micros, after_us: Micros) -> (i64, Micros) {
        let local_deadline = self.local(now).saturating_add(after_us as i64);
        (local_deadline, self.true_time_of(local_deadline, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_clock_is_true_time() {
        let c = LocalClock::default();
        assert_eq!(c.local(1234), 1234);
        assert_eq!(c.deadline(1000, 500), (1500, 1500));
    }

    #[test]
    fn fast_clock_fires_timers_early() {
        // 25% fast: 1000 local us pass in 800 true us.
        let c = LocalClock {
            offset_us: 0,
            drift: 0.25,
        };
        assert_eq!(c.deadline(0, 1000).1, 800);
    }

    #[test]
    fn offset_jump_forward_fires_pending_timers_at_once() {
        let c = LocalClock {
            offset_us: 10_000,
            drift: 0.0,
        };
        assert_eq!(c.true_time_of(5_000, 100), 100);
    }
}
