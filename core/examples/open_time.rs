//! Times what opening a run does natively, by phase (a tool for finding
//! what the page's first task spends): building the simulation, the
//! session (its checkpoint at 0), and the first steps. `QUERY` is the
//! page's query (default: 1,024 Raft nodes with timeouts at the floor).
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
}
