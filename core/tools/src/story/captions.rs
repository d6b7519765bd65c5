//! The captions of a run: one plain sentence or two per stretch, saying
//! what is happening, what comes next and why, from the recorded run's
//! own future (rules: the module docs of `story`, Captions).

use super::Caption;
use super::facts::{Facts, Window, is_fault};
use super::wording::{Family, capitalized, ms, node, nodes};
use crate::protocol::{NodeId, Purpose, Role};
use crate::time::{Micros, to_ms};
use crate::trace::Event;

/// A caption point before merging: where, how weighty, what it says.
struct Point {
    at_us: Micros,
    weight: u8,
    text: String,
}

/// Every caption of the run, sorted by time, the first at 0.
pub(crate) fn captions(facts: &Facts) -> Vec<Caption> {
    let family = Family::of(&facts.algorithm);
    let mut points = vec![Point {
        at_us: 0,
        weight: 4,
        text: start(facts, family),
    }];
    let mut in_election = false;
    let mut last_term: Option<u64> = None;
    // Whether the last caption point was an election with no leader since.
    let mut unresolved = false;
    let mut agreement = Agreement::new(facts.nodes);
    for (i, e) in facts.events.iter().enumerate() {
        let point = match &e.event {
            ev if is_fault(ev) => {
                in_election = false;
                unresolved = false;
                Some((3, fault(facts, family, i)))
            }
            Event::Resume { node: n } => {
                let still = facts.leaders_before(i).contains(n);
                let tail = if still {
                    ": it still believes it leads"
                } else {
                    ""
                };
                Some((3, format!("{} resumes{tail}.", node(*n))))
            }
            Event::Role {
                node: n,
                role: Role::Leader,
                term,
            } => {
                in_election = false;
                unresolved = false;
                Some((2, leader(facts, family, i, *n, *term)))
            }
            Event::Role { node: n, .. } if facts.leaders_before(i).contains(n) => {
                let rest: Vec<NodeId> = facts
                    .leaders_after(i)
                    .iter()
                    .copied()
                    .filter(|l| l != n)
                    .collect();
                let text = match rest.as_slice() {
                    [] => format!("{} steps down; no node leads now.", node(*n)),
                    [l] => format!("{} steps down; {} is the leader.", node(*n), node(*l)),
                    more => format!("{} steps down; {} still lead.", node(*n), nodes(more)),
                };
                Some((2, text))
            }
            Event::Election { node: n } => {
                let term = term_at(facts, i, *n);
                let new_term = matches!((term, last_term), (Some(t), Some(l)) if t > l);
                if !in_election || new_term {
                    in_election = true;
                    if term.is_some() {
                        last_term = term;
                    }
                    let again = unresolved;
                    unresolved = true;
                    Some((1, election(facts, family, i, *n, term, again)))
                } else {
                    if term.is_some() && last_term.is_none() {
                        last_term = term;
                    }
                    None
                }
            }
            _ => None,
        };
        // The moment every live node follows the one leader: the election
        // is over, and the caption says so and what comes next.
        let point = match (point, agreement.update(facts, i)) {
            (None, Some((l, followers))) => Some((1, settled(facts, i, l, followers))),
            (point, _) => point,
        };
        if let Some((weight, text)) = point {
            let at_us = e.at_us;
            match points.last_mut() {
                Some(last) if last.at_us == at_us => {
                    if weight > last.weight {
                        last.weight = weight;
                        last.text = text;
                    }
                }
                _ => points.push(Point {
                    at_us,
                    weight,
                    text,
                }),
            }
        }
    }
    points
        .into_iter()
        .map(|p| Caption {
            at_ms: to_ms(p.at_us),
            text: p.text,
        })
        .collect()
}

/// Who believes whom leads, to see the moment an election is over: one
/// leader, and every other live participant (not an observer) believes it
/// leads.
struct Agreement {
    belief: Vec<Option<NodeId>>,
    alive: Vec<bool>,
    term: Vec<Option<u64>>,
    agreed: bool,
}

impl Agreement {
    fn new(nodes: u32) -> Self {
        let n = nodes as usize;
        Self {
            belief: vec![None; n],
            alive: vec![true; n],
            term: vec![None; n],
            agreed: false,
        }
    }

