//! The words of the story: how times, nodes and lists are written, and
//! the few phrases that differ by algorithm family. Only wording lives
//! here; what is true comes from `facts.rs`.

use crate::protocol::{NodeId, TimerClass};
use crate::time::Micros;

/// How an algorithm's elections are told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// Bully and its variants: the highest live id wins.
    Bully,
    /// Ring algorithms: the message goes round the ring.
    Ring,
    /// Raft: terms, votes and a majority.
    Raft,
    /// Everything else (consensus services, leases, scripts): generic.
    Other,
}

impl Family {
    /// The family of an algorithm id.
    pub fn of(algorithm: &str) -> Self {
        match algorithm {
            "bully" | "next-in-line" | "candidate-ordinary" => Family::Bully,
            "chang-roberts" | "lelann" | "hirschberg-sinclair" => Family::Ring,
            "raft" => Family::Raft,
            _ => Family::Other,
        }
    }

    /// What a timer of `class` is called when it makes a node act.
    pub fn timer_name(self, class: TimerClass) -> String {
        match (self, class) {
            (Family::Bully | Family::Ring, TimerClass::ElectionTimeout) => {
                "failure-detector timer".to_string()
            }
            (_, TimerClass::ElectionTimeout) => "election timeout".to_string(),
            (_, TimerClass::ReplyWait) => "reply timer".to_string(),
            (_, TimerClass::Retry) => "retry timer".to_string(),
            (_, TimerClass::LeaseExpiry) => "lease timer".to_string(),
            (_, c) => format!("{} timer", c.label()),
        }
    }
}

/// `n3`.
pub(crate) fn node(n: NodeId) -> String {
    format!("n{n}")
}

/// `n1, n3 and n4`.
pub(crate) fn nodes(list: &[NodeId]) -> String {
    let names: Vec<String> = list.iter().map(|n| node(*n)).collect();
    match names.len() {
        0 => "nobody".to_string(),
        1 => names[0].clone(),
        k => format!("{} and {}", names[..k - 1].join(", "), names[k - 1]),
    }
}

/// A duration or time in ms for people: `1,370 ms`, `5.2 ms`, `0 ms`.
pub(crate) fn ms(us: Micros) -> String {
    let tenths = (us + 50) / 100;
    if us < 100_000 && tenths % 10 != 0 {
        format!("{}.{} ms", thousands(tenths / 10), tenths % 10)
    } else {
        format!("{} ms", thousands((us + 500) / 1000))
    }
}

/// `20,126`.
pub(crate) fn thousands(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The first letter in upper case (ASCII: captions start with a node name
/// or an English word).
pub(crate) fn capitalized(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// A count with its noun: `1 message`, `3 messages`.
pub(crate) fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_people_write_them() {
        assert_eq!(ms(1_370_000), "1,370 ms");
        assert_eq!(ms(20_126_377), "20,126 ms");
        assert_eq!(ms(5_220), "5.2 ms");
        assert_eq!(ms(0), "0 ms");
        assert_eq!(ms(250_000), "250 ms");
        assert_eq!(nodes(&[1, 3, 4]), "n1, n3 and n4");
        assert_eq!(capitalized("network heals"), "Network heals");
    }
}
