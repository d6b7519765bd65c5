//! Reading a scenario file: refused before parsing when larger than
//! [`MAX_SCENARIO_BYTES`], read with a size cap (so a file that grows, a
//! pipe or a device cannot make us read more), then parsed and validated
//! by the core's one scenario parser. Guided scenarios (`--preset`) come
//! from the core's embedded registry instead of a file.

use crate::error::CliError;
use election_core::Scenario;
use election_core::ScenarioExt;
use election_core::scenario::MAX_SCENARIO_BYTES;
use election_core::script::{MAX_SCRIPT_BYTES, templates};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The name a path is shown under in messages (`-` is standard input).
pub fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn too_large(name: &str, size: u64) -> CliError {
    CliError::input(format!(
        "{name}: the scenario is {size} bytes; the limit is {MAX_SCENARIO_BYTES} bytes"
    ))
}

/// The text of the scenario file at `path` (`-` reads standard input),
/// at most [`MAX_SCENARIO_BYTES`] bytes of UTF-8.
pub fn read_scenario_text(path: &Path) -> Result<String, CliError> {
    let name = display_name(path);
    let limit = MAX_SCENARIO_BYTES as u64;
    let reader: Box<dyn Read> = if is_stdin(path) {
        Box::new(std::io::stdin())
    } else {
        let file = File::open(path)
            .map_err(|e| CliError::input(format!("cannot open scenario file {name}: {e}")))?;
        let meta = file
            .metadata()
            .map_err(|e| CliError::input(format!("cannot read scenario file {name}: {e}")))?;
        if meta.is_dir() {
            return Err(CliError::input(format!(
                "{name} is a directory, not a scenario file"
            )));
        }
        if meta.len() > limit {
            return Err(too_large(&name, meta.len()));
        }
        Box::new(file)
    };
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::input(format!("cannot read scenario file {name}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::input(format!(
            "{name}: the scenario is larger than the limit of {MAX_SCENARIO_BYTES} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::input(format!(
            "{name}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The validated scenario in the file at `path`, or the defaults when
/// there is no file. Scenario errors are prefixed with the file name.
pub fn load_scenario(path: Option<&Path>) -> Result<Scenario, CliError> {
    let Some(path) = path else {
        return Ok(Scenario::default());
    };
    let text = read_scenario_text(path)?;
    Scenario::from_json(&text).map_err(|e| CliError::input(format!("{}: {e}", display_name(path))))
}

/// The source of `--script SPEC`: a file (`-` reads standard input) of at
/// most [`MAX_SCRIPT_BYTES`] bytes, or `template:ID`, a shipped script.
pub fn load_script(spec: &str) -> Result<String, CliError> {
    if let Some(id) = spec.strip_prefix("template:") {
        return templates::find(id)
            .map(|t| t.source.to_string())
            .ok_or_else(|| {
                let ids: Vec<&str> = templates::ALL.iter().map(|t| t.id).collect();
                CliError::input(format!(
                    "--script {spec}: no template {id:?}; known: {}",
                    ids.join(", ")
                ))
            });
    }
    let path = Path::new(spec);
    let name = display_name(path);
    let limit = MAX_SCRIPT_BYTES as u64;
    let reader: Box<dyn Read> = if is_stdin(path) {
        Box::new(std::io::stdin())
    } else {
        let file = File::open(path)
            .map_err(|e| CliError::input(format!("--script: cannot open {name}: {e}")))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(CliError::input(format!(
                "--script: {name} is a directory, not a script file"
            )));
        }
        Box::new(file)
    };
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::input(format!("--script: cannot read {name}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::input(format!(
            "--script: {name} is larger than the limit of {MAX_SCRIPT_BYTES} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::input(format!(
            "--script: {name} is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The scenario of the guided scenario `name` (see `election presets`).
pub fn load_preset(name: &str) -> Result<Scenario, CliError> {
    let preset = election_core::presets::lookup(name, "--preset")
        .map_err(|e| CliError::input(format!("--preset: {}", e.message)))?;
    preset
        .scenario()
        .map_err(|e| CliError::input(format!("preset {name}: {e}")))
}
