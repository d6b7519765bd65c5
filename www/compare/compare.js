// @ts-check
/**
 * Compare mode: the scenario of the page under 2 to 4 algorithms side by
 * side, one small cluster view each (the same ClusterView and draw.js as
 * the single view), all at one shared simulated time, with a table of
 * what each run has cost so far.
 *
 * The address is the source of truth: `?compare=bully,raft,chang-roberts`
 * plus the scenario in the rest of the address (query parameters, a
 * `#s=` share link or `preset=`) opens compare mode; entering it from the
 * picker and leaving it load such an address, so what is on screen can
 * always be shared and reloaded.
 *
 * One clock for all views: play, step, the scrubber and `at=<ms>` move
 * every run to the same time. A step goes to the next moment at which
 * anything happens in any of the runs. `at=end` (and To end) moves the
 * shared clock to the latest of the algorithms' own ends (`election run`
 * without `--until-ms`); every row then shows what `election run
 * --algorithm <id> --until-ms <that time> --json` reports for the same
 * scenario. A fault made here (click a node, crash each leader,
 * partition, heal) goes into every run at the current time.
 *
 * The runs and their clock are runs.js, the table's columns and notes
 * table.js (both shared with the compare embed); this file is the page's
 * part: the views, the controls, the keys and the address. It loads on
 * first use (entry.js, which also keeps the picker) and runs on the wasm
 * tools module (shared/tools-wasm.js): the single view's run crosses as
 * its scenario JSON.
 *
 * While compare mode is on, the single view is hidden, so the page's
 * `[data-testid=messages-total]` elements are the cells of the table's
 * rows (`<tr data-algorithm="bully">`), which come first in the page.
 * @module compare
 */

import { formatSpeed } from '../player/controls.js';
import { DEFAULT_SPEED, MAX_SPEED, MIN_SPEED } from '../player/model.js';
import { player } from '../player/player.js';
import { keyBelongsTo } from '../player/shortcuts.js';
import { quietWords, storedSkipQuiet, storeSkipQuiet } from '../player/quiet.js';
import { el, messageOf, setAttr, setText } from '../shared/dom.js';
import { READOUT_MS, Readouts } from '../shared/readouts.js';
import { CompareRuns, runsFor, toolsPlayground } from '../stage/runs.js';
import { makeLane, nodeFault, PAGE_LANE, renderLanes } from '../stage/lanes.js';
import { addScrollCue } from '../shared/scroll-cue.js';
import { targetOf, wireEmbedCode } from '../shared/embed-code.js';
import { columns, fillHead, fixedCrashNotes, makeRow, msText, theoryNotes } from '../stage/compare-table.js';
import { compareParam } from '../shared/url.js';

/** Every column of the table, in display order. */
const COLUMNS = columns();

/** @typedef {import('../stage/lanes.js').Lane} Lane */

/**
 * What compare mode needs from the page.
 * @typedef {object} CompareHooks
 * @property {() => import('../player/model.js').Model} single the single view's
 *   model (its scenario is the one compared; it is paused while compare
 *   mode is on)
 * @property {(message: string) => void} report show a problem
 * @property {() => void} clear clear the problems shown
 */

