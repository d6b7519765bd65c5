//! Share links (`s=<version>.<base64url(deflate(json))>`): the model's
//! encoder and limits, and [`decode`], validated against the registry.

pub use election_algorithms::checked::decode;
pub use election_model::share::{LINK_VERSION, MAX_LINK_CHARS, encode};
