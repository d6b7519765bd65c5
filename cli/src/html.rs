//! `election html`: one scenario (a file or a preset, with the overrides
//! of `election run`) written into the standalone template as a single
//! html file that opens by double-click with no network and shows that
//! run with the player controls (scripts/build/standalone.mjs, top comment).
//! The template (page, wasm and all) is built by
//! `scripts/build/standalone.mjs`; this command only fills its scenario
//! data block, so it needs no node at run time.
//!
//! # A lesson in the standalone page
//!
//! `election html --lesson FILE -o OUT` (no scenario flags beside it)
//! fills the same block with the lesson:
//!
//! ```html
//! <script type="application/json" id="standalone-scenario" data-at="" data-preset=""
//!         data-lesson="#l=1.<data>">{ ...the lesson's scenario JSON... }</script>
//! ```
//!
//! - the block's text is the scenario the lesson runs
//!   (`Lesson::scenario()`: the steps' faults included), so a page that
//!   knows nothing of lessons still plays the lesson's run;
//! - `data-lesson` is the lesson's link fragment exactly as `election
//!   lesson link FILE` prints it and the wasm's `lesson_link` returns it
//!   (`#l=1.<base64url(deflate(lesson json))>`, attribute-escaped). The
//!   page opens it as it opens an address whose fragment is that `#l=`
//!   link: `lesson_from_link(block.dataset.lesson)` gives the lesson JSON.
//!   Only a lesson page has the attribute; a page written without
//!   `--lesson` is byte for byte what it was.

use crate::error::CliError;
use crate::lesson::load_lesson;
use crate::load::load_preset;
use crate::overrides::{ScenarioArgs, parse_ms};
use clap::Args;
use election_core::Scenario;
use election_core::session::Session;
use election_core::time::{Micros, to_ms};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where `election html` looks for the template without `--template`,
/// relative to the repository the binary was built from and to the
/// current directory.
const TEMPLATE_IN_REPO: &str = "dist/standalone.html";

/// What identifies the scenario data block of a template. Its last
/// occurrence is the block: the block is the file's last element, and the
/// page's bundled code, which comes first, has the text too.
const BLOCK_ID: &str = r#"id="standalone-scenario""#;

/// Largest template read (the real one is under 1 MiB).
const MAX_TEMPLATE_BYTES: u64 = 64 << 20;

/// Where the page opens: a moment, or the run's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// A moment, in microseconds.
    Moment(Micros),
    /// Where `election run` ends (the page's `at=end`).
    End,
}

/// Parses `--at`: `end` or milliseconds, as `election run --at`.
fn parse_at(text: &str) -> Result<At, String> {
    if text.trim() == "end" {
        return Ok(At::End);
    }
    parse_ms(text)
        .map(At::Moment)
        .map_err(|e| format!("{e} or \"end\""))
}

/// Flags of `election html`.
#[derive(Debug, Clone, Args)]
pub struct HtmlArgs {
    /// Scenario file and field overrides.
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Seed of every random choice in the run.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Open the page at this moment (ms), or at `end` (where `election run`
    /// ends), instead of at the start.
    #[arg(long, value_parser = parse_at, value_name = "MS|end", allow_negative_numbers = true)]
    pub at: Option<At>,
    /// The file to write (`-` writes the page to standard output).
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: PathBuf,
    /// A lesson file instead of a scenario: the page opens that lesson
    /// (its run, its steps; see the module docs for how the page finds it).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = [
            "scenario", "preset", "algorithm", "script", "nodes", "ring", "start",
            "until_us", "latency_ms", "drop", "duplicate", "faults", "seed", "at",
        ]
    )]
    pub lesson: Option<PathBuf>,
    /// The standalone template, as `node scripts/build/standalone.mjs`
    /// writes it [default: dist/standalone.html of the repository this
    /// binary was built from, else of the current directory].
    #[arg(long, value_name = "PATH")]
    pub template: Option<PathBuf>,
}

/// The places the template is looked for, in order.
fn template_candidates(given: Option<&Path>) -> Vec<PathBuf> {
    match given {
        Some(p) => vec![p.to_path_buf()],
        None => vec![
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(TEMPLATE_IN_REPO),
            PathBuf::from(TEMPLATE_IN_REPO),
        ],
    }
}

/// The text of the first template found, and its path.
fn read_template(given: Option<&Path>) -> Result<(String, PathBuf), CliError> {
    let candidates = template_candidates(given);
    let Some(path) = candidates.iter().find(|p| p.is_file()) else {
        let looked = candidates
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" or ");
        return Err(CliError::input(format!(
            "no standalone template at {looked}: build it with `node scripts/build/standalone.mjs` \
             (after `bash scripts/build/build-wasm.sh`) or `./scripts/build-site.sh`, \
             or name one with --template PATH"
        )));
    };
    let name = path.display();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_TEMPLATE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| CliError::input(format!("cannot read the template {name}: {e}")))?;
    if bytes.len() as u64 > MAX_TEMPLATE_BYTES {
        return Err(CliError::input(format!(
            "{name}: larger than {} MiB, not a standalone template",
            MAX_TEMPLATE_BYTES >> 20
        )));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        CliError::input(format!("{name}: not UTF-8 text, not a standalone template"))
    })?;
    Ok((text, path.clone()))
}