    /// Takes in event `i`; returns the leader and its number of followers
    /// when the run has just come to agree on one leader.
    #[inline(never)]
    fn update(&mut self, facts: &Facts, i: usize) -> Option<(NodeId, usize)> {
        let n = self.belief.len();
        match facts.events[i].event {
            Event::Leader { node, leader } if (node as usize) < n => {
                self.belief[node as usize] = leader;
            }
            Event::Role { node, term, .. } if (node as usize) < n => {
                self.term[node as usize] = term;
            }
            Event::Crash { node } if (node as usize) < n => {
                self.alive[node as usize] = false;
                self.belief[node as usize] = None;
            }
            Event::Recover { node } if (node as usize) < n => {
                self.alive[node as usize] = true;
                self.belief[node as usize] = None;
            }
            Event::Partition { .. } | Event::Heal => {}
            _ => return None,
        }
        let agreed = match facts.leaders_after(i) {
            [l] => {
                let followers = (0..n)
                    .filter(|&m| {
                        m != *l as usize
                            && self.alive[m]
                            && !facts.observers.contains(&(m as NodeId))
                    })
                    .map(|m| self.belief[m] == Some(*l))
                    .try_fold(0usize, |k, follows| follows.then_some(k + 1));
                followers.filter(|&k| k > 0).map(|k| (*l, k))
            }
            _ => None,
        };
        let newly = agreed.filter(|_| !self.agreed);
        self.agreed = agreed.is_some();
        newly
    }
}

/// "n7 leads and all 7 other live nodes follow it", and what comes next:
/// nothing until the next fault, when no election follows before it.
#[inline(never)]
fn settled(facts: &Facts, i: usize, l: NodeId, followers: usize) -> String {
    let term = facts.events[..=i].iter().rev().find_map(|e| match e.event {
        Event::Role {
            node: n,
            role: Role::Leader,
            term,
        } if n == l => Some(term),
        _ => None,
    });
    let who = match term.flatten() {
        Some(t) => format!("{} leads term {t}", node(l)),
        None => format!("{} leads", node(l)),
    };
    let all = if followers == 1 {
        "the other live node follows it".to_string()
    } else {
        format!("all {followers} other live nodes follow it")
    };
    let next = next_fault(facts, i);
    let calm = facts.events[i + 1..next].iter().all(|e| {
        !matches!(
            e.event,
            Event::Election { .. } | Event::Role { .. } | Event::Leader { .. }
        )
    });
    let then = match facts.events.get(next) {
        _ if !calm => String::new(),
        Some(f) => format!(
            " Only background traffic until {}, when {}.",
            ms(f.at_us),
            fault_words(&f.event)
        ),
        None => " The election is over; only background traffic follows.".to_string(),
    };
    format!("{who} and {all}.{then}")
}

/// A fault in a few words, for "until 20,000 ms, when n7 crashes".
#[inline(never)]
fn fault_words(e: &Event) -> String {
    match e {
        Event::Crash { node: n } => format!("{} crashes", node(*n)),
        Event::Recover { node: n } => format!("{} comes back", node(*n)),
        Event::Pause { node: n, .. } => format!("{} is paused", node(*n)),
        Event::Partition { .. } => "the network splits".to_string(),
        Event::Heal => "the network heals".to_string(),
        Event::Cut { from, to } => format!("the link from {} to {} is cut", node(*from), node(*to)),
        Event::Uncut { from, to } => {
            format!("the link from {} to {} is restored", node(*from), node(*to))
        }
        Event::Clock { node: n, .. } => format!("{}'s clock is set", node(*n)),
        Event::Slow { node: n, .. } => format!("{} slows down", node(*n)),
        Event::Network { .. } => "the network changes".to_string(),
        _ => "a fault comes".to_string(),
    }
}

/// The term of `n`'s role change at the instant of event `i`, if any.
#[inline(never)]
fn term_at(facts: &Facts, i: usize, n: NodeId) -> Option<u64> {
    let at = facts.events[i].at_us;
    let around = facts.events[i..]
        .iter()
        .take_while(|e| e.at_us == at)
        .chain(facts.events[..i].iter().rev().take_while(|e| e.at_us == at));
    for e in around {
        if let Event::Role {
            node: m,
            term: Some(t),
            ..
        } = e.event
            && m == n
        {
            return Some(t);
        }
    }
    None
}

/// The index of the next fault after `i` (or the end of the trace).
#[inline(never)]
fn next_fault(facts: &Facts, i: usize) -> usize {
    (i + 1..facts.events.len())
        .find(|&j| is_fault(&facts.events[j].event))
        .unwrap_or(facts.events.len())
}

