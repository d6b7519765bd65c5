// @ts-check
/**
 * The model and its time-travel state: one wasm `Playground` (the
 * simulation, owned by the Rust core) plus what the page adds around it
 * (playing or paused, speed). Nothing here decides anything about the
 * algorithm; it moves time, forwards user actions as faults and decodes
 * the core's typed arrays into small objects for the views.
 *
 * Going back in time is a re-run from the nearest checkpoint (the core is
 * deterministic), done inside the Playground by `seek_ms`. A fault made
 * before the latest moment reached forks the history (`fork`).
 *
 * ## Pacing
 *
 * **Pacing** is the model's (`Model.advance`): a frame that plays `realMs`
 * goes to `now + realMs × speed` (0.005 by default: the default Bully
 * election, 19 ms, takes about four seconds), with two exceptions that
 * change only where a frame stops, never what happens (the events are
 * those of one `run_until_ms` to wherever it gets, so every number and the
 * trace hash at a moment are the same; seeking, stepping and `at=` never
 * pace). Quiet-time skipping (`player/quiet.js`, on unless unticked, kept in
 * localStorage): while the next story moment (`next_story_ms()`: an
 * election message sent or delivered, a role, leader or term change, a
 * vote, a fault, a role-changing timer firing; heartbeats and lease
 * renewals are not moments) is more than 600 ms of real time away, the
 * stretch up to 400 ms of real time before it plays at a rate that takes
 * 600 ms, and the status says "Skipping 182 ms of quiet time" (a module
 * without the story: while `flight_count()` is 0, up to the next activity,
 * `next_activity_ms()`). Compare mode and the compare embed skip the same
 * way for all runs together (`CompareRuns.quietTarget`, stage/runs.js):
 * only while every run stands at the shared time with nothing on the wire,
 * up to the lead before the earliest of their next activities (a run where
 * nothing more will happen waits for the others); the single embed plays
 * through `Model`, so it skips as the page does. And stops (`Model.stops`): a
 * narrated preset's next step, where playing pauses until Next step
 * (panels/presets.js). Next step (`Model.playToNextStop`) fast-forwards:
 * it reaches the next stop within `FORWARD_REAL_MS` of real time, frame
 * by frame (each frame plays at least its share of what is left, so the
 * run is seen moving, never jumps), quiet stretches still skipped on the
 * way; the status says "Fast-forwarding to step 3 at 500 ms".
 * The page opens paused (at 0, or at `at=`) with a prompt over the
 * cluster until the run first moves (`Controls`).
 * @module model
 */

/** @typedef {import('../pkg/election_player.js').Playground} Playground */
/** @typedef {import('../cluster/flight-dots.js').Flights} Flights */

/**
 * One node as drawn.
 * @typedef {object} NodeState
 * @property {number} id
 * @property {boolean} alive
 * @property {boolean} paused
 * @property {import('../shared/names.js').RoleName} role
 * @property {number | null} term
 * @property {number | null} leader whom it believes leads
 * @property {number} group partition group (all equal when the network is whole)
 * @property {number} slowMs extra processing delay per handled event (0: normal)
 */

/**
 * Everything the views draw for one moment.
 * @typedef {object} Snapshot
 * @property {number} nowMs
 * @property {NodeState[]} nodes
 * @property {import('../cluster/node-rows.js').NodeRows} nodeRows the core's rows
 *   the nodes came from (what the cluster worker is posted)
 * @property {import('../cluster/flight-dots.js').Flights} flights the messages on
 *   the wire, at most `MAX_DRAWN_FLIGHTS` of them (an even sample above)
 * @property {string[]} kinds
 * @property {number[]} sentByKind
 * @property {number} messagesSent
 * @property {string} traceHash stable hash of the trace so far (as the CLI prints it)
 * @property {number | undefined} leader the one live leader, if exactly one
 * @property {number[]} leaders every live leader (several during split brain)
 * @property {[number, number][]} cuts one-way links cut right now, [from, to]
 * @property {number} messagesDropped
 * @property {number} violationCount failed property checks so far
 * @property {number} participants nodes taking part in elections; ids from
 *   here on are the algorithm's extra nodes (a coordination service or a
 *   resource)
 * @property {number[]} ring ring order (position -> id)
 * @property {'ring' | 'cluster'} layout
 * @property {boolean} [playing] whether the run is moving frame by frame
 *   (playing, or going to the page's opening moment, see Model.moving):
 *   views may put off costly drawing then, never for a change made while
 *   paused
 */

import { decodeNodes, sameNodes } from '../cluster/node-rows.js';
import { ROLE_NAMES } from '../shared/names.js';
import { grouped } from '../shared/numbers.js';
import { Slicer } from './slicer.js';
import { learnFlightFields, quietStretch } from './quiet.js';
import { DEFAULT_SPEED, MAX_SPEED, MIN_SPEED } from './speed.js';

/**
 * A moment where playing pauses by itself (a narrated preset's step) and
 * what the status line says there.
 * @typedef {object} Stop
 * @property {number} ms
 * @property {string} reason
 */

/**
 * A failed property check, as the core reports it.
 * @typedef {object} Violation
 * @property {number} at_ms when it began
 * @property {string} property e.g. `split_brain`
 * @property {string} detail in words
 * @property {number[]} nodes the nodes involved
 */

