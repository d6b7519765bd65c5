//! Times what opening a run does natively, by phase (a tool for finding
//! what the page's first tasks spend): building the simulation, the
//! session (its checkpoint at 0); then every call the page makes while it
//! finds the run's end and goes there in pieces
//! (`Session::end_us_within`, then `Session::run_until_within`), each
//! sized as the page's slicer sizes it (aiming at `AIM_MS`, at most
//! doubling), and the slowest of them. `QUERY` is the page's query
//! (default: 1,024 Raft nodes with timeouts at the floor).
use election_core::algorithms;
use election_core::scenario::query::from_query_pairs;
use election_core::session::Session;
use std::time::Instant;

fn main() {
    let query = std::env::var("QUERY").unwrap_or_else(|_| {
        "algorithm=raft&nodes=1024&election_timeout_ms=5-5&heartbeat_ms=5".into()
    });
    let pairs: Vec<(String, String)> = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let scenario = from_query_pairs(&pairs).unwrap();
    for _ in 0..3 {
        let t = Instant::now();
        let sim = algorithms::build(&scenario, true);
        let built = t.elapsed();
        drop(sim);
        let t = Instant::now();
        let session = Session::new(&scenario);
        let opened = t.elapsed();
        let t = Instant::now();
        let copy = session.sim().checkpoint();
        println!(
            "build {built:?}, Session::new {opened:?}, clone {:?}, checkpoint {} KB",
            t.elapsed(),
            copy.approx_bytes() / 1024
        );
        drop(copy);
    }
    let aim_ms: f64 = std::env::var("AIM_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let mut session = Session::new(&scenario);
    let mut calls: Vec<(f64, &str, u64)> = Vec::new();
    let mut per_call = 1u64;
    let size = |took: f64, per_call: &mut u64| {
        let want = *per_call as f64 * aim_ms / took.max(0.01);
        *per_call = (want.min(2.0 * *per_call as f64).max(1.0)) as u64;
    };
    let end = loop {
        let t = Instant::now();
        let found = session.end_us_within(per_call);
        let took = t.elapsed().as_secs_f64() * 1e3;
        calls.push((took, if found.is_some() { "end!" } else { "end" }, per_call));
        if let Some(end) = found {
            break end;
        }
        size(took, &mut per_call);
    };
    per_call = 1;
    loop {
        let t = Instant::now();
        let done = session.run_until_within(end, per_call);
        let took = t.elapsed().as_secs_f64() * 1e3;
        calls.push((took, "seek", per_call));
        if done {
            break;
        }
        size(took, &mut per_call);
    }
    let total: f64 = calls.iter().map(|c| c.0).sum();
    println!(
        "end at {end} us; {} calls, {total:.0} ms in all",
        calls.len()
    );
    let mut slow: Vec<(usize, &(f64, &str, u64))> = calls.iter().enumerate().collect();
    slow.sort_by(|a, b| b.1.0.total_cmp(&a.1.0));
    for (i, (ms, what, work)) in slow.into_iter().take(12) {
        println!("call {i:5} {what:4} {ms:8.1} ms (work {work})");
    }
}
