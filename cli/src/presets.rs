//! `election presets`: the guided scenarios, one line each (name, then
//! title), or as JSON with the file path and the narrated steps.

use crate::error::CliError;
use crate::output::json;
use election_core::presets::{ALL, Preset};
use serde::Serialize;

/// One preset as `election presets --json` prints it.
#[derive(Serialize)]
struct PresetJson<'a> {
    #[serde(flatten)]
    preset: &'a Preset,
    /// Path of the scenario file from the repository root.
    file: String,
}

/// The list of presets as text or JSON.
pub fn presets(as_json: bool) -> Result<String, CliError> {
    if as_json {
        let list: Vec<PresetJson<'_>> = ALL
            .iter()
            .map(|p| PresetJson {
                preset: p,
                file: p.file(),
            })
            .collect();
        return json(&list);
    }
    let width = ALL.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let mut out: String = ALL
        .iter()
        .map(|p| format!("{:<width$}  {}\n", p.name, p.title))
        .collect();
    out.push_str(
        "\nRun one with `election run --preset NAME` (or --scenario scenarios/presets/NAME.json);\n\
         open it on the page with ?preset=NAME.\n",
    );
    Ok(out)
}
