//! The questions of a run: one per decisive moment (the kind by a fixed
//! rule), or any kind at any window (`ask`). Answers are read off the
//! trace by `facts.rs`; this file picks the plausible wrong choices and
//! writes the text and the one-line why (rules: the module docs of
//! `story`, Questions).

use super::facts::{Facts, Window};
use super::wording::{Family, count, ms, node, nodes};
use super::{Question, QuestionKind};
use crate::protocol::{NodeId, Role};
use crate::time::{Micros, to_ms};
use crate::trace::Event;
use serde_json::Value;

/// One question per decisive moment, in time order.
pub(crate) fn questions(facts: &Facts) -> Vec<Question> {
    let mut crashes = 0;
    let mut out = Vec::new();
    for &d in &facts.decisive {
        let kind = if d == 0 {
            QuestionKind::Leader
        } else {
            match facts.events[d].event {
                Event::Partition { .. } => QuestionKind::SplitBrain,
                Event::Heal => QuestionKind::Leader,
                _ => {
                    crashes += 1;
                    [
                        QuestionKind::FirstMover,
                        QuestionKind::ElectionMessages,
                        QuestionKind::TimeToLeader,
                        QuestionKind::Leader,
                    ][(crashes - 1) % 4]
                }
            }
        };
        out.push(ask(facts, &facts.window_from(d), kind));
    }
    out
}

/// The question of `kind` about window `w`.
pub(crate) fn ask(facts: &Facts, w: &Window, kind: QuestionKind) -> Question {
    let (text, choices, answer, why) = match kind {
        QuestionKind::Leader => leader(facts, w),
        QuestionKind::ElectionMessages => election_messages(facts, w),
        QuestionKind::FirstMover => first_mover(facts, w),
        QuestionKind::TimeToLeader => time_to_leader(facts, w),
        QuestionKind::SplitBrain => split_brain(facts, w),
    };
    debug_assert!(choices.contains(&answer));
    Question {
        at_ms: to_ms(w.at_us),
        kind,
        text,
        choices,
        answer,
        why,
    }
}

type Parts = (String, Vec<Value>, Value, String);

/// The window's end for people: `4,000 ms` or `the run's end at 4,000 ms`.
fn until(facts: &Facts, w: &Window) -> String {
    if w.to >= facts.events.len() {
        format!("the run's end at {}", ms(w.to_us))
    } else {
        ms(w.to_us)
    }
}

/// Node choices: the answer (if a node) and up to `3` plausible others
/// from `preferred` then `pool`, sorted by id; `extra` strings after.
fn node_choices(answer: Option<NodeId>, preferred: &[NodeId], pool: &[NodeId]) -> Vec<NodeId> {
    let mut picked: Vec<NodeId> = answer.into_iter().collect();
    for n in preferred.iter().chain(pool) {
        if picked.len() >= 4 {
            break;
        }
        if !picked.contains(n) {
            picked.push(*n);
        }
    }
    picked.sort_unstable();
    picked
}

fn node_values(list: &[NodeId]) -> Vec<Value> {
    list.iter().map(|n| Value::from(node(*n))).collect()
}

/// Live participants at `index`, the highest first (the usual guess).
fn highest_first(facts: &Facts, index: usize) -> Vec<NodeId> {
    let mut c = facts.candidates_before(index);
    c.reverse();
    c
}

