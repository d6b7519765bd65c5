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
 * While compare mode is on, the single view is hidden, so the page's
 * `[data-testid=messages-total]` elements are the cells of the table's
 * rows (`<tr data-algorithm="bully">`), which come first in the page.
 * @module compare
 */

import { formatSpeed } from '../player/controls.js';
import { MAX_SPEED, MIN_SPEED, Model } from '../player/model.js';
import { player } from '../player/player.js';
import { Slicer } from '../player/slicer.js';
import { ClusterView } from '../cluster/view.js';
import { el, messageOf, setText } from '../shared/dom.js';

/**
 * Milliseconds for a cell: up to three decimals, as the CLI's JSON has them.
 * @param {number} ms
 * @returns {string}
 */
function msText(ms) {
  return String(Math.round(ms * 1000) / 1000);
}

/**
 * One row of the table, as the core reports it (`Playground.compare_figures`).
 * @typedef {object} Figures
 * @property {string} algorithm
 * @property {number} now_ms
 * @property {number} messages_sent
 * @property {number} election_messages
 * @property {number} background_messages
 * @property {number | null} background_per_s
 * @property {number | null} first_leader_ms
 * @property {number} leaderless_ms
 * @property {number} split_brain_ms
 * @property {number} violations
 * @property {number[]} leaders
 * @property {number | null} theory
 * @property {string | null} theory_formula
 */

/**
 * The columns of the table after the algorithm's name: header, test id of
 * the cell, and how the cell reads a row.
 * @type {{head: string, title: string, testid: string, text: (f: Figures) => string}[]}
 */
const COLUMNS = [
  {
    head: 'Leader now',
    title: 'Every node that leads right now; two or more is split brain',
    testid: 'compare-leader',
    text: (f) => (f.leaders.length === 0 ? 'none' : f.leaders.map((id) => `n${id}`).join(', ')),
  },
  {
    head: 'Messages sent',
    title: 'Every message sent so far, dropped ones included (election run: messages.sent)',
    testid: 'messages-total',
    text: (f) => String(f.messages_sent),
  },
  {
    head: 'Election messages',
    title: 'Messages that exist to choose a leader',
    testid: 'election-messages',
    text: (f) => String(f.election_messages),
  },
  {
    head: 'Background / s',
    title: 'Heartbeats, renewals and pings per simulated second so far',
    testid: 'background-per-s',
    text: (f) => (f.background_per_s === null ? '-' : f.background_per_s.toFixed(1)),
  },
  {
    head: 'First leader (ms)',
    title: 'When the first node became leader',
    testid: 'first-leader-ms',
    text: (f) => (f.first_leader_ms === null ? 'not yet' : msText(f.first_leader_ms)),
  },
  {
    head: 'Leaderless (ms)',
    title: 'Time so far with no live leader',
    testid: 'leaderless-ms',
    text: (f) => msText(f.leaderless_ms),
  },
  {
    head: 'Split brain (ms)',
    title: 'Time so far with more than one live leader',
    testid: 'split-brain-ms',
    text: (f) => msText(f.split_brain_ms),
  },
  {
    head: 'Violations',
    title: 'Failed property checks so far',
    testid: 'violation-count',
    text: (f) => String(f.violations),
  },
  {
    head: 'Theory',
    title: 'The published election cost of this scenario, where one exists (every node starting, no faults)',
    testid: 'theory',
    text: (f) => (f.theory === null ? '-' : String(Math.round(f.theory * 10) / 10)),
  },
];

/**
 * The `compare` parameter of an address (null when there is none).
 * @param {string} search `location.search`
 * @returns {string | null}
 */
export function compareParam(search) {
  return new URLSearchParams(search).get('compare');
}

