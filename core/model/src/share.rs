//! Share links: the full scenario in a URL fragment as
//! `s=<version>.<base64url(deflate(json))>`.
//!
//! Decoding is strict: the encoded text and the inflated JSON both have
//! size limits checked before any work grows with them, and the JSON then
//! goes through the same parser and validator as a scenario file.

use crate::scenario::{Catalog, MAX_SCENARIO_BYTES, Scenario, ScenarioError};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The link format version written by this build.
pub const LINK_VERSION: u32 = 1;
/// Longest accepted encoded link payload, in characters.
pub const MAX_LINK_CHARS: usize = 32 * 1024;

/// Encodes a scenario as `1.<base64url(deflate(json))>`.
pub fn encode(scenario: &Scenario) -> String {
    let json = serde_json::to_string(&scenario.to_json()).unwrap_or_default();
    pack(&json)
}

/// The link codec on any JSON text: `1.<base64url(deflate(text))>`.
/// Scenario links (`#s=`) and lesson links (`#l=`, `election_core::lesson`)
/// share it.
pub fn pack(json: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    format!("{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// Decodes the value of an `s=` parameter back into a scenario validated
/// against `catalog`.
pub fn decode(text: &str, catalog: &dyn Catalog) -> Result<Scenario, ScenarioError> {
    let text = unpack(text, "s", "scenario", MAX_SCENARIO_BYTES)?;
    Scenario::parse_json(&text, catalog)
}

/// The JSON text [`pack`] packed into `text`: refused, with an error
/// naming `field` (the link's parameter, `s` or `l`) that calls it a link
/// to a `what`, when `text` is longer than [`MAX_LINK_CHARS`], has another
/// format number, is not base64url, or does not inflate to at most
/// `max_bytes` of UTF-8 text (checked while inflating: no zip bombs).
pub fn unpack(
    text: &str,
    field: &str,
    what: &str,
    max_bytes: usize,
) -> Result<String, ScenarioError> {
    let link_error = |message: String| ScenarioError::new(field, message);
    if text.len() > MAX_LINK_CHARS {
        return Err(link_error(format!(
            "the link is {} characters long; the limit is {MAX_LINK_CHARS}",
            text.len()
        )));
    }
    let Some((version, payload)) = text.split_once('.') else {
        return Err(link_error(format!(
            "is not a {what} link (expected <version>.<data>)"
        )));
    };
    match version.parse::<u32>() {
        Ok(1) => {}
        Ok(v) => {
            return Err(link_error(format!(
                "uses link format {v}; this build reads format {LINK_VERSION}"
            )));
        }
        Err(_) => return Err(link_error("does not start with a format number".into())),
    }
    let packed = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|_| link_error("is damaged: the data is not valid base64url".into()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, max_bytes).map_err(
        |_| {
            link_error(format!(
                "is damaged or too large: it does not inflate to at most {max_bytes} bytes of {what}"
            ))
        },
    )?;
    String::from_utf8(json).map_err(|_| link_error("is damaged: not UTF-8 text".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Fault, FaultAction, Target, TestCatalog};

    #[test]
    fn round_trip() {
        let mut s = Scenario::default();
        s.faults.push(Fault {
            at_us: 1_500,
            action: FaultAction::Crash(Target::Leader),
        });
        let link = encode(&s);
        assert!(link.starts_with("1."));
        assert_eq!(decode(&link, &TestCatalog).unwrap(), s);
    }

    #[test]
    fn tampered_links_are_refused_with_a_message() {
        for bad in ["", "1", "2.abc", "x.abc", "1.!!!", "1.AAAA"] {
            let err = decode(bad, &TestCatalog).unwrap_err();
            assert_eq!(err.field, "s", "{bad}: {err}");
        }
    }

    #[test]
    fn zip_bombs_stop_at_the_limit() {
        let big = vec![b' '; MAX_SCENARIO_BYTES * 4];
        let packed = miniz_oxide::deflate::compress_to_vec(&big, 9);
        let link = format!("1.{}", URL_SAFE_NO_PAD.encode(packed));
        assert!(
            decode(&link, &TestCatalog)
                .unwrap_err()
                .message
                .contains("too large")
        );
    }
}
