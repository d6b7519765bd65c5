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
 * **Crash each leader** adds `{"crash": "leader"}` to every run now: the
 * core crashes each run's own leader and skips the runs where none leads.
 * Those are named under the buttons ("Raft has no leader yet: not
 * crashed."), with an offer, "Run them to their leader, then crash it":
 * that fault becomes `{"crash": "leader-or-next"}` (the same moment, one
 * scenario for every run, so a link and `election run` reproduce it; the
 * core then crashes each such run's first leader the moment it has one),
 * the runs are rebuilt from that scenario, and each leaderless run is
 * stepped landmark by landmark (`Playground.next_landmark`) until the core
 * reports its leader removed (`compare_figures().leader_removed_ms`); the
 * shared clock then stands at the latest of those crashes.
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
import { el, h, messageOf, setText } from '../shared/dom.js';
import { Bar } from './bar.js';
import { READOUT_MS, Readouts } from '../shared/readouts.js';
import { addScrollCue } from '../shared/scroll-cue.js';
import { CompareRuns, playRuns, runsFor, toolsPlayground } from './runs.js';
import { makeLane, nodeFault, PAGE_LANE, renderLanes } from './lanes.js';
import { columns, fillHead, fixedCrashNotes, makeRow, msText, theoryNotes } from './compare-table.js';

/**
 * Names as a sentence's list: "A", "A and B", "A, B and C".
 * @param {string[]} names
 * @returns {string}
 */
function listOf(names) {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

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
   * @param {typeof import('../pkg/election_compare.js')} wasm
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

    el('compare-crash-leader').addEventListener('click', () => this.crashEachLeader());
    /** The line under the fault buttons about the last Crash each leader
     * (which runs had no leader; the offer). @private */
    this.crashNote = h('div', { class: 'compare-crash-note', 'data-testid': 'compare-crash-note' });
    /** @private */
    this.crashText = h('span', { role: 'status', 'data-testid': 'compare-leaderless' });
    /** @private */
    this.runToLeader = /** @type {HTMLButtonElement} */ (
      h('button', { type: 'button', 'data-testid': 'compare-run-to-leader' }, 'Run them to their leader, then crash it')
    );
    this.runToLeader.addEventListener('click', () => this.crashAtFirstLeaders());
    this.crashNote.append(this.crashText, ' ', this.runToLeader);
    this.crashNote.hidden = true;
    el('compare-crash-leader').closest('.compare-faults')?.after(this.crashNote);
    /** The Crash each leader that left runs without a leader: its fault's
     * index and time, and those runs' names. @private
     * @type {{index: number, atMs: number, names: string[]} | null} */
    this.offer = null;
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

  /**
   * Makes the next comparisons in `wasm`: the tools module, for a scripted
   * run (shared/panel-wasm.js `compareFor`).
   * @param {typeof import('../pkg/election_compare.js')} wasm
   */
  useWasm(wasm) {
    this.wasm = wasm;
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
   * @param {string} [scenarioJson] the scenario to compare (default: the
   *   single view's)
   */
  enter(ids, at, play, scenarioJson) {
    const single = this.hooks.single();
    // The single view runs on the player module: its run crosses to the
    // compare module as its scenario (faults made by clicking included).
    const base = new this.wasm.Playground(scenarioJson ?? single.playground.scenario_json());
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
    this.showOffer(null, '');
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
      this.showOffer(null, '');
    } catch (e) {
      this.hooks.report(messageOf(e));
      return false;
    }
    this.shareStatus.textContent = '';
    this.changed();
    return true;
  }

  /**
   * Crash each leader: `{"crash": "leader"}` into every run now (the core
   * crashes each run's own leader, and skips a run where none leads); the
   * runs that had none are named, with the offer to run them to their
   * leader first.
   */
  crashEachLeader() {
    const runs = this.runs;
    if (!runs) return;
    runs.sync();
    const figures = runs.figures();
    const names = this.lanes.filter((_, i) => figures[i].leaders.length === 0).map((l) => l.name);
    if (!this.injectAll({ crash: 'leader' })) return;
    if (names.length === 0) {
      this.showOffer(null, '');
      return;
    }
    const index = runs.runs[0].model.playground.fault_count() - 1;
    const lost = this.lanes.filter((l) => !names.includes(l.name)).map((l) => l.name);
    const also = lost.length === 0 ? '' : ` ${listOf(lost)} lost ${lost.length === 1 ? 'its leader' : 'their leaders'}.`;
    this.showOffer(
      { index, atMs: runs.nowMs, names },
      `${listOf(names)} ${names.length === 1 ? 'has' : 'have'} no leader yet: not crashed.${also}`,
    );
  }

  /**
   * Shows the line under the fault buttons (hidden for ''), with the
   * offer when `offer` is given.
   * @private
   * @param {{index: number, atMs: number, names: string[]} | null} offer
   * @param {string} text
   */
  showOffer(offer, text) {
    this.offer = offer;
    setText(this.crashText, text);
    this.runToLeader.hidden = offer === null;
    if (offer) setText(this.runToLeader, `Run ${offer.names.length === 1 ? 'it' : 'them'} to ${offer.names.length === 1 ? 'its' : 'their'} leader, then crash it`);
    this.crashNote.hidden = text === '';
  }

  /**
   * The offer: the last Crash each leader becomes `"leader-or-next"` (the
   * same moment), the runs are rebuilt from that one scenario, and each run
   * that had no leader then is stepped from landmark to landmark until
   * the core says its leader was removed; the clock then stands at the
   * latest of those crashes, paused.
   */
  crashAtFirstLeaders() {
    const runs = this.runs;
    const offer = this.offer;
    if (!runs || !offer) return;
    runs.setPlaying(false);
    const scenario = /** @type {{faults?: any[]}} */ (runs.scenario());
    const fault = scenario.faults?.[offer.index];
    if (!fault || fault.crash !== 'leader' || fault.at_ms !== offer.atMs) {
      // Changed since (going back and acting forked the history).
      this.showOffer(null, '');
      this.hooks.report('That crash is no longer in the runs (time was changed since); press Crash each leader again.');
      return;
    }
    fault.crash = 'leader-or-next';
    const ids = runs.runs.map((r) => r.id);
    const baseAlgorithm = this.baseAlgorithm;
    const lanes = this.lanes.map((l) => l.name);
    this.close();
    try {
      this.enter(ids, offer.atMs, false, JSON.stringify({ ...scenario, algorithm: baseAlgorithm }));
    } catch (e) {
      this.hooks.report(messageOf(e));
      return;
    }
    this.baseAlgorithm = baseAlgorithm;
    const rebuilt = /** @type {CompareRuns} */ (this.runs);
    /** @type {string[]} */
    const never = [];
    /** @type {string[]} */
    const done = [];
    rebuilt.runs.forEach((run, i) => {
      if (!offer.names.includes(lanes[i])) return;
      const pg = toolsPlayground(run);
      const removed = () => pg.compare_figures().leader_removed_ms;
      // The core says when the leader comes: step from landmark to
      // landmark (a role change, a change of leaders) until the crash
      // waiting for it has removed it.
      // (A search that found none within its event budget stops short
      // of the horizon: search on while it moves.)
      while (removed() === null) {
        const from = pg.now_ms();
        if (pg.next_landmark() === undefined && (pg.now_ms() >= pg.horizon_ms() || pg.now_ms() === from)) break;
      }
      const at = removed();
      if (at === null) never.push(lanes[i]);
      else done.push(`${lanes[i]} at ${msText(at)} ms`);
    });
    rebuilt.sync();
    this.hooks.clear();
    const parts = [];
    if (done.length > 0) parts.push(`Crashed each first leader: ${listOf(done)}.`);
    if (never.length > 0) parts.push(`${listOf(never)} elected no leader before the end of the scenario: not crashed.`);
    this.showOffer(null, parts.join(' '));
    this.changed();
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
    // every READOUT_MS, together (as in the single view, stage/page.js):
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
