//! Where a run ends, as `election run` sees it: `until_ms` if set, else
//! when the election settles (bounded by the run limit). Found on a side
//! run that does not record and does not move the session, in pieces if
//! the caller wants (a thousand nodes all starting an election take over
//! a hundred milliseconds of wasm to run to their end, which the page
//! spreads over its frames), and cached. A scripted run's end search also
//! learns the script error that stops it, if one does (a scripted run is
//! searched even with `until_ms`, where the error may come first), so the
//! lab can say at Run where the script will stop
//! ([`Session::script_error_ahead`]); and so the limit that stops a run
//! there, if one does, so the page can name it beside the end
//! ([`Session::end_stop`]).

use super::{Session, spread_share};
use crate::Scenario;
use crate::algorithms;
use crate::script::ScriptError;
use crate::sim::Simulation;
use crate::time::Micros;
use election_engine::limits::StoppedBy;

/// The end once known, and the side run looking for it meanwhile.
#[derive(Default)]
pub(super) struct EndSearch {
    /// The end, once found (or set by running the session there).
    end_us: Option<Micros>,
    /// The side run, kept between pieces of the search.
    side: Option<Box<dyn Simulation>>,
    /// The script error that stops the run, once the end is known from a
    /// run to it.
    error: Option<ScriptError>,
    /// The limit that stops the run at its end, once the end is known
    /// from a run to it.
    stop: Option<StoppedBy>,
}

impl EndSearch {
    /// The end of `scenario`'s run after about `max_events` more events
    /// of the side run: the end once found, `None` before; with
    /// `max_events` 0 only what is known (no side run is made or run).
    fn within(&mut self, scenario: &Scenario, max_events: u64) -> Option<Micros> {
        if self.end_us.is_some() {
            return self.end_us;
        }
        if let Some(until) = scenario.until_us {
            if scenario.script.is_none() {
                self.end_us = Some(until);
                return self.end_us;
            }
        }
        if max_events == 0 {
            return None;
        }
        let run = self
            .side
            .get_or_insert_with(|| algorithms::build(scenario, false));
        // A piece spreads its share of a coming burst ahead, as the
        // session's own slices do.
        spread_share(run.as_mut(), max_events);
        let end = run.run_to_end_within_work(max_events)?;
        self.error = run.script_error().cloned();
        self.stop = run.stopped_by().cloned();
        self.side = None;
        self.end_us = Some(end);
        Some(end)
    }
}

impl Session {
    /// Where the run ends as `election run` sees it (see the module
    /// notes), without moving the session; computed once.
    pub fn end_us(&mut self) -> Micros {
        loop {
            if let Some(end) = self.end_us_within(u64::MAX) {
                return end;
            }
        }
    }

    /// [`Session::end_us`] in pieces of about `max_events` of work (events
    /// and the messages they sent) of the side run, which is kept between
    /// calls: the end once found, `None`
    /// before. With `max_events` 0 it only reads what is known (the page
    /// asks that every frame): no side run is made or checked.
    pub fn end_us_within(&mut self, max_events: u64) -> Option<Micros> {
        // A run that stopped at a limit (or on a script error) ended there,
        // whatever `until_ms` says (core/engine/src/limits.rs).
        if self.sim.stopped_by().is_some() || self.sim.script_error().is_some() {
            let now = self.sim.now_us();
            self.end.end_us = Some(now);
            self.end.stop = self.sim.stopped_by().cloned();
            self.end.side = None;
            return Some(now);
        }
        self.end.within(self.sim.scenario(), max_events)
    }

    /// The script error that stops this scripted run, wherever the
    /// session is now: found with the end (running the side run to it if
    /// the end is not known yet). `None` for a run no error stops.
    pub fn script_error_ahead(&mut self) -> Option<&ScriptError> {
        self.end_us();
        self.end.error.as_ref()
    }

    /// The limit that stops the run at its end
    /// (core/engine/src/limits.rs), once the end is known (see
    /// [`Session::end_us_within`]; this does not look for it): `None`
    /// before, or for a run no limit stops.
    pub fn end_stop(&self) -> Option<&StoppedBy> {
        self.end.end_us.and(self.end.stop.as_ref())
    }

    /// Whether a side run looking for the end is kept between pieces of
    /// the search (for tests: none before the search starts or after it
    /// ends).
    pub fn seeking_end(&self) -> bool {
        self.end.side.is_some()
    }

    /// Runs the session to the end of the run exactly as `election run`
    /// does (through the timeline first, so the way there gets
    /// checkpoints) and returns that time.
    pub fn run_to_end(&mut self) -> Micros {
        // A fresh history whose end is not known yet finds it on the way
        // (one run, not a side run and then this one); a scripted run
        // of 130,000 events took 1.5 s in the page the other way.
        let fresh = self.sim.metrics().events == 0 && self.sim.now_us() == 0;
        if fresh && self.end_us_within(0).is_none() && !self.seeking_end() {
            let end = self.timeline.run_to_end(self.sim.as_mut());
            self.end.end_us = Some(end);
            self.end.error = self.sim.script_error().cloned();
            self.end.stop = self.sim.stopped_by().cloned();
            return end;
        }
        let planned = self.end_us();
        if self.sim.now_us() < planned {
            self.timeline.run_until(self.sim.as_mut(), planned);
        }
        let end = self.sim.run_to_end();
        self.timeline.saw(self.sim.as_ref());
        self.end.end_us = Some(end);
        self.end.error = self.sim.script_error().cloned();
        self.end.stop = self.sim.stopped_by().cloned();
        end
    }
}
