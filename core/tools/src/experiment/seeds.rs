//! Parsing a seed range (`election sweep --seeds`, the page's experiments):
//! `A..B` and `A..=B` (both inclusive of both ends) or a single seed `A`.

/// Most seeds one sweep may run.
pub const MAX_SEEDS: u64 = 1_000_000;

/// An inclusive range of seeds, `from <= to`, at most [`MAX_SEEDS`] long.
/// Serialized as `{"from": A, "to": B}` (the `seeds` of a sweep report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SeedRange {
    /// First seed.
    pub from: u64,
    /// Last seed (included).
    pub to: u64,
}

impl SeedRange {
    /// Number of seeds in the range (at least one).
    pub fn count(&self) -> u64 {
        self.to - self.from + 1
    }
}

/// One seed; `which` ("first ", "last " or "") says which end it is.
fn seed(text: &str, which: &str) -> Result<u64, String> {
    let t = text.trim();
    t.parse::<u64>().map_err(|_| {
        format!(
            "the {which}seed {t:?} is not a whole number from 0 to {}",
            u64::MAX
        )
    })
}

/// Parses `A..B`, `A..=B` or `A`.
pub fn parse_seeds(text: &str) -> Result<SeedRange, String> {
    let (from, to) = match text.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (seed(a, "first ")?, seed(b, "last ")?)
        }
        None => {
            let a = seed(text, "")?;
            (a, a)
        }
    };
    if from > to {
        return Err(format!(
            "the range {from}..{to} is empty: the first seed must not be above the last (both ends are included)"
        ));
    }
    let range = SeedRange { from, to };
    if to - from >= MAX_SEEDS {
        return Err(format!(
            "the range {from}..{to} has {} seeds; the limit is {MAX_SEEDS}",
            u128::from(to - from) + 1
        ));
    }
    Ok(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(parse_seeds("1..20"), Ok(SeedRange { from: 1, to: 20 }));
        assert_eq!(parse_seeds("1..=20"), Ok(SeedRange { from: 1, to: 20 }));
        assert_eq!(parse_seeds("7"), Ok(SeedRange { from: 7, to: 7 }));
        assert_eq!(parse_seeds(" 3 .. 4 ").map(|r| r.count()), Ok(2));
    }

    #[test]
    fn errors() {
        assert!(parse_seeds("5..1").unwrap_err().contains("empty"));
        assert!(parse_seeds("a..3").unwrap_err().contains("first"));
        assert!(parse_seeds("1..").is_err());
        assert!(parse_seeds("..3").is_err());
        assert!(parse_seeds("-1..3").is_err());
        assert!(parse_seeds("0..1000000").unwrap_err().contains("limit"));
        assert_eq!(parse_seeds("0..999999").map(|r| r.count()), Ok(MAX_SEEDS));
        assert!(
            parse_seeds(&format!("0..{}", u64::MAX))
                .unwrap_err()
                .contains("limit")
        );
    }
}
