//! Summary statistics over many runs (the `election sweep` figures).

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
}
