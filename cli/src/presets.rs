//! `election presets`: the guided scenarios, one line each (name, then
//! title), or as JSON with the file paths (scenario and lesson) and the
//! narrated steps.

use crate::error::CliError;
use crate::output::json;
use election_core::presets::{ALL, PresetInfo};
use serde::Serialize;

/// One preset as `election presets --json` prints it.
#[derive(Serialize)]
struct PresetJson {
    #[serde(flatten)]
    preset: PresetInfo,
    /// Path of the scenario file from the repository root.
    file: String,
    /// Path of the lesson file from the repository root.
    lesson: String,
}

/// The list of presets as text or JSON.
pub fn presets(as_json: bool) -> Result<String, CliError> {
    if as_json {
        let list = ALL
            .iter()
            .map(|p| {
                Ok(PresetJson {
                    preset: p.info()?,
                    file: p.file(),
                    lesson: p.lesson_file(),
                })
            })
            .collect::<Result<Vec<_>, election_core::lesson::LessonError>>()
            .map_err(|e| CliError::failure(format!("a preset's lesson: {e}")))?;
        return json(&list);
    }
    let width = ALL.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for p in ALL {
        let title = p.info().map(|i| i.title).unwrap_or_default();
        out.push_str(&format!("{:<width$}  {title}\n", p.name));
    }
    out.push_str(
        "\nRun one with `election run --preset NAME` (or --scenario scenarios/presets/NAME.json);\n\
         step through its lesson with `election lesson run lessons/NAME.json`;\n\
         open it on the page with ?preset=NAME.\n",
    );
    Ok(out)
}
