//! Which growth law fits measured message counts: `1`, `n`, `n log n` or
//! `n^2` (the forms the textbook's trade-off table uses, and a constant for
//! a failover that costs the same at any size), by least squares on a log
//! scale with one free constant per law.

/// The growth laws, defined with the claims that name them.
pub use election_algorithms::claims::Growth;

/// The law that fits `points` (`(n, messages)`, messages > 0) best, with
/// the exponent measured between the smallest and the largest n (the
/// slope on a log-log scale: about 0 for `1`, 1 for `n`, 2 for `n^2`). None with
/// fewer than two distinct sizes or a count of zero.
pub fn fit(points: &[(u32, f64)]) -> Option<(Growth, f64)> {
    let lo = points.iter().min_by_key(|p| p.0)?;
    let hi = points.iter().max_by_key(|p| p.0)?;
    if lo.0 == hi.0 || points.iter().any(|p| p.1 <= 0.0 || p.0 < 2) {
        return None;
    }
    let exponent = (hi.1 / lo.1).ln() / (f64::from(hi.0) / f64::from(lo.0)).ln();
    let error = |g: Growth| {
        // The best constant on a log scale is the mean log ratio.
        let logs: Vec<f64> = points
            .iter()
            .map(|&(n, m)| m.ln() - g.shape(f64::from(n)).ln())
            .collect();
        let c = logs.iter().sum::<f64>() / logs.len() as f64;
        logs.iter().map(|l| (l - c) * (l - c)).sum::<f64>()
    };
    let best = Growth::ALL
        .into_iter()
        .min_by(|a, b| error(*a).total_cmp(&error(*b)))?;
    Some((best, exponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_laws_are_recognised() {
        for g in Growth::ALL {
            let points: Vec<(u32, f64)> = [8u32, 64]
                .iter()
                .map(|&n| (n, 3.0 * g.shape(f64::from(n))))
                .collect();
            assert_eq!(fit(&points).map(|f| f.0), Some(g), "{g:?}");
        }
    }

    #[test]
    fn the_exponent_is_the_log_log_slope() {
        let (g, e) = fit(&[(8, 15.0), (64, 127.0)]).unwrap();
        assert_eq!(g, Growth::Linear);
        assert!((e - 1.028).abs() < 0.01, "{e}");
        let (g, e) = fit(&[(8, 56.0), (64, 4032.0)]).unwrap();
        assert_eq!(g, Growth::Quadratic);
        assert!((e - 2.057).abs() < 0.01, "{e}");
    }

    #[test]
    fn too_few_sizes_fit_nothing() {
        assert_eq!(fit(&[(8, 10.0)]), None);
        assert_eq!(fit(&[(8, 10.0), (8, 12.0)]), None);
        assert_eq!(fit(&[(8, 0.0), (64, 12.0)]), None);
    }
}
