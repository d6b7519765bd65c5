//! Summary statistics over many runs (the `election sweep` figures):
//! [`Stats`] of a value every run has, and [`Censored`] percentiles of a
//! time that some runs never reached (a recovery that never came).

use serde::Serialize;

/// Mean, median, 99th percentile and extremes of a sample.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stats {
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (nearest-rank).
    pub p50: f64,
    /// 99th percentile (nearest-rank).
    pub p99: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Number of values.
    pub count: usize,
}

impl Stats {
    /// Statistics of `values`; `None` when empty.
    pub fn of(values: &[f64]) -> Option<Self> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        // Unstable: values equal under `total_cmp` are the same bits, so
        // the order is the same, and the unstable sort is the smaller code.
        sorted.sort_unstable_by(f64::total_cmp);
        let rank = |p: f64| {
            let r = (p * sorted.len() as f64).ceil() as usize;
            sorted[r.clamp(1, sorted.len()) - 1]
        };
        Some(Self {
            mean: sorted.iter().sum::<f64>() / sorted.len() as f64,
            p50: rank(0.50),
            p99: rank(0.99),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            count: sorted.len(),
        })
    }
}

/// Percentiles of a time that some runs never reached within the time
/// they were watched (a recovery that never came, a leader never
/// elected): right-censored data. A run that never got there counts, as
/// one that took longer than it was watched, so a percentile that falls
/// among those runs is not a number but "more than
/// [`Censored::censored_after_ms`]" (`None` here, `> T` where it is
/// shown), and the median of a sweep in which most runs never recovered
/// is not the median of the few that did.
///
/// Every run that never got there is taken to be slower than every run
/// that did: exact when each was watched at least as long as the longest
/// time reached, as in a sweep whose runs all go to the same end (a
/// scenario's `until_ms` or the run limit).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Censored {
    /// Runs in all.
    pub runs: usize,
    /// Runs that got there.
    pub reached: usize,
    /// `reached / runs` (0 with no run): where the CDF levels off.
    pub fraction_reached: f64,
    /// The shortest time a run that never got there was watched for,
    /// ms: each such run took longer than this. `None` when every run
    /// got there (or no run said how long it was watched).
    pub censored_after_ms: Option<f64>,
    /// Median (nearest rank over every run); `None` when it falls among
    /// the runs that never got there.
    pub p50: Option<f64>,
    /// 90th percentile, likewise.
    pub p90: Option<f64>,
    /// 99th percentile, likewise.
    pub p99: Option<f64>,
    /// The longest time; `None` when some run never got there.
    pub max: Option<f64>,
}

impl Censored {
    /// The percentiles of `times`, one per run: `Ok(t)` for a run that
    /// got there after `t`, `Err(w)` for one that did not within the `w`
    /// it was watched for (`None` when that is not known).
    pub fn of(times: &[Result<f64, Option<f64>>]) -> Self {
        let mut reached: Vec<f64> = times.iter().filter_map(|t| t.ok()).collect();
        reached.sort_unstable_by(f64::total_cmp);
        let censored_after_ms = times
            .iter()
            .filter_map(|t| t.err().flatten())
            .min_by(f64::total_cmp);
        let runs = times.len();
        // Nearest rank over every run; ranks past the runs that got
        // there fall among those that did not.
        let rank = |p: f64| {
            let r = ((p * runs as f64).ceil() as usize).clamp(1, runs.max(1));
            reached.get(r - 1).copied()
        };
        Self {
            runs,
            reached: reached.len(),
            fraction_reached: if runs == 0 {
                0.0
            } else {
                reached.len() as f64 / runs as f64
            },
            censored_after_ms,
            p50: rank(0.50),
            p90: rank(0.90),
            p99: rank(0.99),
            max: if reached.len() == runs {
                reached.last().copied()
            } else {
                None
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        let s = Stats::of(&v).unwrap();
        assert_eq!(
            (s.p50, s.p99, s.min, s.max, s.mean),
            (50.0, 99.0, 1.0, 100.0, 50.5)
        );
        assert_eq!(Stats::of(&[]), None);
    }

    #[test]
    fn runs_that_never_got_there_count_as_slower() {
        // Raft figure 16 at 150-150 ms (issue 29): most runs never
        // recover, so the median is not among the few that did.
        let mut times: Vec<Result<f64, Option<f64>>> = (1..=3).map(|t| Ok(f64::from(t))).collect();
        times.extend([
            Err(Some(59_000.0)),
            Err(Some(59_000.0)),
            Err(Some(60_000.0)),
            Err(None),
        ]);
        let c = Censored::of(&times);
        assert_eq!((c.runs, c.reached), (7, 3));
        assert_eq!(c.fraction_reached, 3.0 / 7.0);
        assert_eq!(c.censored_after_ms, Some(59_000.0));
        assert_eq!((c.p50, c.p90, c.p99, c.max), (None, None, None, None));
        let most: Vec<_> = (1..=9)
            .map(|t| Ok(f64::from(t)))
            .chain([Err(Some(500.0))])
            .collect();
        let c = Censored::of(&most);
        assert_eq!(
            (c.p50, c.p90, c.p99, c.max),
            (Some(5.0), Some(9.0), None, None)
        );
        let all: Vec<_> = (1..=100).map(|t| Ok(f64::from(t))).collect();
        let c = Censored::of(&all);
        assert_eq!(
            (c.p50, c.p99, c.max, c.censored_after_ms),
            (Some(50.0), Some(99.0), Some(100.0), None)
        );
        assert_eq!(Censored::of(&[]).p50, None);
    }
}
