//! The scripts shipped with the playground (the files beside this one in
//! `templates/`, compiled in so the CLI and the page share them): the
//! Chang-Roberts and Bully algorithms written as scripts, equal in their
//! counts to the built-in ones, and exercise skeletons with TODOs whose
//! description says what a correct solution must show.
//! `election templates` lists them; `election run --script
//! template:chang-roberts` runs one; the page's lab reads
//! `script_templates()`.

use serde::Serialize;

/// A finished algorithm or a skeleton to complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TemplateKind {
    /// A complete algorithm.
    Template,
    /// A skeleton with TODOs.
    Exercise,
}

/// One shipped script.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Template {
    /// Id (`template:<id>` on the command line).
    pub id: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Template or exercise.
    pub kind: TemplateKind,
    /// What it does, or what a correct solution must show.
    pub description: &'static str,
    /// Scenario fields it is meant to run with (JSON object text, without
    /// `algorithm` and `script`).
    pub scenario: &'static str,
    /// The Rhai source.
    pub source: &'static str,
}

/// Every shipped script, templates first.
pub static ALL: &[Template] = &[
    Template {
        id: "chang-roberts",
        name: "Chang-Roberts ring (script)",
        kind: TemplateKind::Template,
        description: "The built-in chang-roberts as a script: ids travel one way round the ring, only the larger is passed on, the winner sends one ELECTED lap. With every node starting: 2n-1 ELECTION on an ascending ring, n(n+1)/2 on a descending one, plus n ELECTED.",
        scenario: r#"{"nodes": 8, "ring": "descending", "start": "all"}"#,
        source: include_str!("templates/chang-roberts.rhai"),
    },
    Template {
        id: "bully",
        name: "Bully (script)",
        kind: TemplateKind::Template,
        description: "The built-in bully as a script: ELECTION to higher ids, OK replies, the highest live id announces COORDINATOR; heartbeats detect a dead leader. Its message counts equal the built-in's on the same scenario, faults included.",
        scenario: r#"{"nodes": 6, "start": [0], "faults": [{"at_ms": 600, "crash": "leader"}]}"#,
        source: include_str!("templates/bully.rhai"),
    },
    Template {
        id: "ring-exercise",
        name: "Exercise: a ring election",
        kind: TemplateKind::Exercise,
        description: "Elect the highest id on a ring, messages one way only. A correct solution, with every node starting: one leader (the highest id) followed by every node, the run settles, no violation; at most 2n-1 ELECTION on an ascending ring and n(n+1)/2 on a descending one, plus n ELECTED.",
        scenario: r#"{"nodes": 8, "ring": "ascending", "start": "all"}"#,
        source: include_str!("templates/ring-exercise.rhai"),
    },
    Template {
        id: "bully-exercise",
        name: "Exercise: a bully election",
        kind: TemplateKind::Exercise,
        description: "Elect the highest live id by bullying lower ones. A correct solution: one leader (the highest id) followed by every node, no violation; when the leader crashes the next highest takes over, and a recovered higher node takes over again.",
        scenario: r#"{"nodes": 6, "start": "all", "faults": [{"at_ms": 500, "crash": "leader"}, {"at_ms": 1500, "recover": 5}]}"#,
        source: include_str!("templates/bully-exercise.rhai"),
    },
    Template {
        id: "raft-exercise",
        name: "Exercise: a Raft-style randomized election",
        kind: TemplateKind::Exercise,
        description: "Randomized timeouts, terms and one vote per term, as in Raft's leader election. A correct solution claims \"consensus\": one leader followed by every node, never two leaders of one term, terms never going back, one vote per term; a new leader of a higher term after the leader crashes; only a majority side of a partition elects; \"Find a failure\" finds nothing.",
        scenario: r#"{"nodes": 5, "start": "none", "faults": [{"at_ms": 800, "crash": "leader"}]}"#,
        source: include_str!("templates/raft-exercise.rhai"),
    },
];

/// The shipped script `id`.
pub fn find(id: &str) -> Option<&'static Template> {
    ALL.iter().find(|t| t.id == id)
}

/// Every shipped script as a JSON array (the page's
/// `script_templates()`).
pub fn to_json() -> String {
    serde_json::to_string(ALL).unwrap_or_else(|_| "[]".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioExt;

    #[test]
    fn every_template_compiles_and_its_scenario_is_valid() {
        for t in ALL {
            super::super::check(t.source).unwrap_or_else(|e| panic!("{}: {e}", t.id));
            let mut v: serde_json::Value = serde_json::from_str(t.scenario).unwrap();
            v["algorithm"] = "script".into();
            v["script"] = t.source.into();
            crate::Scenario::from_value(&v).unwrap_or_else(|e| panic!("{}: {e}", t.id));
        }
    }
}
