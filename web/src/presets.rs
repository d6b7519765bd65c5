//! Guided scenarios for the page: the core's preset registry as JS
//! objects, and a playground for `?preset=<name>`.
//!
//! The scenario is the preset's, with any scenario parameters of the same
//! query applied over it (`?preset=raft-split-votes&election_timeout_ms=150-300`
//! replays the lesson with the paper's timeouts), through the same code
//! that reads a URL. A `#s=` share link, when present, wins over the
//! preset (as it wins over the query), so a shared, changed preset opens as
//! it was shared; the page still shows the narration. The scenario of
//! an address (a preset's, the query's or a share link's) is also given
//! as JSON text without a playground ([`address_scenario_json`]), for the
//! modules that have none (the sweeps module, web/Cargo.toml `player`).

use crate::js;
#[cfg(feature = "player")]
use crate::playground::Playground;
use crate::url::{parse_pairs, scenario_from_url, share_param};
use election_core::presets::{self, Preset};
use election_core::scenario::query::apply_query_pairs;
use election_core::{Scenario, ScenarioError};
use wasm_bindgen::prelude::*;

/// The value of the `preset` parameter of a query, if there is one.
pub fn preset_param(query: &str) -> Option<String> {
    parse_pairs(query)
        .into_iter()
        .find(|(k, _)| k == "preset")
        .map(|(_, v)| v)
}

/// The preset a query names (`None` without a `preset` parameter).
/// Errors name the field `preset`.
pub fn preset_from_query(query: &str) -> Result<Option<&'static Preset>, ScenarioError> {
    preset_param(query)
        .map(|name| presets::lookup(&name, "preset"))
        .transpose()
}

/// The scenario of `preset` with the scenario parameters of `query`
/// applied over it.
pub fn preset_scenario(preset: &Preset, query: &str) -> Result<Scenario, ScenarioError> {
    apply_query_pairs(&preset.scenario()?, &parse_pairs(query))
}

/// Every guided scenario: objects with `name`, `title`, `summary`,
/// `related` (a name or null) and `steps` (objects with `at_ms`, `text`,
/// and `question`, `fault`, `view` where the step has them: the steps of
/// the preset's lesson file, `lessons/<name>.json`).
#[cfg(feature = "player")]
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsValue> {
    js::to_js(&presets::infos())
}

/// The scenario of a page address as canonical JSON text (pretty, as
/// [`Playground::scenario_json`](crate::Playground) writes it): a `#s=`
/// share link in `fragment`, else the preset the query names with the
/// query's scenario parameters over it, else the query's. Throws an
/// `Error` naming the field, as [`Playground::from_url`](crate::Playground)
/// and `from_preset_url` do.
#[wasm_bindgen]
pub fn address_scenario_json(query: &str, fragment: &str) -> Result<String, JsValue> {
    let scenario = match address_preset_scenario(query, fragment)? {
        Some(s) => s,
        None => scenario_from_url(query, fragment).map_err(|e| js::scenario_error(&e))?,
    };
    Ok(scenario.to_json_pretty())
}

/// The scenario of the preset a page address names (with the query's
/// scenario parameters over it), or `None` when the query names none or a
/// `#s=` share link in `fragment` gives the scenario instead. An unknown
/// name is an `Error` whose `field` is `preset` (the message lists the
/// known ones); a wrong scenario parameter names that parameter.
fn address_preset_scenario(query: &str, fragment: &str) -> Result<Option<Scenario>, JsValue> {
    let preset = preset_from_query(query)
        .map_err(|e| js::error(&format!("URL parameter `preset`: {}", e.message), &e.field))?;
    match preset {
        Some(p) if share_param(fragment).is_none() => preset_scenario(p, query)
            .map(Some)
            .map_err(|e| js::scenario_error(&e)),
        _ => Ok(None),
    }
}

/// Guided scenarios on the JS side.
#[cfg(feature = "player")]
#[wasm_bindgen]
impl Playground {
    /// The playground for a page URL with a `preset` parameter, or
    /// `undefined` when the query has none or a `#s=` share link in
    /// `fragment` gives the scenario instead. Throws an `Error` whose
    /// `field` is `preset` for an unknown name (the message lists the
    /// known ones), or names the scenario parameter that is wrong.
    pub fn from_preset_url(query: &str, fragment: &str) -> Result<Option<Playground>, JsValue> {
        address_preset_scenario(query, fragment)?
            .map(|s| Playground::open(&s).map_err(|e| js::scenario_error(&e)))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_names_a_preset_and_may_change_it() {
        assert!(preset_from_query("?algorithm=bully").unwrap().is_none());
        let p = preset_from_query("?preset=raft-split-votes&at=end")
            .unwrap()
            .unwrap();
        assert_eq!(p.name, "raft-split-votes");
        let s = preset_scenario(p, "?preset=raft-split-votes&election_timeout_ms=150-300").unwrap();
        assert_eq!(s.timing.election_timeout_us, (150_000, 300_000));
        assert_eq!(s.faults, p.scenario().unwrap().faults, "faults kept");
        let err = preset_from_query("?preset=bully-partiton").unwrap_err();
        assert_eq!(err.field, "preset");
        assert!(err.message.contains("bully-partition"), "{err}");
        assert_eq!(preset_scenario(p, "?nodes=0").unwrap_err().field, "nodes");
    }

    #[test]
    fn an_address_gives_the_scenario_its_playground_opens() {
        let shared = scenario_from_url("?algorithm=raft&nodes=6", "").unwrap();
        let link = format!("#s={}", election_core::share::encode(&shared));
        for (query, fragment, want) in [
            (
                "?preset=raft-split-votes&election_timeout_ms=150-300",
                "",
                None,
            ),
            ("?algorithm=chang-roberts&nodes=7&seed=3", "", None),
            ("?preset=raft-split-votes", link.as_str(), Some(&shared)),
            ("", "", None),
        ] {
            let scenario = match preset_from_query(query).unwrap() {
                Some(p) if fragment.is_empty() => preset_scenario(p, query).unwrap(),
                _ => scenario_from_url(query, fragment).unwrap(),
            };
            if let Some(want) = want {
                assert_eq!(&scenario, want, "the link wins over the preset");
            }
            let opened = Playground::open(&scenario).unwrap();
            assert_eq!(
                address_scenario_json(query, fragment).unwrap(),
                opened.scenario_json(),
                "{query}{fragment}"
            );
        }
    }
}
