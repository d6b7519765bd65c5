//! Simulation time: integer microseconds, and conversions to and from the
//! millisecond numbers that scenarios and reports use.

/// A point or span of true simulation time, in microseconds.
pub type Micros = u64;

/// Microseconds in one millisecond.
pub const US_PER_MS: u64 = 1_000;

/// Converts microseconds to (possibly fractional) milliseconds for reports.
pub fn to_ms(us: Micros) -> f64 {
    us as f64 / US_PER_MS as f64
}

/// Converts whole milliseconds to microseconds, saturating on overflow.
pub fn ms(ms: u64) -> Micros {
    ms.saturating_mul(US_PER_MS)
}

/// The latest time any scenario field may name, as a float for range checks.
pub const MAX_TIME_US_F64: f64 = 86_400_000_000.0;
