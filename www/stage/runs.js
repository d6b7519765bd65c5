// @ts-check
/**
 * The runs of a comparison and their one shared clock, without any view:
 * the page's compare mode (compare.js) and the compare embed
 * (embed/compare-embed.js) both play, step, seek and fault through this.
 *
 * One clock for all runs: play, step and seek move every run to the same
 * simulated time. A step goes to the next moment at which anything
 * happens in any of the runs; the end (To end, `at=end`) is the latest of
 * the runs' own ends (`election run` without `--until-ms`). A fault goes
 * into every run at the current time.
 *
 * Quiet-time skipping (player/quiet.js), for all runs together: while
 * every run is quiet (its next story moment far off, heartbeats aside;
 * see `nextMatters`), playing goes fast up to the lead before the
 * earliest of their next moments. Pacing only: every run's events and numbers at any moment
 * are those of `run_until_ms`.
 *
 * ## Compare mode and the compare embed
 *
 * **Compare mode and the compare embed** share `stage/runs.js` (the
 * runs, one per algorithm, made by `Playground.for_algorithm` from one
 * scenario, and their one clock: a step goes to the next moment anything
 * happens in any run, the end is the latest of the runs' own ends, a fault
 * goes into every run), `stage/lanes.js` (a view, caption, legend and row
 * per run, drawn alike) and `stage/compare-table.js` (the columns, each reading
 * the core's `compare_figures()` row, so a row at time T is `election run
 * --algorithm <id> --until-ms T --json`; the failover columns are its
 * `failover_election_messages` and `failover_ms`, counted only from a
 * fault that removed that run's leader, "-" while null, with the reason on
 * hover). The page shows every column (in presentation mode the cost
 * columns, in projector type); the embed (`embed=1&compare=`) the compact
 * set. Crash each leader names the runs that had no leader and offers to
 * run them to it first (www/stage/compare-page.js, top comment). The
 * notes follow the scenario's faults: a crash of a fixed node (a number,
 * not `"leader"`) is called out above the table, since in a comparison it
 * is not each algorithm's leader; under the table, the formula of each
 * theory figure shown, or why the column is "-" (the published counts are
 * for no faults and every node starting). A click on a node in the single
 * view crashes `"leader"` when that node is the one leader (`Model.toggleNode`;
 * the core resolves it at once to the same node, so the run and its trace
 * hash are those of a crash of the node), so compare mode crashes each
 * algorithm's own leader. Both register one part with the player. A compare
 * embed's postMessage API takes play, pause, step, seek and state on the
 * shared clock, refuses `load` with an error that says why, and posts no
 * per-run events.
 * @module stage/runs
 */

import { Model } from '../player/model.js';
import { Slicer } from '../player/slicer.js';
import { QUIET_REAL_MS, nextMatters, quietStretch, storedSkipQuiet } from '../player/quiet.js';

/**
 * One algorithm's run.
 * @typedef {object} Run
 * @property {string} id algorithm id
 * @property {Model} model its run (a Model for decoding snapshots; its own
 *   clock is not used)
 * @property {Slicer} slicer sizes its simulation calls while playing
 * @property {number} participants nodes taking part (ids below this)
 */

/**
 * A compare run's playground as what it is: compare mode makes its runs
 * on the wasm compare module (their Model types them as the player's).
 * @param {Run} run
 * @returns {import('../pkg/election_compare.js').Playground}
 */
export function toolsPlayground(run) {
  return /** @type {any} */ (run.model.playground);
}

export class CompareRuns {
  /**
   * Takes over `playgrounds` (one per algorithm, all at time 0 of one
   * scenario); `free()` frees them.
   * @param {typeof import('../pkg/election_compare.js')} wasm
   * @param {string[]} ids algorithm ids, in display order
   * @param {import('../pkg/election_compare.js').Playground[]} playgrounds
   */
  constructor(wasm, ids, playgrounds) {
    /** @type {Run[]} */
    this.runs = playgrounds.map((pg, i) => ({
      id: ids[i],
      model: new Model(wasm, pg),
      slicer: new Slicer(),
      participants: pg.node_count(),
    }));
    /** Shared simulated time, ms. */
    this.nowMs = 0;
    this.playing = false;
    /** Simulated ms per real ms. */
    this.speed = 0.02;
    /** Why playing stopped by itself ('' while playing or after a user's pause). */
    this.stopReason = '';
    /** Set whenever the runs moved; whoever draws clears it. */
    this.dirty = false;
    /** Whether quiet stretches play fast (pacing only; the stored choice). */
    this.skipQuiet = storedSkipQuiet();
    /** The quiet stretch being skipped, if any. @private @type {import('../player/quiet.js').QuietStretch | null} */
    this.quiet = null;
  }

