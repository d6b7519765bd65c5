//! Share links, as every caller uses them: [`election_model::share`]
//! (`s=<version>.<base64url(deflate(json))>`), decoding validated against
//! the registry of algorithms.

pub use election_model::share::{LINK_VERSION, MAX_LINK_CHARS, encode};

use crate::algorithms::Registry;
use crate::scenario::{Scenario, ScenarioError};

/// Decodes the value of an `s=` parameter back into a validated scenario.
pub fn decode(text: &str) -> Result<Scenario, ScenarioError> {
    election_model::share::decode(text, &Registry)
}