/// Nodes that led in the window (with `led_only`) or also stood as
/// candidates, in order.
fn contenders(facts: &Facts, w: &Window, led_only: bool) -> Vec<NodeId> {
    let mut out = Vec::new();
    for e in &facts.events[w.from..w.to] {
        let n = match e.event {
            Event::Role {
                node,
                role: Role::Leader,
                ..
            } => node,
            Event::Role {
                node,
                role: Role::Candidate,
                ..
            } if !led_only => node,
            _ => continue,
        };
        if n < facts.nodes && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

fn leader(facts: &Facts, w: &Window) -> Parts {
    let text = if w.from == 0 {
        "Which node will become the leader?".to_string()
    } else {
        "Which node will be the leader once this election is over?".to_string()
    };
    let end_leaders = facts.leaders_before(w.to).to_vec();
    let outcome = facts.outcome(w);
    // Plausible others: whoever led or stood in the window, the previous
    // leaders, then the highest live ids (the usual guess).
    let mut preferred = contenders(facts, w, true);
    preferred.extend(facts.leaders_before(w.from));
    preferred.extend(facts.first_mover(w.from, w.to).map(|(_, f)| f));
    let pool = highest_first(facts, w.to);
    let mut nodes_picked = node_choices(outcome, &preferred, &pool);
    let (answer, why) = match outcome {
        Some(l) => (Value::from(node(l)), leader_why(facts, w, l)),
        None => {
            let label = if end_leaders.is_empty() {
                "none"
            } else {
                "no single leader"
            };
            nodes_picked.truncate(3);
            let why = if end_leaders.is_empty() {
                format!("No node leads at {}.", until(facts, w))
            } else {
                format!("{} all lead at {}.", nodes(&end_leaders), until(facts, w))
            };
            (Value::from(label), why)
        }
    };
    let mut choices = node_values(&nodes_picked);
    if !choices.contains(&answer) {
        choices.push(answer.clone());
    }
    if choices.len() < 3 {
        choices.push(Value::from(if answer == "none" {
            "no single leader"
        } else {
            "none"
        }));
    }
    (text, choices, answer, why)
}

/// Why `l` leads at the window's end, per family where it helps.
fn leader_why(facts: &Facts, w: &Window, l: NodeId) -> String {
    let alive = facts.candidates_before(w.to);
    let highest = alive.last().copied() == Some(l);
    match Family::of(&facts.algorithm) {
        Family::Bully if highest => format!("{} has the highest id of the live nodes.", node(l)),
        Family::Ring if highest => format!(
            "{} has the highest id: only its message goes all the way round the ring.",
            node(l)
        ),
        Family::Raft => match facts.became_leader(w, l) {
            Some(i) => match facts.events[i].event {
                Event::Role { term: Some(t), .. } => format!(
                    "{} has {} of {} votes in term {t}: a majority.",
                    node(l),
                    facts.votes_for(i, l, t),
                    facts.voters()
                ),
                _ => format!("{} won a majority of the votes.", node(l)),
            },
            None => format!("{} keeps the leadership it already had.", node(l)),
        },
        _ => match facts.became_leader(w, l) {
            Some(i) => format!(
                "{} becomes leader at {} and still leads at {}.",
                node(l),
                ms(facts.events[i].at_us),
                until(facts, w)
            ),
            None => format!(
                "{} already led and still leads at {}.",
                node(l),
                until(facts, w)
            ),
        },
    }
}

fn election_messages(facts: &Facts, w: &Window) -> Parts {
    let (total, by_kind) = facts.election_messages(w);
    let text = if w.from == 0 {
        "How many election messages will it take to elect a leader?".to_string()
    } else {
        "How many election messages will this election cost?".to_string()
    };
    let step = (total / 6).max(1);
    let step = nice_count(step);
    let below = (3u64).min(total / step);
    let place = (w.from as u64 + total) % (below + 1);
    let low = total - place * step;
    let choices = (0..4).map(|k| Value::from(low + k * step)).collect();
    let kinds: Vec<String> = by_kind
        .iter()
        .map(|(k, c)| format!("{} {k}", crate::story::wording::thousands(*c)))
        .collect();
    let detail = if kinds.is_empty() {
        String::new()
    } else {
        format!(": {}", kinds.join(", "))
    };
    let why = format!(
        "{} from {} to {}{detail}.",
        count(total, "election message"),
        ms(w.at_us),
        until(facts, w)
    );
    (text, choices, Value::from(total), why)
}

/// The largest of 1, 2, 3, 4, 5, 10, 15, 20, 25, 50, 100, ... not above
/// `x` (at least 1).
fn nice_count(x: u64) -> u64 {
    let mut best = 1;
    let mut scale = 1;
    while scale <= x {
        for m in [1, 2, 3, 4, 5, 10, 15, 20, 25, 50] {
            if m * scale <= x {
                best = best.max(m * scale);
            }
        }
        scale *= 10;
    }
    best
}

fn first_mover(facts: &Facts, w: &Window) -> Parts {
    let text = "Which node will start the election?".to_string();
    let Some((i, f)) = facts.first_mover(w.from, w.to) else {
        // A window always holds an election; keep a sane answer anyway.
        return leader(facts, w);
    };
    let live = facts.candidates_before(i);
    // The nearest ids around the true one, and the highest (a common guess).
    let mut near: Vec<NodeId> = live.iter().copied().filter(|n| *n != f).collect();
    near.sort_by_key(|n| (n.abs_diff(f), *n));
    let mut preferred: Vec<NodeId> = live.last().copied().into_iter().collect();
    preferred.extend(near.iter().take(2));
    let picked = node_choices(Some(f), &preferred, &near);
    let at = facts.events[i].at_us;
    let why = match facts.timer_before(i, f) {
        Some(class) => format!(
            "{}'s {} fires first, at {}.",
            node(f),
            Family::of(&facts.algorithm).timer_name(class),
            ms(at)
        ),
        None => format!(
            "{} sends the first election message, at {}.",
            node(f),
            ms(at)
        ),
    };
    let mut choices = node_values(&picked);
    if choices.len() < 3 {
        choices.push(Value::from("none"));
    }
    (text, choices, Value::from(node(f)), why)
}

/// Durations for ranges: 1, 2, 2.5, 5 times a power of ten, ms.
fn nice_width(t: Micros, parts: u64) -> Micros {
    let mut scale: Micros = 1000;
    loop {
        for m in [10, 20, 25, 50] {
            let w = m * scale / 10;
            if t < parts * w {
                return w;
            }
        }
        scale *= 10;
    }
}

fn time_to_leader(facts: &Facts, w: &Window) -> Parts {
    let text = if w.from == 0 {
        "How long until there is a leader?".to_string()
    } else {
        "How long from now until there is a leader again?".to_string()
    };
    let outcome = facts.outcome(w);
    let became = outcome.map(|l| (l, facts.became_leader(w, l)));
    match became {
        Some((l, index)) => {
            let at = index.map_or(w.at_us, |i| facts.events[i].at_us);
            let t = at.saturating_sub(w.at_us);
            let width = nice_width(t, 3);
            let labels = ranges(width, 4);
            let which = ((t / width) as usize).min(3);
            let why = match index {
                Some(_) => format!("{} becomes leader at {}, {} later.", node(l), ms(at), ms(t)),
                None => format!("{} already leads.", node(l)),
            };
            let answer = Value::from(labels[which].clone());
            (
                text,
                labels.into_iter().map(Value::from).collect(),
                answer,
                why,
            )
        }
        None => {
            let span = w.to_us.saturating_sub(w.at_us);
            let width = nice_width(span, 2);
            let mut labels = ranges(width, 3);
            labels.push("no single leader".to_string());
            let why = format!("No single node leads at {}.", until(facts, w));
            (
                text,
                labels.into_iter().map(Value::from).collect(),
                Value::from("no single leader"),
                why,
            )
        }
    }
}

/// `under W`, `W to 2W`, ..., `(k-1)W or more`.
fn ranges(width: Micros, k: u64) -> Vec<String> {
    let mut out = vec![format!("under {}", ms(width))];
    for i in 1..k - 1 {
        out.push(format!(
            "{} to {}",
            ms(i * width).trim_end_matches(" ms"),
            ms((i + 1) * width)
        ));
    }
    out.push(format!("{} or more", ms((k - 1) * width)));
    out
}

fn split_brain(facts: &Facts, w: &Window) -> Parts {
    let text = "Will two nodes lead at the same time?".to_string();
    let (total, who) = facts.split_brain(w);
    let span = w.to_us.saturating_sub(w.at_us);
    let x = if total > 0 {
        nice_width(total, 2)
    } else {
        nice_width(span / 2, 2).max(100_000)
    };
    let short = format!("yes, for under {}", ms(x));
    let long = format!("yes, for {} or more", ms(x));
    let answer = match total {
        0 => "no".to_string(),
        t if t < x => short.clone(),
        _ => long.clone(),
    };
    let why = if total > 0 {
        format!(
            "{} both lead, for {} in all between {} and {}.",
            nodes(&who),
            ms(total),
            ms(w.at_us),
            until(facts, w)
        )
    } else {
        format!(
            "At most one node leads at any time between {} and {}.",
            ms(w.at_us),
            until(facts, w)
        )
    };
    let choices = vec![Value::from("no"), Value::from(short), Value::from(long)];
    (text, choices, Value::from(answer), why)
}