/// The kind of the first election message `n` sends at or after `i`, at
/// the same instant.
#[inline(never)]
fn kind_sent(facts: &Facts, i: usize, n: NodeId) -> Option<&'static str> {
    let at = facts.events[i].at_us;
    facts.events[i..]
        .iter()
        .take_while(|e| e.at_us == at)
        .find_map(|e| match e.event {
            Event::Send {
                from,
                kind,
                purpose: Purpose::Election,
                ..
            } if from == n => Some(kind),
            _ => None,
        })
}

/// Who comes out of the stretch from event `i` to the next fault (or
/// the end) as leader, and when it became leader in it (`None`: it
/// already led): of the leaders at its end, the last to take over in it,
/// else the one leader there.
fn future_leader(facts: &Facts, i: usize) -> Option<(NodeId, Option<Micros>)> {
    let to = next_fault(facts, i);
    let leaders = facts.leaders_before(to);
    let took_over = facts.events[i..to]
        .iter()
        .rev()
        .find_map(|e| match e.event {
            Event::Role {
                node,
                role: Role::Leader,
                ..
            } if leaders.contains(&node) => Some((node, Some(e.at_us))),
            _ => None,
        });
    match (took_over, leaders) {
        (Some(t), _) => Some(t),
        (None, [one]) => Some((*one, None)),
        _ => None,
    }
}

/// "n4 will lead from 40 ms" style endings: who leads once this is over.
#[inline(never)]
fn will_lead(facts: &Facts, i: usize) -> String {
    let at = facts.events.get(i).map_or(0, |e| e.at_us);
    match future_leader(facts, i) {
        Some((l, Some(t))) if t > at => format!("{} will lead from {}", node(l), ms(t)),
        Some((l, _)) if at == 0 => format!("{} will lead", node(l)),
        Some((l, _)) if facts.leaders_after(i).len() > 1 => {
            format!("{} will be the one leader", node(l))
        }
        Some((l, _)) => format!("{} will still lead", node(l)),
        None => "no single node will lead".to_string(),
    }
}

#[inline(never)]
fn start(facts: &Facts, family: Family) -> String {
    let n = facts.nodes;
    let Some((j, f)) = facts.first_mover(0, facts.events.len()) else {
        return format!("{n} nodes start; nobody starts an election.");
    };
    let t = facts.events[j].at_us;
    let all = facts
        .events
        .iter()
        .take_while(|e| e.at_us == 0)
        .filter(|e| matches!(e.event, Event::Election { .. }))
        .count()
        > 1;
    let lead = future_leader(facts, 0).map(|(l, _)| l);
    let to = facts
        .decisive
        .iter()
        .copied()
        .find(|&d| d > 0)
        .unwrap_or(facts.events.len());
    let highest = lead.is_some() && facts.candidates_before(to).last() == lead.as_ref();
    match family {
        Family::Bully if highest => {
            let rule = if facts.algorithm == "bully" {
                "In Bully the highest live id wins"
            } else {
                "As in Bully, the highest live id wins"
            };
            let who = node(lead.unwrap_or(0));
            if all {
                format!("All {n} nodes start an election at once. {rule}, so {who} will lead.")
            } else {
                format!(
                    "{n} nodes start and {} calls an election at {}. {rule}, so {who} will lead.",
                    node(f),
                    ms(t)
                )
            }
        }
        Family::Ring => format!(
            "{n} nodes on a ring start with no leader. Election messages go round the ring and the highest id survives: {}.",
            will_lead(facts, 0)
        ),
        Family::Raft if all => format!(
            "All {n} servers stand for election at once, so the first votes split; {}.",
            will_lead(facts, 0)
        ),
        Family::Raft => format!(
            "{n} servers start as followers with random election timeouts. {}'s fires first, at {}, and it asks for votes.",
            node(f),
            ms(t)
        ),
        _ => format!(
            "{n} nodes start with no leader. {} starts an election at {}, and {}.",
            node(f),
            ms(t),
            will_lead(facts, 0)
        ),
    }
}