  /** Frees every run's playground. */
  free() {
    for (const run of this.runs) run.model.playground.free();
    this.runs = [];
  }

  /** @returns {number} the latest time every run can reach */
  horizonMs() {
    return Math.max(...this.runs.map((r) => r.model.playground.horizon_ms()));
  }

  /** @returns {number} the latest of the runs' own ends */
  endMs() {
    return Math.max(...this.runs.map((r) => r.model.playground.end_ms()));
  }

  /**
   * Plays or pauses (a pause first brings the runs together).
   * @param {boolean} on
   */
  setPlaying(on) {
    if (!on) this.sync();
    this.playing = on;
    if (on) this.stopReason = '';
    this.dirty = true;
  }

  /**
   * Moves every run to `ms` (backward by re-running from the start).
   * @param {number} ms
   */
  seek(ms) {
    const t = Math.max(0, ms);
    for (const run of this.runs) run.model.playground.seek_ms(t);
    this.nowMs = t;
    this.quiet = null;
    this.dirty = true;
  }

  /** The shared clock to the latest of the runs' own ends; paused. */
  toEnd() {
    this.playing = false;
    const end = this.endMs();
    this.seek(end);
    this.stopReason = `at ${end} ms, where the last of these runs ends`;
  }

  /**
   * Every run to the next moment at which something happens in any of
   * them; paused.
   * @returns {boolean} false when nothing is left to happen
   */
  step() {
    this.sync();
    this.playing = false;
    this.dirty = true;
    const next = this.runs.map((r) => r.model.playground.next_event_ms()).filter((t) => t !== undefined);
    if (next.length === 0) {
      this.stopReason = 'nothing left to happen';
      return false;
    }
    const t = Math.min(.../** @type {number[]} */ (next));
    for (const run of this.runs) run.model.playground.run_until_ms(t);
    this.nowMs = t;
    this.stopReason = '';
    return true;
  }