/**
 * One algorithm's view and row.
 * @typedef {object} Lane
 * @property {string} id algorithm id
 * @property {string} name human name
 * @property {Model} model its run (a Model for decoding snapshots; its own
 *   clock is not used)
 * @property {Slicer} slicer sizes its simulation calls while playing
 * @property {ClusterView} view
 * @property {HTMLElement} caption the view's caption (name and leader)
 * @property {HTMLElement[]} cells the row's cells, in COLUMNS order
 * @property {number} participants nodes taking part (ids below this)
 */

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
    /** @private @type {Lane[]} */
    this.lanes = [];
    /** Shared simulated time, ms. */
    this.nowMs = 0;
    this.playing = false;
    /** Simulated ms per real ms. */
    this.speed = 0.02;
    /** @private */
    this.stopReason = '';
    /** The algorithm of the scenario compared (where leaving returns to). @private */
    this.baseAlgorithm = '';
    /** Nodes picked for side A of a partition. @private @type {Set<number>} */
    this.picked = new Set();
    /** @private */
    this.dirty = false;
    /** Unregisters the runs from the page's player (while open). @private
     * @type {(() => void) | null} */
    this.unplay = null;

    this.section = el('compare');
    this.single = /** @type {HTMLElement} */ (document.querySelector('main.layout'));
    this.title = el('compare-title');
    this.play = /** @type {HTMLButtonElement} */ (el('compare-play'));
    this.speedInput = /** @type {HTMLInputElement} */ (el('compare-speed'));
    this.speedOut = el('compare-speed-out');
    this.timeline = /** @type {HTMLInputElement} */ (el('compare-timeline'));
    this.time = el('compare-time');
    this.stop = el('compare-stop');
    this.viewsBox = el('compare-views');
    this.rows = el('compare-rows');
    this.notes = el('compare-theory');
    this.partition = /** @type {HTMLButtonElement} */ (el('compare-partition'));
    this.shareStatus = el('compare-share-status');
    this.picker = el('compare-picker');
    this.pickStatus = el('compare-pick-status');

    this.speedInput.min = String(Math.log10(MIN_SPEED));
    this.speedInput.max = String(Math.log10(MAX_SPEED));
    this.speedInput.value = String(Math.log10(this.speed));

    this.play.addEventListener('click', () => this.setPlaying(!this.playing));
    el('compare-step').addEventListener('click', () => this.step());
    el('compare-restart').addEventListener('click', () => this.seek(0));
    el('compare-to-end').addEventListener('click', () => this.toEnd());
    el('compare-leave').addEventListener('click', () => this.leave());
    el('compare-share').addEventListener('click', () => this.share());
    el('compare-crash-leader').addEventListener('click', () => this.injectAll({ crash: 'leader' }));
    el('compare-heal').addEventListener('click', () => this.injectAll({ heal: true }));
    this.partition.addEventListener('click', () => this.partitionPicked());
    this.speedInput.addEventListener('input', () => {
      this.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, 10 ** Number(this.speedInput.value)));
      this.changed();
    });
    this.timeline.addEventListener('input', () => this.seek(Number(this.timeline.value)));
    el('compare-open').addEventListener('click', () => this.openPicked());
    // Capture: the single view's shortcuts must not act on its hidden run.
    window.addEventListener('keydown', (e) => this.key(e), true);
    this.buildPicker();
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
      this.enter(ids, request.at, request.at === null && problems.length === 0);
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
    const base = single.playground;
    /** @type {import('../pkg/election_web.js').Playground[]} */
    const runs = [];
    try {
      for (const id of ids) runs.push(base.for_algorithm(id));
    } catch (e) {
      for (const pg of runs) pg.free();
      throw e;
    }
    single.setPlaying(false);
    this.baseAlgorithm = base.algorithm();
    this.lanes = runs.map((pg, i) => this.buildLane(ids[i], pg));
    this.buildNotes();
    this.active = true;
    this.nowMs = 0;
    this.picked = new Set();
    this.stopReason = '';
    this.single.hidden = true;
    this.section.hidden = false;
    document.body.dataset.mode = 'compare';
    setText(this.title, `Compare: ${this.lanes.map((l) => l.name).join(' · ')}`);
    this.shareStatus.textContent = '';
    if (at === 'end') this.toEnd();
    else if (typeof at === 'number') this.seek(at);
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.playing = play && !reduceMotion;
    this.render();
    // The page's player (player/player.js) plays the runs, all of them
    // within one frame's simulation budget.
    this.unplay = player.add({
      playing: () => this.active && this.playing,
      advance: (realMs, budgetMs) => this.tick(realMs, budgetMs),
      flush: () => {
        if (!this.dirty) return false;
        this.render();
        return true;
      },
      failed: (e) => {
        this.playing = false;
        this.hooks.report(`Something went wrong: ${messageOf(e)}`);
      },
    });
  }

  /**
   * One view and one table row for a run.
   * @private
   * @param {string} id
   * @param {import('../pkg/election_web.js').Playground} pg
   * @returns {Lane}
   */
  buildLane(id, pg) {
    const name = this.algorithms.find((a) => a.id === id)?.name ?? id;
    const figure = document.createElement('figure');
    figure.className = 'compare-view';
    figure.dataset.algorithm = id;
    const caption = document.createElement('figcaption');
    const wrap = document.createElement('div');
    wrap.className = 'canvas-wrap';
    const canvas = document.createElement('canvas');
    canvas.className = 'compare-canvas';
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `${name}: the nodes and the messages between them; each node also has a button`);
    const overlay = document.createElement('div');
    overlay.className = 'node-layer';
    wrap.append(canvas, overlay);
    figure.append(caption, wrap);
    this.viewsBox.append(figure);

    const model = new Model(this.wasm, pg);
    const participants = pg.node_count();
    const view = new ClusterView(
      canvas,
      overlay,
      (node) => this.toggleNode(lane, node),
      () => {},
      (node) => this.pick(node),
    );

    const tr = document.createElement('tr');
    tr.dataset.algorithm = id;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    tr.append(th);
    const cells = COLUMNS.map((c) => {
      const td = document.createElement('td');
      td.dataset.testid = c.testid;
      td.className = 'mono';
      tr.append(td);
      return td;
    });
    this.rows.append(tr);
    /** @type {Lane} */
    const lane = { id, name, model, slicer: new Slicer(), view, caption, cells, participants };
    return lane;
  }

  /**
   * The formulas behind the theory column, under the table.
   * @private
   */
  buildNotes() {
    const lines = this.lanes
      .map((lane) => /** @type {Figures} */ (lane.model.playground.compare_figures()))
      .filter((f) => f.theory_formula !== null)
      .map((f) => {
        const li = document.createElement('li');
        li.textContent = `Theory for ${f.algorithm}: ${f.theory_formula}`;
        return li;
      });
    this.notes.replaceChildren(...lines);
    this.notes.hidden = lines.length === 0;
  }

  /** Leaves compare mode: loads the single view on the same scenario at the same time. */
  leave() {
    this.sync();
    const url = new URL(window.location.href);
    url.searchParams.delete('compare');
    url.searchParams.delete('at');
    if (this.nowMs > 0) url.searchParams.set('at', String(this.nowMs));
    const first = this.lanes[0];
    if (first && first.model.playground.fault_count() > 0) {
      // The faults made here go with the scenario, in a share link.
      const back = first.model.playground.for_algorithm(this.baseAlgorithm);
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
    for (const lane of this.lanes) lane.model.playground.free();
    this.lanes = [];
    this.viewsBox.replaceChildren();
    this.rows.replaceChildren();
    this.active = false;
    this.playing = false;
    this.section.hidden = true;
    this.single.hidden = false;
    delete document.body.dataset.mode;
  }

  /**
   * Opens compare mode on the current scenario with the ticked algorithms,
   * by loading its address.
   * @private
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
   * The algorithm checkboxes of the picker; the count is checked by the
   * core when Compare is pressed.
   * @private
   */
  buildPicker() {
    const boxes = this.algorithms.map((a) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = a.id;
      box.name = 'compare';
      label.append(box, ` ${a.name}`);
      return label;
    });
    this.picker.replaceChildren(...boxes);
    this.picker.addEventListener('change', () => this.describePick());
    this.describePick();
  }

  /** @private */
  describePick() {
    const n = this.picker.querySelectorAll('input:checked').length;
    setText(
      this.pickStatus,
      n >= 2 && n <= 4 ? `${n} ticked.` : `${n} ticked; tick 2 to 4 algorithms.`,
    );
  }

  /**
   * Ticks the single view's algorithm in the picker (a natural first pick).
   * @param {string} algorithm
   */
  suggest(algorithm) {
    for (const box of this.picker.querySelectorAll('input')) {
      const input = /** @type {HTMLInputElement} */ (box);
      if (this.picker.querySelectorAll('input:checked').length === 0 && input.value === algorithm) {
        input.checked = true;
      }
    }
    this.describePick();
  }

  /**
   * @private
   * @param {boolean} on
   */
  setPlaying(on) {
    if (!on) this.sync();
    this.playing = on;
    if (on) this.stopReason = '';
    this.changed();
  }

  /** @private */
  changed() {
    this.dirty = true;
    // Draw at once: the readouts are current whenever anyone looks.
    this.render();
  }

  /** @private @returns {number} */
  horizonMs() {
    return Math.max(...this.lanes.map((l) => l.model.playground.horizon_ms()));
  }

  /**
   * Moves every run to `ms` (backward by re-running from the start).
   * @param {number} ms
   */
  seek(ms) {
    const t = Math.max(0, ms);
    for (const lane of this.lanes) lane.model.playground.seek_ms(t);
    this.nowMs = t;
    this.changed();
  }

  /**
   * The shared clock to the latest of the runs' own ends (each run's
   * `election run` end); paused.
   */
  toEnd() {
    this.playing = false;
    const end = Math.max(...this.lanes.map((l) => l.model.playground.end_ms()));
    this.seek(end);
    this.stopReason = `at ${end} ms, where the last of these runs ends`;
    this.changed();
  }

  /** Every run to the next moment at which something happens in any of them. */
  step() {
    this.sync();
    this.playing = false;
    const next = this.lanes
      .map((l) => l.model.playground.next_event_ms())
      .filter((t) => t !== undefined);
    if (next.length === 0) {
      this.stopReason = 'nothing left to happen';
    } else {
      const t = Math.min(.../** @type {number[]} */ (next));
      for (const lane of this.lanes) lane.model.playground.run_until_ms(t);
      this.nowMs = t;
      this.stopReason = '';
    }
    this.changed();
  }

  /**
   * Plays `realMs` of real time at the shared speed (the player's task),
   * every run within its share of `budgetMs`. A run that falls behind
   * (more events than the budget allows) goes on from where it got to in
   * the next frames, and the shared time is the earliest of the runs'
   * until the others catch up (`sync` brings them together at once).
   * @private
   * @param {number} realMs
   * @param {number} budgetMs
   */
  tick(realMs, budgetMs) {
    if (!this.playing) return;
    const horizon = this.horizonMs();
    const target = Math.min(horizon, this.nowMs + realMs * this.speed);
    const share = budgetMs / Math.max(1, this.lanes.length);
    let reached = true;
    for (const lane of this.lanes) {
      const pg = lane.model.playground;
      if (pg.now_ms() >= target) continue;
      if (!lane.slicer.run((events) => pg.run_until_ms_within(target, events), share)) reached = false;
    }
    this.nowMs = reached ? target : Math.min(...this.lanes.map((l) => l.model.playground.now_ms()));
    if (reached && target >= horizon) {
      this.playing = false;
      this.stopReason = `stopped at ${horizon} ms, the end of this scenario`;
    } else if (this.lanes.every((l) => l.model.playground.next_event_ms() === undefined)) {
      this.playing = false;
      this.stopReason = 'nothing left to happen';
    }
    this.dirty = true;
  }

  /**
   * Brings every run to the latest time any of them reached (after a
   * frame in which some fell behind), so a fault, a step or a pause finds
   * them all at the same moment.
   * @private
   */
  sync() {
    const times = this.lanes.map((l) => l.model.playground.now_ms());
    const latest = Math.max(this.nowMs, ...times);
    if (times.every((t) => t === latest) && this.nowMs === latest) return;
    for (const lane of this.lanes) lane.model.playground.run_until_ms(latest);
    this.nowMs = latest;
    this.dirty = true;
  }

  /**
   * Adds `fault` to every run at the current time. The core checks it;
   * the runs share their nodes' ids, so a fault one run refuses is refused
   * by the first run already, before anything changed.
   * @param {object} fault
   * @returns {boolean}
   */
  injectAll(fault) {
    this.sync();
    const text = JSON.stringify(fault);
    try {
      for (const lane of this.lanes) lane.model.playground.inject(text);
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
   * that view, else recover it in every run.
   * @private
   * @param {Lane} lane
   * @param {number} id
   */
  toggleNode(lane, id) {
    if (id >= lane.participants) {
      this.hooks.report(
        `n${id} belongs to ${lane.name} only (a storage or coordination service); in compare mode a fault goes to every view, so pick one of n0 to n${lane.participants - 1}.`,
      );
      return;
    }
    const node = lane.model.nodes().find((n) => n.id === id);
    if (!node) return;
    this.injectAll(node.alive ? { crash: id } : { recover: id });
  }

  /**
   * Shift-click: picks or unpicks node `id` for side A of a partition.
   * @private
   * @param {number} id
   */
  pick(id) {
    if (this.lanes.some((l) => id >= l.participants)) return;
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
   * Puts this comparison, with every fault made here, into the address
   * (opening paused at this moment) and copies it.
   * @private
   */
  async share() {
    this.setPlaying(false);
    for (const lane of this.lanes) lane.model.playground.run_until_ms(this.nowMs);
    const base = this.lanes[0].model.playground.for_algorithm(this.baseAlgorithm);
    const url = new URL(window.location.pathname, window.location.href);
    url.searchParams.set('compare', this.lanes.map((l) => l.id).join(','));
    if (this.nowMs > 0) url.searchParams.set('at', String(this.nowMs));
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
   * single view). Not while typing, nor on a focused button for space.
   * @private
   * @param {KeyboardEvent} e
   */
  key(e) {
    if (!this.active || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (
      t instanceof HTMLInputElement ||
      t instanceof HTMLSelectElement ||
      t instanceof HTMLTextAreaElement ||
      (t instanceof HTMLButtonElement && (e.key === ' ' || e.key === 'Enter'))
    ) {
      return;
    }
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
    if (!this.active) return;
    this.dirty = false;
    for (const lane of this.lanes) {
      const snapshot = lane.model.snapshot();
      lane.view.render(snapshot);
      const f = /** @type {Figures} */ (lane.model.playground.compare_figures());
      COLUMNS.forEach((c, i) => setText(lane.cells[i], c.text(f)));
      const leaders = f.leaders.length === 0 ? 'no leader' : `leader ${f.leaders.map((id) => `n${id}`).join(', ')}`;
      setText(lane.caption, `${lane.name}: ${leaders}`);
    }
    setText(this.time, msText(this.nowMs));
    this.play.textContent = this.playing ? 'Pause' : 'Play';
    this.play.setAttribute('aria-pressed', String(this.playing));
    setText(this.speedOut, formatSpeed(this.speed));
    const end = Math.max(...this.lanes.map((l) => l.model.playground.end_ms()));
    this.timeline.max = String(Math.max(end * 1.25, this.nowMs, 1));
    if (document.activeElement !== this.timeline) this.timeline.value = String(this.nowMs);
    setText(this.stop, this.stopReason ? `Paused: ${this.stopReason}.` : '');
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