#[inline(never)]
fn election(
    facts: &Facts,
    family: Family,
    i: usize,
    f: NodeId,
    term: Option<u64>,
    again: bool,
) -> String {
    match family {
        Family::Bully => {
            let kind = kind_sent(facts, i, f).unwrap_or("ELECTION");
            let at = facts.events[i].at_us;
            let outcome = match future_leader(facts, i) {
                Some((l, None)) => format!("{} already leads and tells it so.", node(l)),
                Some((l, Some(t))) if t <= at => {
                    format!("{} already leads and tells it so.", node(l))
                }
                Some((l, t)) if l == f => format!(
                    "No higher node answers, so {} takes over at {}.",
                    node(f),
                    ms(t.unwrap_or(at))
                ),
                Some((l, Some(t))) => format!(
                    "{} is the highest live id and takes over at {}.",
                    node(l),
                    ms(t)
                ),
                None => "No leader comes of it.".to_string(),
            };
            format!(
                "{} starts an election: it sends {kind} to every higher id. {outcome}",
                node(f)
            )
        }
        Family::Ring => format!(
            "{} starts an election: its message goes round the ring, and only the highest id survives a full lap: {}.",
            node(f),
            will_lead(facts, i)
        ),
        Family::Raft => {
            let t = term.map_or(String::new(), |t| format!(" in term {t}"));
            let split = match term {
                Some(t) if again && t > 1 => {
                    format!("No majority for term {}. ", t - 1)
                }
                _ => String::new(),
            };
            format!(
                "{split}{}'s election timeout fired: it asks for votes{t}, and {}.",
                node(f),
                will_lead(facts, i)
            )
        }
        Family::Other => format!("{} starts an election; {}.", node(f), will_lead(facts, i)),
    }
}

#[inline(never)]
fn leader(facts: &Facts, family: Family, i: usize, l: NodeId, term: Option<u64>) -> String {
    let highest = facts.candidates_before(i).last().copied() == Some(l);
    let next = next_fault(facts, i);
    // Whether the leaders stay as they are until the next fault.
    let stays = !facts
        .leader_changes
        .iter()
        .any(|(j, _)| *j > i && *j < next);
    let then = match facts.events.get(next) {
        Some(e) if stays => format!(
            " It leads until {} at {}.",
            fault_name(&e.event),
            ms(e.at_us)
        ),
        _ => String::new(),
    };
    match family {
        Family::Raft => match term {
            Some(t) => format!(
                "{} has {} of {} votes: a majority. It leads term {t}.",
                node(l),
                facts.votes_for(i, l, t),
                facts.voters()
            ),
            None => format!("{} has a majority of the votes and leads.", node(l)),
        },
        Family::Bully if highest => {
            let tell = match kind_sent(facts, i, l) {
                Some(k) => format!(", and it tells the others with {k}"),
                None => String::new(),
            };
            format!(
                "{} is the leader: the highest live id wins{tell}.{then}",
                node(l)
            )
        }
        Family::Ring if highest => format!(
            "{}'s message came back round the ring: it has the highest id and leads.{then}",
            node(l)
        ),
        _ => {
            let t = match term {
                Some(t) if t > 0 => format!(" in term {t}"),
                _ => String::new(),
            };
            format!("{} leads{t}.{then}", node(l))
        }
    }
}

/// "the crash of n7", "the partition", ... for "until ..." endings.
#[inline(never)]
fn fault_name(e: &Event) -> String {
    match e {
        Event::Crash { node: n } => format!("the crash of {}", node(*n)),
        Event::Recover { node: n } => format!("{} recovers", node(*n)),
        Event::Pause { node: n, .. } => format!("the pause of {}", node(*n)),
        Event::Partition { .. } => "the partition".to_string(),
        Event::Heal => "the heal".to_string(),
        _ => "the next fault".to_string(),
    }
}

