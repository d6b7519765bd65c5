// @ts-check
/**
 * The stage's comparison in the full page (compare mode): the scenario of
 * the single view under 2 to 4 algorithms side by side, one small
 * cluster view each with its row of the table (stage/lanes.js), all at
 * one shared simulated time (stage/runs.js), with compare mode's
 * transport bar (stage/bar.js on index.html's `#compare` controls: play,
 * step, restart, to end, speed, the time line, quiet-time skipping) and
 * its keys, its
 * faults (click a node, crash each leader, partition, heal: into every
 * run at the current time) and the notes around the table
 * (stage/compare-table.js). Compare mode's entry (compare/compare.js)
 * adds the address: what opens it, leaving it, sharing it.
 *
 * One clock for all views: play, step, the scrubber and `at=<ms>` move
 * every run to the same time. A step goes to the next moment at which
 * anything happens in any of the runs. To end moves the shared clock to
 * the latest of the algorithms' own ends (`election run` without
 * `--until-ms`); every row then shows what `election run --algorithm <id>
 * --until-ms <that time> --json` reports for the same scenario.
 *
 * While compare mode is on, the single view is hidden, so the page's
 * `[data-testid=messages-total]` elements are the cells of the table's
 * rows (`<tr data-algorithm="bully">`), which come first in the page.
 * @module stage/compare-page
 */

import { DEFAULT_SPEED } from '../player/model.js';
import { player } from '../player/player.js';
import { quietWords } from '../player/quiet.js';
import { el, messageOf, setText } from '../shared/dom.js';
import { Bar } from './bar.js';
import { READOUT_MS, Readouts } from '../shared/readouts.js';
import { addScrollCue } from '../shared/scroll-cue.js';
import { CompareRuns, playRuns, runsFor } from './runs.js';
import { makeLane, nodeFault, PAGE_LANE, renderLanes } from './lanes.js';
import { columns, fillHead, fixedCrashNotes, makeRow, theoryNotes } from './compare-table.js';

/** The controls of compare mode's bar. */
const COMPARE_BAR = ['play', 'step', 'restart', 'end', 'speed', 'quiet', 'present', 'scrubber'];

/** Every column of the table, in display order. */
const COLUMNS = columns();

/** @typedef {import('./lanes.js').Lane} Lane */

/**
 * What compare mode needs from the page.
 * @typedef {object} CompareHooks
 * @property {() => import('../player/model.js').Model} single the single view's
 *   model (its scenario is the one compared; it is paused while compare
 *   mode is on)
 * @property {(message: string) => void} report show a problem
 * @property {() => void} clear clear the problems shown
 */

export class PageComparison {
  /**
   * @param {typeof import('../pkg/election_web.js')} wasm
   * @param {{id: string, name: string}[]} algorithms every algorithm, in display order
   * @param {CompareHooks} hooks
   */
  constructor(wasm, algorithms, hooks) {
    /** @protected */
    this.wasm = wasm;
    /** @protected */
    this.algorithms = algorithms;
    /** @protected */
    this.hooks = hooks;
    /** Whether compare mode is on. */
    this.active = false;
    /** The runs and their shared clock (while open). @type {CompareRuns | null} */
    this.runs = null;
    /** @private @type {Lane[]} */
    this.lanes = [];
    /** Simulated ms per real ms (kept across openings). @private */
    this.speed = DEFAULT_SPEED;
    /** The algorithm of the scenario compared (where leaving returns to). @protected */
    this.baseAlgorithm = '';
    /** Nodes picked for side A of a partition. @private @type {Set<number>} */
    this.picked = new Set();
    /** The fault count the notes were written for. @private */
    this.notesFor = -1;
    /** Unregisters the runs from the page's player (while open). @private
     * @type {(() => void) | null} */
    this.unplay = null;

    this.section = el('compare');
    this.single = /** @type {HTMLElement} */ (document.querySelector('main.layout'));
    this.title = el('compare-title');
    /** When the table and the time readouts are written while playing
     * (see `render`). @private */
    this.readouts = new Readouts(2, READOUT_MS);
    this.viewsBox = el('compare-views');
    this.rows = el('compare-rows');
    this.notes = el('compare-theory');
    this.fixed = el('compare-fixed');
    this.partition = /** @type {HTMLButtonElement} */ (el('compare-partition'));
    this.shareStatus = el('compare-share-status');
    this.picker = el('compare-picker');
    fillHead(/** @type {HTMLTableRowElement} */ (el('compare-head-row')), COLUMNS);
    addScrollCue(el('compare-scroll'));

    el('compare-crash-leader').addEventListener('click', () => this.injectAll({ crash: 'leader' }));
    el('compare-heal').addEventListener('click', () => this.injectAll({ heal: true }));
    this.partition.addEventListener('click', () => this.partitionPicked());
    /** Compare mode's transport bar, on index.html's markup. */
    this.bar = new Bar({ chrome: 'page', prefix: 'compare-', shows: COMPARE_BAR });
    const actions = {
      toggle: () => this.setPlaying(!this.runs?.playing),
      step: () => this.step(),
      restart: () => this.seek(0),
      toEnd: () => this.toEnd(),
      seek: (/** @type {number} */ ms) => this.seek(ms),
      setSpeed: (/** @type {number} */ speed) => {
        this.speed = speed;
        if (this.runs) this.runs.speed = speed;
        this.changed();
      },
      setSkipQuiet: (/** @type {boolean} */ on) => {
        this.runs?.setSkipQuiet(on);
        this.render();
      },
    };
    this.bar.wire(actions);
    this.bar.captureKeys(() => this.active, actions);
  }