  /** @param {boolean} on whether quiet stretches play fast (pacing only) */
  setSkipQuiet(on) {
    this.skipQuiet = on;
    this.quiet = null;
    this.dirty = true;
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
   * The quiet stretch the runs stand in, if it is still the one measured.
   * @private
   * @returns {import('../player/quiet.js').QuietStretch | null}
   */
  currentQuiet() {
    const q = this.quiet;
    if (!q || q.speed !== this.speed || this.nowMs < q.fromMs || this.nowMs >= q.untilMs) return null;
    return q;
  }

  /**
   * Where a frame that plays to `target` at the asked speed plays to with
   * quiet-time skipping: a stretch is skipped only while every run stands
   * at the shared time and is quiet, up to the earliest run's lead.
   * @private
   * @param {number} target
   * @param {number} realMs
   * @returns {number}
   */
  quietTarget(target, realMs) {
    if (!this.skipQuiet) return target;
    let q = this.currentQuiet();
    if (!q) {
      q = this.measureQuiet();
      this.quiet = q;
    }
    if (!q) return target;
    return Math.max(target, Math.min(q.untilMs, this.nowMs + realMs * q.rate));
  }

  /**
   * The quiet stretch all runs share from now, if one is worth skipping.
   * @private
   * @returns {import('../player/quiet.js').QuietStretch | null}
   */
  measureQuiet() {
    let untilMs = this.horizonMs();
    let anyActivity = false;
    for (const run of this.runs) {
      const pg = run.model.playground;
      const next = nextMatters(pg);
      if (pg.now_ms() !== this.nowMs || next === null) return null;
      // A run where nothing more will happen waits for the others.
      if (next === undefined) continue;
      anyActivity = true;
      const q = quietStretch(pg, this.speed, 0);
      if (!q) return null;
      untilMs = Math.min(untilMs, q.untilMs);
    }
    if (!anyActivity) return null;
    const gap = untilMs - this.nowMs;
    if (!(gap > QUIET_REAL_MS * this.speed)) return null;
    return { fromMs: this.nowMs, untilMs, rate: gap / QUIET_REAL_MS, revision: 0, speed: this.speed };
  }

  /**
   * Plays `realMs` of real time at the shared speed, every run within its
   * share of `budgetMs` (the player's task), never past `untilMs`. A run
   * that falls behind (more events than the budget allows) goes on from
   * where it got to in the next frames, and the shared time is the
   * earliest of the runs' until the others catch up (`sync` brings them
   * together at once).
   * @param {number} realMs
   * @param {number} budgetMs
   * @param {number} [untilMs] where to stop (default: the horizon)
   */
  tick(realMs, budgetMs, untilMs = this.horizonMs()) {
    if (!this.playing) return;
    const target = Math.min(untilMs, this.quietTarget(this.nowMs + realMs * this.speed, realMs));
    const share = budgetMs / Math.max(1, this.runs.length);
    let reached = true;
    for (const run of this.runs) {
      const pg = run.model.playground;
      if (pg.now_ms() >= target) continue;
      if (!run.slicer.run((events) => pg.run_until_ms_within(target, events), share)) reached = false;
    }
    this.nowMs = reached ? target : Math.min(...this.runs.map((r) => r.model.playground.now_ms()));
    if (reached && target >= untilMs) {
      this.playing = false;
      this.stopReason = `stopped at ${untilMs} ms, the end of this ${untilMs >= this.horizonMs() ? 'scenario' : 'part'}`;
    } else if (this.runs.every((r) => r.model.playground.next_event_ms() === undefined)) {
      this.playing = false;
      this.stopReason = 'nothing left to happen';
    }
    this.dirty = true;
  }

  /**
   * Brings every run to the latest time any of them reached (after a
   * frame in which some fell behind), so a fault, a step or a pause finds
   * them all at the same moment.
   */
  sync() {
    const times = this.runs.map((r) => r.model.playground.now_ms());
    const latest = Math.max(this.nowMs, ...times);
    if (times.every((t) => t === latest) && this.nowMs === latest) return;
    for (const run of this.runs) run.model.playground.run_until_ms(latest);
    this.nowMs = latest;
    this.dirty = true;
  }

  /**
   * Adds `fault` to every run at the current time. The core checks it;
   * the runs share their nodes' ids, so a fault one run refuses is refused
   * by the first run already, before anything changed. Throws the core's
   * error then.
   * @param {object} fault
   */
  injectAll(fault) {
    this.sync();
    const text = JSON.stringify(fault);
    for (const run of this.runs) run.model.playground.inject(text);
    this.quiet = null;
    this.dirty = true;
  }

  /**
   * The scenario compared, faults made here included (the first run's
   * scenario: they all share it but for the algorithm).
   * @returns {{faults?: unknown[], start?: unknown}}
   */
  scenario() {
    return JSON.parse(this.runs[0].model.playground.scenario_json());
  }

  /**
   * Every run's row of the table now.
   * @returns {import('./compare-table.js').Figures[]}
   */
  figures() {
    return this.runs.map((r) => toolsPlayground(r).compare_figures());
  }
}

/**
 * The runs of `base`'s scenario under each of `ids`, on one clock. Throws
 * (freeing what it made; `base` is the caller's) when an algorithm cannot
 * run the scenario.
 * @param {typeof import('../pkg/election_compare.js')} wasm
 * @param {import('../pkg/election_compare.js').Playground} base
 * @param {string[]} ids
 * @returns {CompareRuns}
 */
export function runsFor(wasm, base, ids) {
  /** @type {import('../pkg/election_compare.js').Playground[]} */
  const pgs = [];
  try {
    for (const id of ids) pgs.push(base.for_algorithm(id));
  } catch (e) {
    for (const pg of pgs) pg.free();
    throw e;
  }
  return new CompareRuns(wasm, ids, pgs);
}

/**
 * A comparison's runs as the page's player plays them (player/player.js
 * `Playable`), as `playModel` makes one of a Model.
 * @param {CompareRuns} runs
 * @param {() => void} draw draws the runs (once they changed)
 * @param {(e: unknown) => void} failed says a failure (the runs are paused first)
 * @param {{playing?: () => boolean, advance?: (realMs: number, budgetMs: number) => void}} [how]
 *   whether they play (compare mode: only while it is on) and another
 *   simulation step (the embed's range)
 * @returns {import('../player/player.js').Playable}
 */
export function playRuns(runs, draw, failed, how = {}) {
  return {
    playing: how.playing ?? (() => runs.playing),
    advance: how.advance ?? ((realMs, budgetMs) => runs.tick(realMs, budgetMs)),
    flush: () => {
      if (!runs.dirty) return false;
      draw();
      return true;
    },
    failed: (e) => {
      runs.playing = false;
      failed(e);
    },
  };
}
