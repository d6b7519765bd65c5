//! The failure finder on the JS side: a page Web Worker holds a
//! [`FailureFinder`] and checks the run indices it is handed; the page
//! asks one worker to shrink the lowest failing seed. Everything here
//! converts; schedules, checks and shrinking are `election_core::check`,
//! so the page finds what `election check` finds.

use crate::js;
use election_core::ScenarioError;
use election_core::check::{self, CheckSpec, FaultKind};
use election_core::experiment::seeds::SeedRange;
use wasm_bindgen::prelude::*;

/// A finder request's error as a JS `Error`: message `seeds: ...`,
/// `field` the request field (`seeds`, `faults`, `algorithm`,
/// `liveness_ms`, `scenario.nodes`, ...), `detail` what is wrong.
fn error(e: &ScenarioError) -> JsValue {
    let err = js::error(&format!("{}: {}", e.field, e.message), &e.field);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(
        &err,
        &JsValue::from_str("detail"),
        &JsValue::from_str(&e.message),
    );
    err
}

/// The fault kinds a search may use, by name, in order (`crash`,
/// `recover`, ...), and those used when none are picked.
#[wasm_bindgen]
pub fn fault_kinds() -> Vec<String> {
    FaultKind::NAMES.iter().map(|n| n.to_string()).collect()
}

/// One search: the spec and its seeds.
#[wasm_bindgen]
pub struct FailureFinder {
    spec: CheckSpec,
    seeds: SeedRange,
}

#[wasm_bindgen]
impl FailureFinder {
    /// Parses and validates the request (`CheckSpec::from_request`:
    /// `{"algorithm", "faults", "seeds": "A..B", "scenario", "liveness_ms"}`);
    /// throws an `Error` whose `field` names the request field at fault.
    #[wasm_bindgen(constructor)]
    pub fn new(request_json: &str) -> Result<FailureFinder, JsValue> {
        CheckSpec::from_request(request_json)
            .map(|(spec, seeds)| Self { spec, seeds })
            .map_err(|e| error(&e))
    }

    /// Number of runs (seeds in the range).
    pub fn run_count(&self) -> f64 {
        self.seeds.count() as f64
    }

    /// The seed of run `index` (the first seed plus the index).
    pub fn seed_of(&self, index: f64) -> f64 {
        (self.seeds.from + index as u64) as f64
    }

    /// Checks run `index`: the property it broke first, or `""`.
    pub fn check(&self, index: f64) -> String {
        check::check_seed(&self.spec, self.seeds.from + index as u64)
            .map(|f| f.property)
            .unwrap_or_default()
    }

    /// Shrinks the failure of run `index`: the counterexample as JSON
    /// text, exactly `election check --json`'s `counterexample` (`seed`,
    /// `property`, `detail`, `at_ms`, `scenario`, `link`), or `""` when
    /// the run passes.
    pub fn shrink(&self, index: f64) -> String {
        let seed = self.seeds.from + index as u64;
        check::check_seed(&self.spec, seed)
            .map(|found| {
                check::shrink_seed(&self.spec, seed, &found)
                    .to_json()
                    .to_string()
            })
            .unwrap_or_default()
    }
}