  /** Shared simulated time, ms. */
  get nowMs() {
    return this.runs?.nowMs ?? 0;
  }

  /** Whether the runs are playing. */
  get playing() {
    return this.runs?.playing ?? false;
  }

  /**
   * Builds one run per algorithm from the single view's scenario and shows
   * them. Throws (changing nothing) when an algorithm cannot run it.
   * @param {string[]} ids
   * @param {number | 'end' | null} at where to put the shared clock
   * @param {boolean} play whether to start playing
   */
  enter(ids, at, play) {
    const single = this.hooks.single();
    // The single view runs on the player module: its run crosses to the
    // tools module as its scenario (faults made by clicking included).
    const base = new this.wasm.Playground(single.playground.scenario_json());
    const baseAlgorithm = base.algorithm();
    /** @type {CompareRuns} */
    let runs;
    try {
      runs = runsFor(this.wasm, base, ids);
    } finally {
      base.free();
    }
    single.setPlaying(false);
    this.baseAlgorithm = baseAlgorithm;
    runs.speed = this.speed;
    this.runs = runs;
    this.lanes = runs.runs.map((run) => this.buildLane(run));
    this.notesFor = -1;
    this.active = true;
    this.picked = new Set();
    this.single.hidden = true;
    this.section.hidden = false;
    document.body.dataset.mode = 'compare';
    setText(this.title, `Compare: ${this.lanes.map((l) => l.name).join(' · ')}`);
    this.shareStatus.textContent = '';
    if (at === 'end') runs.toEnd();
    else if (typeof at === 'number') runs.seek(at);
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    runs.playing = play && !reduceMotion;
    this.render();
    // The page's player (player/player.js) plays the runs, all of them
    // within one frame's simulation budget.
    this.unplay = player.add(
      playRuns(runs, () => this.render(), (e) => this.hooks.report(`Something went wrong: ${messageOf(e)}`), {
        playing: () => this.active && runs.playing,
      }),
    );
  }

  /**
   * One view and one table row for a run.
   * @private
   * @param {import('./runs.js').Run} run
   * @returns {Lane}
   */
  buildLane(run) {
    const name = this.algorithms.find((a) => a.id === run.id)?.name ?? run.id;
    const lane = makeLane(run, name, this.viewsBox, PAGE_LANE, {
      click: (l, node) => this.toggleNode(l, node),
      pick: (node) => this.pick(node),
    });
    const { tr, cells } = makeRow(run.id, name, COLUMNS);
    this.rows.append(tr);
    lane.cells = cells;
    return lane;
  }

  /**
   * The notes around the table, written again when the faults change:
   * crashes of a fixed node above it, the theory column's formulas (or
   * why it is empty) under it.
   * @private
   */
  writeNotes() {
    const runs = /** @type {CompareRuns} */ (this.runs);
    const count = runs.runs[0].model.playground.fault_count();
    if (count === this.notesFor) return;
    this.notesFor = count;
    const scenario = runs.scenario();
    const figures = runs.figures();
    const theory = theoryNotes(
      this.lanes.map((lane, i) => ({ name: lane.name, figures: figures[i] })),
      scenario,
    );
    this.notes.replaceChildren(
      ...theory.map((line) => {
        const li = document.createElement('li');
        li.textContent = line;
        return li;
      }),
    );
    this.notes.hidden = theory.length === 0;
    const fixed = fixedCrashNotes(scenario);
    setText(this.fixed, fixed.length === 0 ? '' : `${fixed.join(' ')} Crash each leader crashes each run's own leader.`);
    this.fixed.hidden = fixed.length === 0;
  }

