//! Landmarks through the session: stepping from one to the next is the
//! same run, takes checkpoints on the way, and from the middle of known
//! history finds the same next one; the list up to the horizon.

use crate::{RAFT, fresh, moment, scenario, session, targets};
use election_core::algorithms;
use election_core::session::{LandmarkAt, Session};
use election_core::travel::Landmark;

#[test]
fn landmarks_through_the_timeline_are_the_same_run() {
    let s = scenario(RAFT);
    let mut p = Session::new(&s);
    let mut found = Vec::new();
    while let Some(landmark) = p.next_landmark() {
        found.push((p.now_us(), landmark));
        // Right after it: a prefix of the fresh run's trace.
        let mut again = algorithms::build(&s, true);
        again.run_until(p.now_us());
        let n = p.sim().trace().len();
        assert!(again.trace().len() >= n);
        assert_eq!(
            serde_json::to_string(&again.trace()[..n]).unwrap(),
            serde_json::to_string(p.sim().trace()).unwrap()
        );
    }
    assert!(
        found.iter().any(|(_, l)| *l == Landmark::Leaders),
        "{found:?}"
    );
    assert!(found.iter().any(|(_, l)| *l == Landmark::Role), "{found:?}");
    assert_eq!(p.now_us(), 20_000_000, "none left: at the horizon");
    assert!(p.timeline().len() > 1);
    for t in targets(20_000_000, 10) {
        p.seek(t);
        assert_eq!(moment(p.sim()), fresh(&s, t), "at {t} us");
    }
    // From the middle of known history, the next landmark is the same.
    let (at, landmark) = found[found.len() / 2];
    p.seek(at - 1);
    assert_eq!(p.next_landmark(), Some(landmark));
    assert_eq!(p.now_us(), at);
}

#[test]
fn the_list_of_landmarks_is_stepping_from_one_to_the_next() {
    let mut stepped = session(RAFT);
    let mut expected = Vec::new();
    while let Some(kind) = stepped.next_landmark() {
        expected.push(LandmarkAt {
            at_ms: stepped.now_us() as f64 / 1000.0,
            kind,
            leaders: stepped.sim().leaders().to_vec(),
        });
    }
    let mut listed = session(RAFT);
    assert_eq!(listed.landmarks(), expected);
    assert_eq!(listed.now_us(), 20_000_000);
    assert!(listed.landmarks().is_empty(), "none after the horizon");
}

#[test]
fn a_bully_election_has_these_landmarks() {
    // Four nodes, node 0 starts alone: node 3 leads at 6.6 ms and the
    // others settle into following it; it crashes at 1 s, the others
    // stand again and node 2 takes over at 1173.6 ms.
    let mut p = session(
        r#"{"algorithm":"bully","nodes":4,"seed":3,"start":[0],
            "faults":[{"at_ms":1000,"crash":3}],"until_ms":2000}"#,
    );
    let listed: Vec<(f64, &str, Vec<u32>)> = p
        .landmarks()
        .into_iter()
        .map(|l| (l.at_ms, l.kind.name(), l.leaders))
        .collect();
    let expected: Vec<(f64, &str, Vec<u32>)> = vec![
        (0.0, "role", vec![]),
        (6.605, "leaders", vec![3]),
        (7.268, "role", vec![3]),
        (8.515, "role", vec![3]),
        (12.186, "role", vec![3]),
        (12.31, "role", vec![3]),
        (14.844, "role", vec![3]),
        (1000.0, "leaders", vec![]),
        (1119.337, "role", vec![]),
        (1123.579, "role", vec![]),
        (1135.394, "role", vec![]),
        (1173.579, "leaders", vec![2]),
    ];
    assert_eq!(listed, expected);
    assert_eq!(p.now_us(), 2_000_000, "at the horizon");
}