/**
 * What a fault made in the past did: where the new history branched off
 * and the faults made live after that moment, dropped.
 * @typedef {object} Fork
 * @property {number} at_ms
 * @property {object[]} dropped scenario fault objects (with `at_ms`)
 */

/**
 * `[a, b, c, d]` as `[[a, b], [c, d]]`.
 * @param {ArrayLike<number>} flat
 * @returns {[number, number][]}
 */
function pairs(flat) {
  /** @type {[number, number][]} */
  const out = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

/**
 * Column index of each name in a list of column names.
 * @param {string[]} names
 * @returns {Record<string, number>}
 */
function columns(names) {
  return Object.fromEntries(names.map((name, i) => [name, i]));
}

/**
 * The messages of `f` that have not arrived by `nowMs`, as rows in
 * `scratch.rows` (reused frame after frame: a new array of up to 224 KB a
 * frame would bring on garbage collections; so the result lasts until
 * the next call with the same scratch).
 * @param {Flights} f
 * @param {number} nowMs
 * @param {{rows: Float64Array}} scratch
 * @returns {Flights}
 */
function notArrived(f, nowMs, scratch) {
  const { rows, width, col } = f;
  if (scratch.rows.length < rows.length) scratch.rows = new Float64Array(rows.length);
  const kept = scratch.rows;
  let end = 0;
  for (let o = 0; o + width <= rows.length; o += width) {
    if (rows[o + col.arrive_ms] > nowMs) {
      for (let k = 0; k < width; k++) kept[end + k] = rows[o + k];
      end += width;
    }
  }
  return { rows: kept.subarray(0, end), width, col };
}

// The play speed's range and default (player/speed.js), used here and by
// the model's users.
export { DEFAULT_SPEED, MAX_SPEED, MIN_SPEED };

/** Most real time Next step takes to reach the next stop, ms (the issue
 * asks for about 3 s; a little under leaves room for slow frames). */
export const FORWARD_REAL_MS = 2500;

/** Wall-clock time a seek forward (or To end) runs at once, ms; the rest
 * of the way is run in pieces between frames, as the opening moment is
 * (see `openAt`): a seek into a run of millions of events must not block
 * the page. */
const SYNC_SEEK_MS = 12;

/** After this long (ms of real time) a piece of work in pieces (a seek,
 * To end, the opening moment) shows its progress and a Cancel. */
export const LONG_WORK_MS = 500;

/** Most events one search for the next landmark runs (the core's
 * MAX_LANDMARK_EVENTS, core/tools/src/session/landmarks.rs), in pieces. */
const MAX_LANDMARK_EVENTS = 500_000;

/** Most silent queue events one Step skips over. */
const MAX_SILENT_STEPS = 10000;

/** Most messages in flight the cluster view draws (see Model.flights);
 * each dot costs rasterizing time after the frame. */
const MAX_DRAWN_FLIGHTS = 4000;

/** Fewest messages the sample holds when sampling is costly (see Model.flights). */
const MIN_DRAWN_FLIGHTS = 1000;

/** Reading the messages on the wire slower than this (ms) is reused a while. */
const COSTLY_SAMPLE_MS = 1.5;

/** Least simulation budget of a frame that has this much, ms (the run
 * must go on; the frame's budget is player.js's). */
const MIN_SIM_MS = 2;

/** Wall-clock budget of a frame's simulation while the page goes to its
 * opening moment (see `Model.openAt`), ms: more than playing gets, as
 * nothing else moves then, and still well under a frame. */
const OPEN_BUDGET_MS = 10;

/** Wall-clock budget of a frame's telling of the story while it is made
 * in pieces, ms (see `Model.storyPending`). */
const STORY_BUDGET_MS = 4;

/** Part of a frame's simulation budget that goes to the search for the
 * run's end while playing, ms (see `Model.seekEnd`). */
const END_WHILE_PLAYING_MS = 1;

/** Wall-clock budget of a frame's search for the run's end while
 * paused, ms (see `Model.seekEnd`). */
const END_BUDGET_MS = 6;

/**
 * @param {Float64Array} a
 * @param {Float64Array} b
 * @returns {boolean} whether both hold the same numbers
 */
function sameRows(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Trace event types that show each kind of landmark, best first. */
const LANDMARK_EVENTS = {
  violation: ['violation'],
  leaders: ['role', 'crash'],
  role: ['role'],
};

/**
 * The plain-language line of the event that made a landmark: the latest
 * fitting one among the events since index `from`.
 * @param {Playground} pg
 * @param {number} from
 * @param {string} landmark
 * @returns {string}
 */
function landmarkText(pg, from, landmark) {
  const count = pg.event_count();
  /** @type {{text: string, event: {type: string}}[]} */
  const lines = pg.events(Math.max(from, count - 200), count);
  const types = LANDMARK_EVENTS[/** @type {keyof typeof LANDMARK_EVENTS} */ (landmark)] ?? [];
  for (const type of types) {
    for (let i = lines.length - 1; i >= 0; i--) {
      if (lines[i].event.type === type) return lines[i].text;
    }
  }
  return landmark;
}

export class Model {
  /**
   * @param {typeof import('../pkg/election_player.js')} wasm the module
   * @param {Playground} playground
   */
  constructor(wasm, playground) {
    /** @private */
    this.wasm = wasm;
    /** @private */
    this.nodeCol = columns(wasm.node_fields());
    const flightNames = wasm.flight_fields();
    learnFlightFields(flightNames);
    /** @private @type {import('../cluster/flight-dots.js').FlightColumns} */
    this.flightCol = /** @type {any} */ (columns(flightNames));
    /** @private */
    this.flightWidth = flightNames.length;
    /** @type {Playground} */
    this.playground = playground;
    /** Bumped whenever the run is rebuilt, so the log starts over. */
    this.revision = 0;
    this.playing = false;
    /** Simulated ms per real ms. */
    this.speed = DEFAULT_SPEED;
    /** Whether quiet stretches play fast (see quiet.js; pacing only). */
    this.skipQuiet = true;
    /** The quiet stretch being skipped, if any. @private @type {import('./quiet.js').QuietStretch | null} */
    this.quiet = null;
    /** Where playing pauses by itself after `fromMs` (a narrated preset's
     * next step), if anywhere. @type {((fromMs: number) => Stop | null) | null} */
    this.stops = null;
    /** Why playing stopped by itself, for the status line. */
    this.stopReason = '';
    /** Next step's fast-forward to a stop, if one is under way: the stop,
     * the real time left to reach it (ms) and the revision it belongs to.
     * @private @type {{stop: Stop, realLeftMs: number, revision: number} | null} */
    this.forward = null;
    /** @type {Fork | null} what the last fault made did to the history */
    this.fork = null;
    /** @private @type {Set<() => void>} */
    this.listeners = new Set();
    /**
     * The share of the asked speed the run actually plays at while
     * playing (1: keeping up; less while a burst of events takes more
     * than a frame's budget of simulation).
     */
    this.lag = 1;
    /** Whether `advance` ran the simulation since the last `flush`. */
    this.advanced = false;
    /** Sizes the simulation's calls while playing or opening. @private */
    this.slicer = new Slicer();
    /** Where the page is still going in pieces (see `openAt`, `seek`),
     * ms, what to call once there, and since when (page clock, ms) for a
     * seek the user asked for. @private @type {{ms: number, done: () => void, since?: number} | null} */
    this.opening = null;
    /** Sizes the calls of the search for the run's end. @private */
    this.endSlicer = new Slicer();
    /** Sizes the calls that tell the story in pieces. @private */
    this.storySlicer = new Slicer();
    /** The nodes of the last `nodes()` and the rows they came from.
     * @private @type {{pg: Playground, rows: import('../cluster/node-rows.js').NodeRows, nodes: NodeState[]} | null} */
    this.nodeCache = null;
    /** The last sample of the messages on the wire (see `flights`).
     * @private @type {{flights: Flights, at: number, cost: number, revision: number, nowMs: number} | null} */
    this.flightCache = null;
    /** Messages the next sample may hold (fewer while sampling is costly). */
    this.sampleMax = MAX_DRAWN_FLIGHTS;
    /** Where `notArrived` writes this model's rows. @private */
    this.scratch = { rows: new Float64Array(0) };
    /** Whether To end waits for the end search (see `runToEnd`), and
     * since when (page clock, ms). */
    this.toEnd = false;
    this.toEndSince = 0;
    /** Called once To end in pieces is over: there, cancelled or taken
     * over by another move (see `runToEndInPieces`). @private @type {() => void} */
    this.toEndDone = () => {};
    /** The search for the next landmark going on in pieces (see
     * `nextInteresting`): the event count it started from, the events
     * searched so far, since when (page clock, ms), and what the last
     * piece found (`Playground.next_landmark_within`); null when none.
     * @private @type {{from: number, events: number, since: number, found: string | undefined} | null} */
    this.landmarkSearch = null;
    /** Sizes the calls of the search for the next landmark. @private */
    this.landmarkSlicer = new Slicer();
    /** Why the run is dead, after the wasm trapped in one of its calls
     * (see `fail`); null while it lives. @type {string | null} */
    this.broken = null;
    /** The node count of a playground (see `nodeTotal`).
     * @private @type {{pg: Playground, total: number} | null} */
    this.counted = null;
  }

  /**
   * Marks the run as dead after the wasm trapped in one of its calls (out
   * of memory, a stack overflow): nothing calls its playground again, as
   * a call into a handle whose last call never returned fails with
   * "recursive use of an object" (wasm-bindgen), until `replace` gives it
   * a new one (a new scenario, Restart). Returns the message to show, in
   * plain words.
   * @param {unknown} e what the call threw
   * @returns {string}
   */
  fail(e) {
    this.playing = false;
    this.opening = null;
    this.landmarkSearch = null;
    // A To end under way is over (the page waiting for it, ready at once).
    const toEndDone = this.takeToEndDone();
    const text = e instanceof Error ? e.message : String(e);
    this.broken = /unreachable|out of memory|memory access out of bounds|Maximum memory|allocation|stack/i.test(text)
      ? `this run needs more memory than the page allows (${text}). Pick fewer nodes or longer timeouts, or press Restart`
      : `the run stopped on an error (${text}). Pick another scenario or press Restart`;
    toEndDone();
    return this.broken;
  }

  /**
   * Calls `fn` after every change.
   * @param {() => void} fn
   */
  onChange(fn) {
    this.listeners.add(fn);
  }

  /** @private */
  changed() {
    if (this.broken) return;
    for (const fn of this.listeners) fn();
  }

  /**
   * Replaces the run with another playground (a new scenario).
   * @param {Playground} playground
   */
  replace(playground) {
    this.stopOpening();
    // A handle the wasm trapped in cannot even be freed (its last call
    // never returned); it is dropped with the module's memory.
    if (!this.broken) this.playground.free();
    this.broken = null;
    this.playground = playground;
    this.revision += 1;
    this.slicer.reset();
    this.endSlicer.reset();
    this.storySlicer.reset();
    this.stopReason = '';
    this.fork = null;
    this.forward = null;
    this.changed();
  }

  /** @returns {number} current simulated time, ms */
  get nowMs() {
    return this.playground.now_ms();
  }

  /** @param {boolean} on */
  setPlaying(on) {
    if (on) this.stopOpening();
    this.playing = on;
    this.forward = null;
    this.lag = 1;
    if (on) this.stopReason = '';
    this.changed();
  }

  /**
   * Plays on to the next stop (a lesson's next step), fast-forwarding so
   * it is reached within `FORWARD_REAL_MS` of real time (pacing only: the
   * events are those of playing there at any speed). Without a stop ahead
   * it just plays.
   * @param {number} [realMs] the real time it may take at most, ms
   */
  playToNextStop(realMs = FORWARD_REAL_MS) {
    this.setPlaying(true);
    const stop = this.stops?.(this.playground.now_ms()) ?? null;
    if (stop) this.forward = { stop, realLeftMs: realMs, revision: this.revision };
  }

  /**
   * The stop Next step is fast-forwarding to, while it plays faster than
   * asked to get there (null otherwise): for the status line.
   * @returns {Stop | null}
   */
  get forwardingTo() {
    const f = this.forward;
    if (!f || !this.playing || f.revision !== this.revision) return null;
    const left = f.stop.ms - this.playground.now_ms();
    return left > f.realLeftMs * this.speed ? f.stop : null;
  }

  /** @param {number} speed simulated ms per real ms (clamped) */
  setSpeed(speed) {
    this.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
    this.quiet = null;
    this.changed();
  }

  /** @param {boolean} on whether quiet stretches play fast (pacing only) */
  setSkipQuiet(on) {
    this.skipQuiet = on;
    this.quiet = null;
    this.changed();
  }

  /**
   * The quiet stretch playing skips now, simulated ms (0 when none): for
   * the status line.
   * @returns {number}
   */
  get skippingMs() {
    const q = this.currentQuiet();
    return q && this.playing ? q.untilMs - q.fromMs : 0;
  }

  /**
   * The quiet stretch the run stands in, if it is still the one measured.
   * @private
   * @returns {import('./quiet.js').QuietStretch | null}
   */
  currentQuiet() {
    const q = this.quiet;
    if (!q) return null;
    const now = this.playground.now_ms();
    if (q.revision !== this.revision || q.speed !== this.speed || now < q.fromMs || now >= q.untilMs) return null;
    return q;
  }

  /**
   * Where a frame that plays from `from` at the asked speed to `target`
   * plays to with quiet-time skipping (pacing only, see quiet.js).
   * @private
   * @param {number} from
   * @param {number} target
   * @param {number} realMs
   * @returns {number}
   */
  quietTarget(from, target, realMs) {
    if (!this.skipQuiet) return target;
    let q = this.currentQuiet();
    if (!q) {
      q = quietStretch(this.playground, this.speed, this.revision);
      this.quiet = q;
    }
    if (!q) return target;
    return Math.max(target, Math.min(q.untilMs, from + realMs * q.rate));
  }

  /**
   * Goes to `ms` (at or ahead of now) in pieces, in the task between frames
   * (see `advance`), drawing the way there: the page opening a
   * pathological run at a moment (`at=0` of 1,024 Bully nodes all
   * starting at once is half a million messages) would otherwise block
   * for a fifth of a second. The events are those of one `seek(ms)`.
   * `done` is called once there, or at once when nothing is due by `ms`; a
   * user's action on the run before that (play, step, seek...) takes
   * over from where the run got to, and `done` is called then.
   * @param {number} ms
   * @param {() => void} done
   */
  openAt(ms, done) {
    this.stopOpening();
    const next = this.playground.next_event_ms();
    if (ms < this.playground.now_ms() || next === undefined || next > ms) {
      this.seek(ms);
      done();
      return;
    }
    this.opening = { ms, done };
  }

  /** Whether the page is still going to its opening moment (see `openAt`). */
  get isOpening() {
    return this.opening !== null;
  }

  /** The moment the page is still going to (see `openAt`), ms, or null. */
  get openingMs() {
    return this.opening?.ms ?? null;
  }

  /** Whether the moment the page is going to was asked for by a seek
   * (not the address's opening moment). */
  get openingIsSeek() {
    return this.opening?.since !== undefined;
  }

  /** Whether the search for the next landmark goes on in pieces (see
   * `nextInteresting`). */
  get searchingLandmark() {
    return this.landmarkSearch !== null;
  }

  /** Whether the run moves frame by frame (playing, or going to its
   * opening moment): views then draw as they do while playing, each
   * frame within its share of the budget. */
  get moving() {
    return this.playing || this.opening !== null;
  }

  /**
   * Ends a pending `openAt` where the run got to.
   * @private
   */
  stopOpening() {
    const opening = this.opening;
    this.opening = null;
    this.landmarkSearch = null;
    opening?.done();
  }

  /**
   * Advances time by `realMs` of wall-clock time at the current speed,
   * when playing, within `budgetMs` of wall-clock work, and leaves the
   * drawing to `flush` (player.js runs the two in separate tasks: the
   * simulation right after a frame is shown, the drawing in the next
   * frame). Stops at the horizon (the scenario's end or the core's run
   * limit), when nothing is left to happen and at a stop (`stops`: a
   * narrated preset's next step). With `skipQuiet`, a quiet stretch plays
   * faster (quiet.js): pacing only, the events are those of one
   * `run_until_ms` to wherever it gets. Paused, it goes on to the
   * opening moment (`openAt`) or looks for the run's end, within budgets
   * of its own.
   * @param {number} realMs real time to play (player.js caps it)
   * @param {number} budgetMs this model's share of the frame's
   *   simulation budget (Infinity: play all of `realMs`)
   */
  advance(realMs, budgetMs) {
    if (this.broken) return;
    // The story (captions, quiet skipping) is told in pieces too: one
    // recorded run of up to 250,000 events would block a frame for a
    // quarter of a second and more.
    if (this.storyPending) {
      const pg = this.playground;
      if (this.storySlicer.run((events) => pg.story_ready_within?.(events) ?? true, STORY_BUDGET_MS)) {
        this.advanced = true;
      }
    }
    if (this.opening) {
      const { ms } = this.opening;
      const pg = this.playground;
      this.advanced = true;
      let there;
      try {
        there = this.slicer.run((events) => pg.run_until_ms_within(ms, events), OPEN_BUDGET_MS);
      } catch (e) {
        // Not again every frame: the page shows the error where it stands.
        this.stopOpening();
        throw e;
      }
      // The seek's last step (setting the clock to `ms`) once every event
      // up to it is done.
      if (there) {
        pg.seek_ms(ms);
        this.stopOpening();
        this.noteLimit();
      }
      return;
    }
    if (this.landmarkSearch) {
      this.advanced = true;
      this.searchLandmark(OPEN_BUDGET_MS);
      return;
    }
    if (!this.playing) {
      // Paused, the task only goes on looking for the run's end (and goes
      // there once found, when To end asked for it).
      if (this.endPending && this.seekEnd(END_BUDGET_MS)) {
        this.advanced = true;
        if (this.toEnd) {
          const done = this.takeToEndDone();
          const end = this.endMs();
          if (end !== null && end > this.playground.now_ms()) this.seekInPieces(end, done);
          else done();
        }
      } else if (this.toEnd) {
        this.advanced = true;
      }
      return;
    }
    const pg = this.playground;
    const horizon = pg.horizon_ms();
    const from = pg.now_ms();
    let target = this.quietTarget(from, Math.min(horizon, from + realMs * this.speed), realMs);
    // A narrated preset's next step, where playing waits for Next.
    const stop = this.stops?.(from) ?? null;
    // A stop right where the run stands (Predict's question at 0, asked
    // before the first events at 0 run): pause without running anything.
    if (stop && stop.ms <= from) {
      this.playing = false;
      this.stopReason = stop.reason;
      this.advanced = true;
      return;
    }
    // Next step's fast-forward: at least this frame's share of the way
    // left, so the stop comes within the real time it was given.
    const f = this.forward;
    if (f && stop && f.revision === this.revision && f.stop.ms === stop.ms) {
      const share = f.realLeftMs > realMs ? realMs / f.realLeftMs : 1;
      target = Math.max(target, Math.min(horizon, from + (stop.ms - from) * share));
      f.realLeftMs = Math.max(0, f.realLeftMs - realMs);
    } else if (f) {
      this.forward = null;
    }
    if (stop && stop.ms < target) target = stop.ms;
    const budget = budgetMs;
    const simFrom = performance.now();
    // The task's other work comes out of the same budget: a costly sample
    // of the wire when one will be due, and a little of the search for
    // the run's end while it is unknown.
    const sampleCost = this.flightCache?.cost ?? 0;
    // (By the end of this task: its budget, or a short one on a test's hand.)
    const taskEnd = simFrom + (Number.isFinite(budget) ? budget : MIN_SIM_MS);
    const sampleDue = sampleCost > COSTLY_SAMPLE_MS && !this.reusesSample(taskEnd);
    const endPending = this.endPending;
    // (On a test's hand, www/shared/play-clock.js, the budget is Infinity:
    // a frame plays all of its time, so where each frame gets is a
    // function of the run, not of how fast the machine is.)
    const simBudget = Math.max(
      Math.min(MIN_SIM_MS, budget),
      budget - (sampleDue ? sampleCost : 0) - (endPending ? END_WHILE_PLAYING_MS : 0),
    );
    // Toward `target` a bounded number of events at a time, stopping when
    // the budget is spent, so a burst of events (a thousand nodes all
    // starting an election) spreads over many frames instead of blocking
    // one: the run then plays slower than asked for (see `lag`). The
    // events and their order are the same as one `run_until_ms(target)`.
    this.slicer.run((events) => pg.run_until_ms_within(target, events), simBudget);
    if (endPending) this.seekEnd(END_WHILE_PLAYING_MS);
    // How fast the run really played, against the speed asked for
    // (smoothed over about half a second of frames).
    const asked = target - from;
    if (asked > 0) {
      const got = (pg.now_ms() - from) / asked;
      this.lag = this.lag + (Math.min(1, got) - this.lag) * Math.min(1, realMs / 500);
    }
    if (!this.playing || (stop && pg.now_ms() >= stop.ms)) this.forward = null;
    if (pg.now_ms() >= horizon) {
      this.playing = false;
      this.stopReason = `stopped at ${horizon} ms, the end of this scenario`;
    } else if (stop && pg.now_ms() >= stop.ms) {
      this.playing = false;
      this.stopReason = stop.reason;
    } else if (pg.next_event_ms() === undefined) {
      this.playing = false;
      this.stopReason = this.limitText() ?? 'nothing left to happen';
    }
    // A costly sample of the messages on the wire (half a million in the
    // 1024-node burst: 2 to 9 ms), when one is due, is taken here, in the
    // simulation's task, rather than in the frame that draws it.
    if (sampleCost > COSTLY_SAMPLE_MS && !this.reusesSample(performance.now())) this.sampleFlights();
    this.advanced = true;
  }

  /**
   * Where and why the run stopped at one of the core's limits, in words
   * ("Stopped at 430.6 ms: 2,097,152 messages in flight (the limit)"), or
   * null when no limit stopped it (core/engine/src/limits.rs): nothing
   * happens after that moment, so playing stops there.
   * @returns {string | null}
   */
  limitText() {
    /** @type {{at_ms: number, message: string} | null | undefined} */
    const stop = this.playground.stopped_by?.();
    if (!stop) return null;
    const at = grouped(stop.at_ms, 1);
    return `Stopped at ${at} ms: ${stop.message}`;
  }

  /**
   * Says in the status line that the run stopped at a limit, once it
   * stands there (after a seek, the end, the opening moment).
   * @private
   */
  noteLimit() {
    const text = this.limitText();
    if (text) this.stopReason = text;
  }

  /**
   * The end of the run as `election run` sees it (`until_ms`, else when
   * the election settles), ms; null while it is still being looked for.
   * The search runs on a side copy of the run, in pieces (`seekEnd`):
   * in a pathological run (1,024 Bully nodes all starting at once) it
   * takes over 100 ms, which would block the page's first frame.
   * @returns {number | null}
   */
  endMs() {
    if (this.broken) return null;
    return this.playground.end_ms_within(0) ?? null;
  }

  /** Whether the run's story is still being told in pieces (a module
   * without `story_ready_within` tells it at once). */
  get storyPending() {
    const pg = /** @type {{story_ready_within?: (events: number) => boolean}} */ (/** @type {unknown} */ (this.playground));
    return !this.broken && typeof pg.story_ready_within === 'function' && !pg.story_ready_within(0);
  }

  /** Whether the run's end is still being looked for (see `endMs`). */
  get endPending() {
    return !this.broken && this.endMs() === null;
  }

  /**
   * Goes on looking for the run's end for about `budgetMs` of wall-clock
   * time (`advance` does, in the task between frames).
   * @param {number} budgetMs
   * @returns {boolean} whether the end is known now
   */
  seekEnd(budgetMs) {
    const pg = this.playground;
    return this.endSlicer.run((events) => pg.end_ms_within(events) !== undefined, budgetMs);
  }

  /**
   * Draws what `advance` did since the last drawing, if anything.
   * @returns {boolean} whether it drew
   */
  flush() {
    if (!this.advanced || this.broken) return false;
    this.advanced = false;
    this.changed();
    return true;
  }

  /**
   * Processes the next event that shows in the trace (pausing first).
   * @returns {boolean} false when no event is left
   */
  step() {
    this.stopOpening();
    this.playing = false;
    const pg = this.playground;
    const seen = pg.event_count();
    let stepped = pg.step();
    // Some queue events change nothing visible (a timer cancelled after it
    // was set); step over those so every press shows something happen.
    for (let i = 0; stepped && pg.event_count() === seen && i < MAX_SILENT_STEPS; i++) {
      stepped = pg.step();
    }
    this.stopReason = stepped ? '' : (this.limitText() ?? 'nothing left to happen');
    this.changed();
    return stepped;
  }

  /**
   * Goes to `ms` (backward by re-running from the start).
   * @param {number} ms
   */
  seek(ms) {
    this.stopOpening();
    this.takeToEndDone()();
    if (ms < this.playground.now_ms()) this.revision += 1;
    this.playground.seek_ms(ms);
    this.noteLimit();
    this.changed();
  }

  /**
   * Goes to `ms` as `seek` does, but a long way forward in pieces: what
   * runs at once is at most `SYNC_SEEK_MS` of wasm, the rest between
   * frames (as the opening moment, `openAt`), with the progress and a
   * Cancel after `LONG_WORK_MS` (`longWork`). For what the user asks
   * (the scrubber, To end): a seek into a run of millions of events must
   * not block the page. `seek` stays whole for callers that read the
   * moment at once (the embed's API, exports).
   * @param {number} ms
   * @param {() => void} [done] called once there (at once when the seek
   *   took no pieces), or when another move takes over
   */
  seekInPieces(ms, done = () => {}) {
    this.stopOpening();
    this.takeToEndDone()();
    const pg = this.playground;
    if (ms < pg.now_ms()) {
      // Back: from the nearest checkpoint, at most one interval of events.
      this.revision += 1;
      pg.seek_ms(ms);
    } else if (this.slicer.run((events) => pg.run_until_ms_within(ms, events), SYNC_SEEK_MS)) {
      pg.seek_ms(ms);
    } else {
      // A long way forward: the rest in pieces between frames.
      this.opening = { ms, done, since: performance.now() };
      this.noteLimit();
      this.changed();
      return;
    }
    this.noteLimit();
    this.changed();
    done();
  }


  /** Goes to the end of the run exactly as `election run` does; pauses. */
  runToEnd() {
    this.stopOpening();
    this.playing = false;
    this.takeToEndDone()();
    this.playground.run_to_end();
    this.noteLimit();
    this.changed();
  }

  /**
   * Goes to the end of the run as `runToEnd` does, but in pieces between
   * frames when it is far (the end search first, then the way there,
   * with the progress and a Cancel after `LONG_WORK_MS`): for what the
   * user asks (To end, the End key, a link's `at=end`). `runToEnd` stays whole for
   * callers that read the end at once (an embed's range).
   * @param {() => void} [done] called once at the end (at once when it
   *   took no pieces), or when Cancel or another move takes over
   */
  runToEndInPieces(done = () => {}) {
    this.stopOpening();
    this.takeToEndDone()();
    this.playing = false;
    // The end search gets a task's share at once (a short run's end is
    // then found and gone to now, as the End key and To end always did).
    const end = this.endMs() ?? (this.seekEnd(SYNC_SEEK_MS) ? this.endMs() : null);
    if (end === null) {
      // Found in pieces between frames first (see `advance`), then gone
      // to as a seek.
      this.toEnd = true;
      this.toEndSince = performance.now();
      this.toEndDone = done;
    } else if (end > this.playground.now_ms()) {
      this.seekInPieces(end, done);
      return;
    }
    this.noteLimit();
    this.changed();
    if (!this.toEnd) done();
  }

  /**
   * Ends a pending To end in pieces (see `runToEndInPieces`): returns its
   * callback, for the caller to call once it has moved.
   * @private
   */
  takeToEndDone() {
    const done = this.toEndDone;
    this.toEnd = false;
    this.toEndDone = () => {};
    return done;
  }


  /**
   * The work in pieces the page is doing for the user (a seek far ahead,
   * To end, the opening moment), once it has taken longer than
   * `LONG_WORK_MS`: what to say of it; null otherwise.
   * @returns {string | null}
   */
  get longWork() {
    const now = performance.now();
    if (this.opening?.since !== undefined && now - this.opening.since > LONG_WORK_MS) {
      return `Going to ${this.opening.ms} ms: at ${this.playground.now_ms()} ms so far…`;
    }
    if (this.toEnd && now - this.toEndSince > LONG_WORK_MS) return 'Looking for the end of the run…';
    const search = this.landmarkSearch;
    if (search && now - search.since > LONG_WORK_MS) {
      return `Looking for the next change: at ${this.playground.now_ms()} ms so far…`;
    }
    return null;
  }

  /** Whether work in pieces is under way (see `longWork`): going to a
   * moment (the opening one or a seek), To end, or the next change. */
  get working() {
    return this.opening !== null || this.toEnd || this.landmarkSearch !== null;
  }

  /** Stops the work in pieces (see `longWork`) where it got to. */
  cancelWork() {
    const was = this.working;
    this.stopOpening();
    const done = this.takeToEndDone();
    if (was) this.stopReason = `cancelled at ${this.playground.now_ms()} ms`;
    this.changed();
    done();
  }

  /**
   * Adds a fault (a scenario fault object without `at_ms`, such as
   * `{pause: 3, for_ms: 500}`) at the current time. The core checks it and
   * throws an `Error` naming the field when it is wrong; then nothing
   * changes.
   * @param {object} fault
   */
  inject(fault) {
    this.stopOpening();
    this.playground.inject(JSON.stringify(fault));
    this.fork = this.playground.last_fork() ?? null;
    this.revision += 1;
    this.changed();
  }

  /**
   * Runs to right after the next role change, change of leaders or
   * violation before the horizon (pausing first), in pieces between
   * frames when it is far (as To end, with the progress and a Cancel
   * after `LONG_WORK_MS`); the status line says what happened.
   */
  nextInteresting() {
    this.stopOpening();
    this.playing = false;
    this.takeToEndDone()();
    this.landmarkSearch = { from: this.playground.event_count(), events: 0, since: performance.now(), found: '' };
    this.searchLandmark(SYNC_SEEK_MS);
    if (this.landmarkSearch) this.changed();
  }

  /**
   * Goes on with the search for the next landmark (see `nextInteresting`)
   * for about `budgetMs` of wall-clock time; says what it found once done.
   * @private
   * @param {number} budgetMs
   */
  searchLandmark(budgetMs) {
    const search = this.landmarkSearch;
    if (!search) return;
    const pg = this.playground;
    const done = this.landmarkSlicer.run((events) => {
      const n = Math.min(events, MAX_LANDMARK_EVENTS - search.events);
      search.found = pg.next_landmark_within(n);
      search.events += n;
      return search.found !== '' || search.events >= MAX_LANDMARK_EVENTS;
    }, budgetMs);
    if (!done) return;
    this.landmarkSearch = null;
    const found = search.found;
    if (found) {
      this.stopReason = `next change: ${landmarkText(pg, search.from, found)}`;
    } else {
      const now = pg.now_ms();
      this.stopReason =
        found === undefined
          ? `no role change, leader change or violation before ${now} ms, the end of this scenario`
          : `no role change, leader change or violation in the next 500,000 events (stopped at ${now} ms)`;
    }
    this.noteLimit();
    this.changed();
  }

  /**
   * Crashes node `id` now if it is up, recovers it if it is down. Recorded
   * in the scenario as a fault at the current time: a crash of the one
   * leader as `"leader"` (the core picks that same node now, and compare
   * mode then crashes each algorithm's own leader), any other as the node.
   * @param {number} id
   */
  toggleNode(id) {
    const node = this.nodes().find((n) => n.id === id);
    if (!node) return;
    const leaders = this.playground.leaders();
    const theLeader = leaders.length === 1 && leaders[0] === id;
    this.inject(node.alive ? { crash: theLeader ? 'leader' : id } : { recover: id });
  }

  /**
   * The failed property checks so far, as the run summary lists them.
   * @returns {Violation[]}
   */
  violations() {
    return this.playground.violations();
  }

  /** @returns {number} every node, an algorithm's extra nodes included */
  nodeTotal() {
    // A run's nodes never change: counted once per playground (several
    // views ask every frame, and counting copies every node's row).
    if (this.counted?.pg !== this.playground) {
      this.counted = { pg: this.playground, total: this.playground.nodes().length / Object.keys(this.nodeCol).length };
    }
    return this.counted.total;
  }

  /** @returns {NodeState[]} */
  nodes() {
    const c = this.nodeCol;
    const rows = this.playground.nodes();
    // The same rows as last time (most frames: nodes change far less
    // often than messages move) give the same objects: 1,024 new ones a
    // frame kept the garbage collector busy (single frames of 8 ms here).
    // So do rows that differ only in what the objects do not hold (the
    // pending timers, which change with every heartbeat): the new rows
    // are kept for the timer arcs.
    const cached = this.nodeCache;
    if (cached && cached.pg === this.playground && sameRows(cached.rows.rows, rows)) return cached.nodes;
    const nodeRows = { rows, col: c, roles: ROLE_NAMES };
    const nodes =
      cached && cached.pg === this.playground && sameNodes(cached.rows.rows, rows, c)
        ? cached.nodes
        : decodeNodes(nodeRows);
    this.nodeCache = { pg: this.playground, rows: nodeRows, nodes };
    return nodes;
  }

  /** @returns {Flights} */
  flights() {
    const cache = this.flightCache;
    const now = this.playground.now_ms();
    // Sampled at this very moment already (by `advance`, see there).
    if (cache && cache.revision === this.revision && cache.nowMs === now) return cache.flights;
    if (cache && this.reusesSample(performance.now())) return notArrived(cache.flights, now, this.scratch);
    return this.sampleFlights();
  }

  /**
   * Whether the last sample of the wire is reused at `at` (ms, page
   * clock) rather than taken again: sampling half a million messages in
   * the core takes milliseconds, so while playing a costly sample is
   * reused for up to twenty times its cost (the dots still move with
   * now; those arrived since are left out).
   * @private
   * @param {number} at
   */
  reusesSample(at) {
    const cache = this.flightCache;
    return (
      cache !== null &&
      this.playing &&
      cache.revision === this.revision &&
      cache.cost > COSTLY_SAMPLE_MS &&
      at - cache.at < cache.cost * 20
    );
  }

  /**
   * Takes a sample of the messages on the wire now (see `flights`).
   * @private
   * @returns {Flights}
   */
  sampleFlights() {
    const started = performance.now();
    // Above MAX_DRAWN_FLIGHTS, an even sample (spread over the message ids,
    // in the core so only the sample crosses from wasm): the dots would
    // cover the canvas anyway, and the counts elsewhere stay exact. Keeps
    // a pathological frame (500,000 in flight) drawable. The rows stay as
    // they came (one Float64Array): the views draw from them directly.
    const max = this.sampleMax;
    const flights = {
      rows: this.playground.flights_sampled(max),
      width: this.flightWidth,
      col: this.flightCol,
    };
    const cost = performance.now() - started;
    this.flightCache = { flights, at: started, cost, revision: this.revision, nowMs: this.playground.now_ms() };
    // With half a million on the wire each sampled message is a search in
    // the core (a sample of 4,000 took 7 to 18 ms in one call): a costly
    // sample is halved next time, down to MIN_DRAWN_FLIGHTS, and a cheap
    // one grows back, so no single call blocks a frame long.
    if (cost > 2 * COSTLY_SAMPLE_MS) this.sampleMax = Math.max(MIN_DRAWN_FLIGHTS, max >> 1);
    else if (cost < COSTLY_SAMPLE_MS / 2) this.sampleMax = Math.min(MAX_DRAWN_FLIGHTS, max * 2);
    return flights;
  }

  /** @returns {Snapshot} */
  snapshot() {
    const pg = this.playground;
    const layout = pg.layout();
    return {
      nowMs: pg.now_ms(),
      nodes: this.nodes(),
      // The rows the nodes came from (this.nodes() just cached them).
      nodeRows: /** @type {{rows: import('../cluster/node-rows.js').NodeRows}} */ (this.nodeCache).rows,
      flights: this.flights(),
      kinds: pg.kinds(),
      sentByKind: Array.from(pg.sent_by_kind()),
      messagesSent: pg.messages_sent(),
      traceHash: pg.trace_hash(),
      leader: pg.leader(),
      leaders: Array.from(pg.leaders()),
      cuts: pairs(pg.cuts()),
      messagesDropped: pg.messages_dropped(),
      violationCount: pg.violation_count(),
      participants: pg.node_count(),
      ring: Array.from(pg.ring()),
      layout: layout === 'ring' ? 'ring' : 'cluster',
      playing: this.moving,
    };
  }
}