  /**
   * Tears the views down (leaving, or when the address changes under an open page).
   */
  close() {
    this.unplay?.();
    this.unplay = null;
    this.runs?.free();
    this.runs = null;
    this.lanes = [];
    this.viewsBox.replaceChildren();
    this.rows.replaceChildren();
    this.active = false;
    this.section.hidden = true;
    this.single.hidden = false;
    delete document.body.dataset.mode;
  }

  /**
   * @param {boolean} on
   */
  setPlaying(on) {
    this.runs?.setPlaying(on);
    this.changed();
  }

  /** @private */
  changed() {
    // Draw at once: the readouts are current whenever anyone looks.
    this.render();
  }

  /**
   * Moves every run to `ms` (backward by re-running from the start).
   * @param {number} ms
   */
  seek(ms) {
    this.runs?.seek(ms);
    this.changed();
  }

  /**
   * The shared clock to the latest of the runs' own ends (each run's
   * `election run` end); paused.
   */
  toEnd() {
    this.runs?.toEnd();
    this.changed();
  }

  /** Every run to the next moment at which something happens in any of them. */
  step() {
    this.runs?.step();
    this.changed();
  }

  /**
   * Adds `fault` to every run at the current time; a fault the core
   * refuses is reported and changes nothing.
   * @param {object} fault
   * @returns {boolean}
   */
  injectAll(fault) {
    if (!this.runs) return false;
    try {
      this.runs.injectAll(fault);
      this.hooks.clear();
    } catch (e) {
      this.hooks.report(messageOf(e));
      return false;
    }
    this.shareStatus.textContent = '';
    this.changed();
    return true;
  }

  /**
   * A click on node `id` of one view: crash it in every run if it is up in
   * that view, else recover it in every run. A fixed node: the note above
   * the table says so (Crash each leader crashes each run's own).
   * @private
   * @param {Lane} lane
   * @param {number} id
   */
  toggleNode(lane, id) {
    const fault = nodeFault(lane, id);
    if (fault === null) {
      this.hooks.report(
        `n${id} belongs to ${lane.name} only (a storage or coordination service); in compare mode a fault goes to every view, so pick one of n0 to n${lane.run.participants - 1}.`,
      );
      return;
    }
    if (fault) this.injectAll(fault);
  }

  /**
   * Shift-click: picks or unpicks node `id` for side A of a partition.
   * @private
   * @param {number} id
   */
  pick(id) {
    if (this.lanes.some((l) => id >= l.run.participants)) return;
    if (this.picked.has(id)) this.picked.delete(id);
    else this.picked.add(id);
    for (const lane of this.lanes) lane.view.setPicked(this.picked);
    this.describePartition();
  }

  /** @private */
  describePartition() {
    const side = [...this.picked].sort((a, b) => a - b);
    setText(
      this.partition,
      side.length === 0 ? 'Partition (shift-click nodes first)' : `Partition ${side.map((id) => `n${id}`).join(', ')} | rest`,
    );
  }

  /** @private */
  partitionPicked() {
    if (this.picked.size === 0) {
      this.hooks.report('Partition: shift-click the nodes of side A on any view first; the rest form side B.');
      return;
    }
    const side = [...this.picked].sort((a, b) => a - b);
    if (this.injectAll({ partition: [side] })) {
      this.picked = new Set();
      for (const lane of this.lanes) lane.view.setPicked(this.picked);
      this.describePartition();
    }
  }

  /** Draws every view and brings the table and the controls up to date. */
  render() {
    const runs = this.runs;
    if (!this.active || !runs) return;
    runs.dirty = false;
    // While playing, the table and the time readouts are written at most
    // every READOUT_MS, taking turns (as in the single view, stage/page.js):
    // rewriting them every frame cost a layout of the table in every
    // frame; the drawings change every frame, and a pause writes all.
    const due = this.readouts.due(runs.playing, performance.now());
    renderLanes(this.lanes, COLUMNS, due[0] ? runs.figures() : null);
    this.writeNotes();
    const maxMs = due[1] ? Math.max(runs.endMs() * 1.25, runs.nowMs, 1) : 0;
    this.bar.render({ playing: runs.playing, speed: runs.speed, nowMs: runs.nowMs, maxMs }, due[1]);
    if (!due[1]) return;
    const skipping = runs.skippingMs;
    setText(
      this.bar.status,
      skipping > 0 ? `Skipping ${quietWords(skipping)} of quiet time…` : runs.stopReason ? `Paused: ${runs.stopReason}.` : '',
    );
  }
}
