//! `election templates`: the scripts shipped with the playground (the
//! Chang-Roberts and Bully algorithms as scripts, exercise skeletons): a
//! list, the whole set as JSON, or one script's source to start from
//! (`election templates ring-exercise > mine.rhai`). `election run
//! --script template:ID` runs one as it is.

use crate::error::CliError;
use crate::output::json;
use clap::Args;
use election_core::script::templates::{self, ALL, TemplateKind};

/// Flags of `election templates`.
#[derive(Debug, Clone, Args)]
pub struct TemplatesArgs {
    /// Print this template's source instead of the list.
    #[arg(value_name = "ID")]
    pub id: Option<String>,
    /// Print every template (id, name, kind, description, scenario,
    /// source) as JSON.
    #[arg(long, conflicts_with = "id")]
    pub json: bool,
}

/// The list, the JSON, or one source.
pub fn templates(args: &TemplatesArgs) -> Result<String, CliError> {
    if args.json {
        return json(ALL);
    }
    if let Some(id) = &args.id {
        return templates::find(id)
            .map(|t| t.source.to_string())
            .ok_or_else(|| {
                let ids: Vec<&str> = ALL.iter().map(|t| t.id).collect();
                CliError::input(format!("no template {id:?}; known: {}", ids.join(", ")))
            });
    }
    let width = ALL.iter().map(|t| t.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for t in ALL {
        let kind = match t.kind {
            TemplateKind::Template => "template",
            TemplateKind::Exercise => "exercise",
        };
        out.push_str(&format!("{:<width$}  {kind:<8}  {}\n", t.id, t.name));
    }
    out.push_str("\nrun one: election run --script template:ID; start from one: election templates ID > mine.rhai\n");
    Ok(out)
}
