//! Helpers shared by the CLI tests: run the binary, write scenario files
//! into a unique temporary directory.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};

/// Runs `election` with `args`.
pub fn election(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_election"))
        .args(args)
        .output()
        .expect("the election binary runs")
}

/// Stdout of a successful run.
pub fn ok(args: &[&str]) -> String {
    let out = election(args);
    assert!(
        out.status.success(),
        "election {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Stdout of a successful run, parsed as one JSON value.
pub fn ok_json(args: &[&str]) -> serde_json::Value {
    let text = ok(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Writes `contents` to a fresh file in a unique temp directory.
pub fn scenario_file(name: &str, contents: &[u8]) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "election-cli-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write scenario");
    path
}

/// Path as a `&str` argument.
pub fn arg(path: &std::path::Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}