#[inline(never)]
fn fault(facts: &Facts, family: Family, i: usize) -> String {
    let e = &facts.events[i].event;
    let next = next_fault(facts, i);
    let mover = facts.first_mover(i + 1, next);
    match e {
        Event::Crash { node: c } => {
            let was = facts.leaders_before(i).contains(c);
            if !was {
                let leaders = facts.leaders_before(i);
                let still = match leaders {
                    [] => "no node leads".to_string(),
                    [l] => format!("{} still leads", node(*l)),
                    more => format!("{} still lead", nodes(more)),
                };
                return match mover {
                    Some((j, f)) => format!(
                        "{} has crashed. {} starts an election at {}, and {}.",
                        node(*c),
                        node(f),
                        ms(facts.events[j].at_us),
                        will_lead(facts, j)
                    ),
                    None => format!("{} has crashed. It was not the leader: {still}.", node(*c)),
                };
            }
            let Some((j, f)) = mover else {
                return format!(
                    "{}, the leader, has crashed; no node starts an election after it.",
                    node(*c)
                );
            };
            let at = ms(facts.events[j].at_us);
            let timer = facts.timer_before(j, f).map(|c| family.timer_name(c));
            let heard = facts.last_heard(i, *c, f);
            let text = match (heard, timer) {
                (Some(h), Some(timer)) => format!(
                    "{} has heard nothing from it since {}; its {timer} fires at {at} and it starts an election",
                    node(f),
                    ms(h)
                ),
                (Some(h), None) => format!(
                    "{} has heard nothing from it since {} and starts an election at {at}",
                    node(f),
                    ms(h)
                ),
                (None, Some(timer)) => format!(
                    "{}'s {timer} fires at {at} and it starts an election",
                    node(f)
                ),
                (None, None) => format!("{} starts an election at {at}", node(f)),
            };
            format!("{}, the leader, has crashed. {text}.", node(*c))
        }
        Event::Recover { node: r } => match mover {
            Some((j, f)) if f == *r => format!(
                "{} recovers and starts an election at {}; {}.",
                node(*r),
                ms(facts.events[j].at_us),
                will_lead(facts, j)
            ),
            Some((j, f)) => format!(
                "{} recovers; {} starts an election at {}, and {}.",
                node(*r),
                node(f),
                ms(facts.events[j].at_us),
                will_lead(facts, j)
            ),
            None => match facts.leaders_before(i) {
                [l] => format!("{} recovers and follows {}.", node(*r), node(*l)),
                _ => format!("{} recovers.", node(*r)),
            },
        },
        Event::Partition { groups } => {
            // The participants' sides (a service or resource node is no
            // side of the election).
            let mut sides: Vec<String> = Vec::new();
            for g in groups {
                let side: Vec<NodeId> = g.iter().copied().filter(|n| *n < facts.nodes).collect();
                if !side.is_empty() {
                    sides.push(format!("{{{}}}", nodes(&side)));
                }
            }
            let w = Window {
                from: i,
                to: next,
                at_us: facts.events[i].at_us,
                to_us: facts.events.get(next).map_or(facts.end_us, |e| e.at_us),
            };
            let (split, who) = facts.split_brain(&w);
            let future = if split > 0 {
                format!(
                    "Each side elects its own: {} will lead at once.",
                    nodes(&who)
                )
            } else {
                match facts.outcome(&w) {
                    Some(l) => {
                        format!("Only {} will lead: no other side elects a leader.", node(l))
                    }
                    None => "No side will have a leader.".to_string(),
                }
            };
            format!("The network splits into {}. {future}", sides.join(" and "))
        }
        Event::Heal => {
            let before = facts.leaders_before(i).to_vec();
            let w = Window {
                from: i,
                to: next,
                at_us: facts.events[i].at_us,
                to_us: facts.events.get(next).map_or(facts.end_us, |e| e.at_us),
            };
            let future = match (facts.outcome(&w), before.len()) {
                (Some(l), k) if k > 1 => {
                    let others: Vec<NodeId> = before.iter().copied().filter(|b| *b != l).collect();
                    let when = facts
                        .became_leader(&w, l)
                        .map(|j| facts.events[j].at_us)
                        .or_else(|| {
                            facts
                                .leader_changes
                                .iter()
                                .find(|(j, _)| *j > i && *j < next)
                                .map(|(j, _)| facts.events[*j].at_us)
                        });
                    let by = when.map_or(String::new(), |t| format!(" by {}", ms(t)));
                    format!(
                        "The two sides meet again: {} will step down and {} stays the leader{by}.",
                        nodes(&others),
                        node(l)
                    )
                }
                (Some(l), _) => match mover {
                    Some((j, f)) => format!(
                        "{} starts an election at {}, and {} will lead.",
                        node(f),
                        ms(facts.events[j].at_us),
                        node(l)
                    ),
                    None => format!("{} stays the leader.", node(l)),
                },
                (None, _) => "Still no single leader.".to_string(),
            };
            format!("The network heals. {future}")
        }
        Event::Pause { node: p, until_us } => {
            let leader = facts.leaders_before(i).contains(p);
            match mover {
                Some((j, f)) if leader => {
                    let fires = match facts.timer_before(j, f) {
                        Some(class) => format!("{}'s {}", node(f), family.timer_name(class)),
                        None => format!("{}'s timer", node(f)),
                    };
                    format!(
                        "{}, the leader, pauses until {}. The others hear nothing from it: {fires} fires at {}.",
                        node(*p),
                        ms(*until_us),
                        ms(facts.events[j].at_us)
                    )
                }
                _ => format!("{} pauses until {}.", node(*p), ms(*until_us)),
            }
        }
        other => format!("{}.", capitalized(&other.describe())),
    }
}