/// JSON that cannot end a script element: every `<` (only ever inside a
/// string) written `\u003c`.
fn script_safe_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// Text for a double-quoted attribute.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A moment as the page's `at` reads it: milliseconds, at most three
/// decimals, no trailing zeros.
fn at_text(at: At) -> String {
    match at {
        At::End => "end".to_string(),
        At::Moment(us) => {
            let text = format!("{}.{:03}", us / 1000, us % 1000);
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

/// `template` with its scenario block holding `scenario` (opened at `at`,
/// with the narration of `preset`, or as the lesson whose `#l=` link is
/// `lesson`); None when it has no such block.
pub fn fill_template(
    template: &str,
    scenario_json: &str,
    at: Option<At>,
    preset: Option<&str>,
    lesson: Option<&str>,
) -> Option<String> {
    let id = template.rfind(BLOCK_ID)?;
    let start = template[..id].rfind("<script")?;
    let end = id + template[id..].find("</script>")? + "</script>".len();
    let lesson = lesson
        .map(|link| format!(r#" data-lesson="{}""#, attribute(link)))
        .unwrap_or_default();
    let block = format!(
        r#"<script type="application/json" id="standalone-scenario" data-at="{}" data-preset="{}"{lesson}>{}</script>"#,
        attribute(&at.map(at_text).unwrap_or_default()),
        attribute(preset.unwrap_or_default()),
        script_safe_json(scenario_json)
    );
    Some(format!("{}{block}{}", &template[..start], &template[end..]))
}

/// The preset whose narration fits `scenario`: `--preset`'s, unless an
/// override changed its scenario (the narration's moments would be wrong).
fn narrated_preset<'a>(args: &'a HtmlArgs, scenario: &Scenario) -> Option<&'a str> {
    let name = args.scenario.preset.as_deref()?;
    let own = load_preset(name).ok()?;
    (own.to_json() == scenario.to_json()).then_some(name)
}

/// Writes the page and returns what to print.
pub fn html(args: &HtmlArgs) -> Result<String, CliError> {
    let lesson = args.lesson.as_deref().map(load_lesson).transpose()?;
    let link = match &lesson {
        Some(l) => Some(
            l.link()
                .map_err(|e| CliError::input(format!("--lesson: {e}")))?,
        ),
        None => None,
    };
    let scenario = match &lesson {
        Some(l) => l.scenario(),
        None => args.scenario.build(args.seed)?,
    };
    if let Some(At::Moment(at)) = args.at {
        let horizon = Session::new(&scenario).horizon_us();
        if at > horizon {
            return Err(CliError::input(format!(
                "--at {}: after the run's horizon, {} ms (its until_ms, or the run limit without one)",
                to_ms(at),
                to_ms(horizon)
            )));
        }
    }
    let (template, template_path) = read_template(args.template.as_deref())?;
    let preset = if lesson.is_some() {
        None
    } else {
        narrated_preset(args, &scenario)
    };
    let page = fill_template(
        &template,
        &scenario.to_json_pretty(),
        args.at,
        preset,
        link.as_deref(),
    )
    .ok_or_else(|| {
        CliError::input(format!(
            "{} is not a standalone template (it has no standalone-scenario block); \
                 build one with `node scripts/build/standalone.mjs`",
            template_path.display()
        ))
    })?;
    if args.out.as_os_str() == "-" {
        return Ok(page);
    }
    std::fs::write(&args.out, &page)
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", args.out.display())))?;
    let what = match &lesson {
        Some(l) => format!("lesson \"{}\" ({} steps), ", l.title, l.steps.len()),
        None => String::new(),
    };
    Ok(format!(
        "wrote {} ({} KiB): {what}{}, {} nodes, seed {}; it opens with no network (template {})\n",
        args.out.display(),
        page.len().div_ceil(1024),
        scenario.algorithm,
        scenario.nodes,
        scenario.seed,
        template_path.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "<html><head><script type=\"module\">go('id=\"standalone-scenario\"')</script></head><body>\n\
        <script type=\"application/json\" id=\"standalone-scenario\" data-at=\"\" data-preset=\"\"></script>\n</body></html>";

    #[test]
    fn fills_the_block_and_nothing_else() {
        let page = fill_template(
            TEMPLATE,
            r#"{"a":"</script><b>"}"#,
            Some(At::End),
            Some("p"),
            None,
        )
        .unwrap();
        assert_eq!(
            page,
            "<html><head><script type=\"module\">go('id=\"standalone-scenario\"')</script></head><body>\n\
             <script type=\"application/json\" id=\"standalone-scenario\" data-at=\"end\" data-preset=\"p\">\
             {\"a\":\"\\u003c/script>\\u003cb>\"}</script>\n</body></html>"
        );
        // Filling again replaces the scenario (a filled page is a template too).
        let again = fill_template(&page, "{}", None, None, None).unwrap();
        assert!(
            again.contains(r#"data-at="" data-preset="">{}</script>"#),
            "{again}"
        );
        assert_eq!(fill_template("<html></html>", "{}", None, None, None), None);
        // A lesson's link goes in data-lesson, escaped for the attribute.
        let lesson = fill_template(TEMPLATE, "{}", None, None, Some("#l=1.a&b")).unwrap();
        assert!(
            lesson.contains(r##"data-preset="" data-lesson="#l=1.a&amp;b">{}</script>"##),
            "{lesson}"
        );
    }

    #[test]
    fn moments_as_the_page_reads_them() {
        assert_eq!(at_text(At::Moment(0)), "0");
        assert_eq!(at_text(At::Moment(1_500)), "1.5");
        assert_eq!(at_text(At::Moment(60_000)), "60");
        assert_eq!(at_text(At::Moment(333_333)), "333.333");
        assert_eq!(at_text(At::End), "end");
        assert_eq!(parse_at("end"), Ok(At::End));
        assert_eq!(parse_at("2.5"), Ok(At::Moment(2_500)));
        assert!(parse_at("soon").unwrap_err().contains("\"end\""));
    }
}
