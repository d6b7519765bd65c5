//! `election algorithms`: the registry, one line per algorithm.

use crate::error::CliError;
use crate::output::json;
use election_core::algorithms::ALL;

/// The list of algorithms: one line each (id, then summary), or the
/// registry entries as JSON.
pub fn algorithms(as_json: bool) -> Result<String, CliError> {
    if as_json {
        return json(ALL);
    }
    let width = ALL.iter().map(|a| a.id.len()).max().unwrap_or(0);
    Ok(ALL
        .iter()
        .map(|a| format!("{:<width$}  {}\n", a.id, a.summary))
        .collect())
}