export class CompareMode {
  /**
   * @param {typeof import('../pkg/election_web.js')} wasm
   * @param {{id: string, name: string}[]} algorithms every algorithm, in display order
   * @param {CompareHooks} hooks
   */
  constructor(wasm, algorithms, hooks) {
    /** @private */
    this.wasm = wasm;
    /** @private */
    this.algorithms = algorithms;
    /** @private */
    this.hooks = hooks;
    /** Whether compare mode is on. */
    this.active = false;
    /** The runs and their shared clock (while open). @type {CompareRuns | null} */
    this.runs = null;
    /** @private @type {Lane[]} */
    this.lanes = [];
    /** Simulated ms per real ms (kept across openings). @private */
    this.speed = DEFAULT_SPEED;
    /** The algorithm of the scenario compared (where leaving returns to). @private */
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
    this.play = /** @type {HTMLButtonElement} */ (el('compare-play'));
    /** When the table and the time readouts are written while playing
     * (see `render`). @private */
    this.readouts = new Readouts(2, READOUT_MS);
    this.speedInput = /** @type {HTMLInputElement} */ (el('compare-speed'));
    this.speedOut = el('compare-speed-out');
    this.timeline = /** @type {HTMLInputElement} */ (el('compare-timeline'));
    this.time = el('compare-time');
    this.stop = el('compare-stop');
    this.skipQuiet = /** @type {HTMLInputElement} */ (el('compare-skip-quiet'));
    this.viewsBox = el('compare-views');
    this.rows = el('compare-rows');
    this.notes = el('compare-theory');
    this.fixed = el('compare-fixed');
    this.partition = /** @type {HTMLButtonElement} */ (el('compare-partition'));
    this.shareStatus = el('compare-share-status');
    this.picker = el('compare-picker');
    fillHead(/** @type {HTMLTableRowElement} */ (el('compare-head-row')), COLUMNS);
    addScrollCue(el('compare-scroll'));

    this.speedInput.min = String(Math.log10(MIN_SPEED));
    this.speedInput.max = String(Math.log10(MAX_SPEED));
    this.speedInput.value = String(Math.log10(this.speed));

    this.play.addEventListener('click', () => this.setPlaying(!this.runs?.playing));
    el('compare-step').addEventListener('click', () => this.step());
    el('compare-restart').addEventListener('click', () => this.seek(0));
    el('compare-to-end').addEventListener('click', () => this.toEnd());
    el('compare-leave').addEventListener('click', () => this.leave());
    this.skipQuiet.checked = storedSkipQuiet();
    this.skipQuiet.addEventListener('change', () => {
      storeSkipQuiet(this.skipQuiet.checked);
      this.runs?.setSkipQuiet(this.skipQuiet.checked);
      this.render();
    });
    el('compare-share').addEventListener('click', () => this.share());
    wireEmbedCode(
      {
        button: el('compare-copy-embed'),
        field: /** @type {HTMLTextAreaElement} */ (el('compare-embed-code')),
        status: this.shareStatus,
      },
      () => this.embedTarget(),
    );
    el('compare-crash-leader').addEventListener('click', () => this.injectAll({ crash: 'leader' }));
    el('compare-heal').addEventListener('click', () => this.injectAll({ heal: true }));
    this.partition.addEventListener('click', () => this.partitionPicked());
    this.speedInput.addEventListener('input', () => {
      this.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, 10 ** Number(this.speedInput.value)));
      if (this.runs) this.runs.speed = this.speed;
      this.changed();
    });
    this.timeline.addEventListener('input', () => this.seek(Number(this.timeline.value)));
    // Capture: the single view's shortcuts must not act on its hidden run.
    window.addEventListener('keydown', (e) => this.key(e), true);
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
   * Opens compare mode when the address asks for it (`compare=`), on the
   * single view's scenario; a bad list is reported, naming the parameter,
   * and the single view stays.
   * @param {import('../shared/url.js').PageRequest} request
   * @param {string[]} problems filled with what went wrong
   */
  open(request, problems) {
    if (this.active) this.close();
    const text = compareParam(request.query);
    if (text === null) return;
    try {
      const ids = this.wasm.compare_ids(text);
      // Paused, as the single view opens: the page waits for Play.
      this.enter(ids, request.at, false);
    } catch (e) {
      problems.push(`URL parameter \`compare\`: ${messageOf(e)}. Showing one algorithm instead.`);
      // Paused, as with any other problem in the address.
      this.hooks.single().setPlaying(false);
    }
  }

  /**
   * Builds one run per algorithm from the single view's scenario and shows
   * them. Throws (changing nothing) when an algorithm cannot run it.
   * @private
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
    this.unplay = player.add({
      playing: () => this.active && runs.playing,
      advance: (realMs, budgetMs) => runs.tick(realMs, budgetMs),
      flush: () => {
        if (!runs.dirty) return false;
        this.render();
        return true;
      },
      failed: (e) => {
        runs.playing = false;
        this.hooks.report(`Something went wrong: ${messageOf(e)}`);
      },
    });
  }

  /**
   * One view and one table row for a run.
   * @private
   * @param {import('../stage/runs.js').Run} run
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

  /** Leaves compare mode: loads the single view on the same scenario at the same time. */
  leave() {
    const runs = /** @type {CompareRuns} */ (this.runs);
    runs.sync();
    const url = new URL(window.location.href);
    url.searchParams.delete('compare');
    url.searchParams.delete('at');
    if (runs.nowMs > 0) url.searchParams.set('at', String(runs.nowMs));
    const first = runs.runs[0];
    if (first && first.model.playground.fault_count() > 0) {
      // The faults made here go with the scenario, in a share link.
      const back = toolsPlayground(first).for_algorithm(this.baseAlgorithm);
      url.hash = back.share_fragment();
      back.free();
    }
    navigate(url);
  }

  /**
   * Tears the views down (when the address changes under an open page).
   * @private
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
   * Opens compare mode on the current scenario with the ticked algorithms,
   * by loading its address.
   */
  openPicked() {
    const ids = [...this.picker.querySelectorAll('input[type=checkbox]:checked')].map(
      (box) => /** @type {HTMLInputElement} */ (box).value,
    );
    try {
      this.wasm.compare_ids(ids.join(','));
    } catch (e) {
      this.hooks.report(`Compare: ${messageOf(e)}`);
      return;
    }
    const single = this.hooks.single();
    const pg = single.playground;
    // Finish the instant, so the address opens exactly what is shown.
    pg.run_until_ms(pg.now_ms());
    const url = new URL(window.location.pathname, window.location.href);
    const preset = new URLSearchParams(window.location.search).get('preset');
    url.searchParams.set('compare', ids.join(','));
    if (preset !== null) url.searchParams.set('preset', preset);
    if (pg.now_ms() > 0) url.searchParams.set('at', String(pg.now_ms()));
    url.hash = pg.share_fragment();
    navigate(url);
  }

  /**
   * @private
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

  /**
   * This comparison at this moment, paused, for "Copy embed code".
   * @private
   * @returns {import('../shared/embed-code.js').EmbedTarget}
   */
  embedTarget() {
    const runs = /** @type {CompareRuns} */ (this.runs);
    this.setPlaying(false);
    for (const run of runs.runs) run.model.playground.run_until_ms(runs.nowMs);
    const base = toolsPlayground(runs.runs[0]).for_algorithm(this.baseAlgorithm);
    const target = targetOf(base, this.algorithms, runs.runs.map((r) => r.id));
    base.free();
    return { ...target, atMs: runs.nowMs, toMs: runs.nowMs > runs.endMs() ? runs.nowMs : null };
  }

  /**
   * Puts this comparison, with every fault made here, into the address
   * (opening paused at this moment) and copies it.
   * @private
   */
  async share() {
    const runs = /** @type {CompareRuns} */ (this.runs);
    this.setPlaying(false);
    for (const run of runs.runs) run.model.playground.run_until_ms(runs.nowMs);
    const base = toolsPlayground(runs.runs[0]).for_algorithm(this.baseAlgorithm);
    const url = new URL(window.location.pathname, window.location.href);
    url.searchParams.set('compare', runs.runs.map((r) => r.id).join(','));
    if (runs.nowMs > 0) url.searchParams.set('at', String(runs.nowMs));
    url.hash = base.share_fragment();
    base.free();
    url.search = url.search.replace(/%2C/gi, ',');
    history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url.href);
      this.shareStatus.textContent = 'Link copied. It opens this comparison at this moment.';
    } catch {
      this.shareStatus.textContent = 'The link is in the address bar (copying was not allowed).';
    }
  }

  /**
   * Space: play/pause; s or →: step (for the shared clock, not the hidden
   * single view). Not while typing (player/shortcuts.js keyBelongsTo:
   * a clicked button or node leaves Space to playback).
   * @private
   * @param {KeyboardEvent} e
   */
  key(e) {
    if (!this.active || e.ctrlKey || e.metaKey || e.altKey) return;
    if (keyBelongsTo(e.target, e.key)) return;
    if (e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      this.setPlaying(!this.playing);
    } else if (e.key === 's' || e.key === 'S' || e.key === 'ArrowRight') {
      e.preventDefault();
      e.stopPropagation();
      this.step();
    } else if (['n', 'N', '[', ']', 'ArrowLeft', '+', '=', '-', 'Home', 'End'].includes(e.key)) {
      // The single view's time-travel keys would move its hidden run.
      e.stopPropagation();
    }
  }

  /** Draws every view and brings the table and the controls up to date. */
  render() {
    const runs = this.runs;
    if (!this.active || !runs) return;
    runs.dirty = false;
    // While playing, the table and the time readouts are written at most
    // every READOUT_MS, taking turns (as in the single view, main.js):
    // rewriting them every frame cost a layout of the table in every
    // frame; the drawings change every frame, and a pause writes all.
    const due = this.readouts.due(runs.playing, performance.now());
    renderLanes(this.lanes, COLUMNS, due[0] ? runs.figures() : null);
    this.writeNotes();
    setText(this.play, runs.playing ? 'Pause' : 'Play');
    setAttr(this.play, 'aria-pressed', String(runs.playing));
    setText(this.speedOut, formatSpeed(runs.speed));
    if (!due[1]) return;
    setText(this.time, msText(runs.nowMs));
    setAttr(this.timeline, 'max', String(Math.max(runs.endMs() * 1.25, runs.nowMs, 1)));
    if (document.activeElement !== this.timeline) this.timeline.value = String(runs.nowMs);
    const skipping = runs.skippingMs;
    setText(
      this.stop,
      skipping > 0 ? `Skipping ${quietWords(skipping)} of quiet time…` : runs.stopReason ? `Paused: ${runs.stopReason}.` : '',
    );
  }
}

/**
 * Loads `url`; when only its fragment differs from the current address
 * (which would not reload the page), reloads.
 * @param {URL} url
 */
function navigate(url) {
  // Commas read better than %2C in `compare=bully,raft`.
  url.search = url.search.replace(/%2C/gi, ',');
  const here = new URL(window.location.href);
  const sameDocument = here.pathname === url.pathname && here.search === url.search;
  window.location.assign(url.href);
  if (sameDocument) window.location.reload();
}
