// @ts-check
/**
 * The compare embed (`?embed=1&compare=bully,raft`): compare mode as a
 * compact figure for an iframe. One small cluster view per algorithm side
 * by side, the compact table under them (who leads, what the last
 * failover cost, election messages, violations; compare/table.js), and
 * the embed's bar: the controls `controls=` picks, the shared time and a
 * link that opens the same comparison in the full playground.
 *
 * The runs and their one clock are compare/runs.js, played by the page's
 * one player loop (player/player.js), as in the page's compare mode.
 * `from`, `to`, `loop`, `autoplay`, `speed` and `at` work as in a single
 * embed, on the shared clock (`to=end`: the latest of the runs' ends).
 *
 * The postMessage API (api.js) takes play, pause, step, seek and state,
 * on the shared clock; the state names every run (`runs`). What it cannot
 * do here is said, never done silently otherwise: `load` is refused with
 * a message naming the problem, and the role, violation and time events
 * of a single run are not posted (each run has its own story).
 * @module embed/compare-embed
 */

import { formatSpeed } from '../player/controls.js';
import { MAX_SPEED, MIN_SPEED } from '../player/model.js';
import { player } from '../player/player.js';
import { ClusterView } from '../cluster/view.js';
import { ClusterLegend, legendLists } from '../cluster/legend.js';
import { CompareRuns, toolsPlayground } from '../compare/runs.js';
import { COMPACT, columns, fillHead, fixedCrashNotes, makeRow, msText } from '../compare/table.js';
import { addScrollCue } from '../shared/scroll-cue.js';
import { byTestId, h, messageOf, setAttr, setText, showProblems } from '../shared/dom.js';
import { READOUT_MS, Readouts } from '../shared/readouts.js';
import { quietWords } from '../player/quiet.js';
import { EmbedApi } from './api.js';
import { layoutBar } from './bar.js';
import { RANGE_PLAY_MS } from './params.js';

/** How close to `to` counts as there, ms (time is whole microseconds). */
const AT_END_MS = 1e-4;

/** The compact table's columns. */
const COLUMNS = columns(COMPACT);

/**
 * Builds the compare embed into the page and runs it.
 * @param {typeof import('../pkg/election_web.js')} wasm
 * @param {import('../shared/url.js').PageRequest} request the address
 * @param {import('./params.js').EmbedRequest} options the embed's parameters
 * @param {string} compareText the `compare=` value
 * @param {string[]} problems what was wrong with the address so far
 */
export function startCompareEmbed(wasm, request, options, compareText, problems) {
  /** @type {import('../pkg/election_web.js').Playground} */
  let base;
  try {
    base = wasm.Playground.from_preset_url(request.query, request.fragment) ?? wasm.Playground.from_url(request.query, request.fragment);
  } catch (e) {
    problems.unshift(`${messageOf(e)}. Showing the default scenario instead.`);
    base = wasm.Playground.from_url('', '');
  }
  const baseAlgorithm = base.algorithm();
  const preset = request.fragment.includes('s=') ? null : new URLSearchParams(request.query).get('preset');

  /** @type {string[]} */
  let ids;
  /** @type {import('../pkg/election_web.js').Playground[]} */
  const pgs = [];
  try {
    ids = wasm.compare_ids(compareText);
    for (const id of ids) pgs.push(base.for_algorithm(id));
  } catch (e) {
    for (const pg of pgs) pg.free();
    // Named, and nothing else shown in its place.
    problems.unshift(`URL parameter \`compare\`: ${messageOf(e)}. This embed shows a comparison only; fix the list (2 to 4 algorithms that can run this scenario).`);
    base.free();
    const root = h('div', { id: 'embed-root', class: 'embed-root', 'data-testid': 'embed', 'data-mode': 'compare' });
    root.append(byTestId('error'));
    document.body.append(root);
    showProblems(problems);
    document.body.dataset.ready = 'true';
    return;
  }
  base.free();
  const runs = new CompareRuns(wasm, ids, pgs);
  const names = new Map(wasm.algorithms().map((/** @type {{id: string, name: string}} */ a) => [a.id, a.name]));

  // The range, checked against the runs as a single embed checks its run.
  let fromMs = options.fromMs;
  /** @type {number | 'end'} */
  let to = options.to;
  if (to !== 'end' && to > runs.horizonMs()) {
    problems.push(`URL parameter \`to\`: ${to} ms is after the last time these runs can reach (${runs.horizonMs()} ms); using the runs' end`);
    to = 'end';
  }
  /** @returns {number} the end of the range, ms */
  const toMs = () => Math.max(fromMs, to === 'end' ? runs.endMs() : to);
  if (fromMs > toMs()) {
    problems.push(`URL parameter \`from\`: ${fromMs} ms is after the end of the range (${toMs()} ms); using 0`);
    fromMs = 0;
  }
  runs.speed = options.speed ?? Math.max(toMs() - fromMs, 1) / RANGE_PLAY_MS;

  // The frame.
  const shows = options.controls;
  const root = h('div', {
    id: 'embed-root',
    class: 'embed-root embed-compare',
    'data-testid': 'embed',
    'data-mode': 'compare',
  });
  const viewsBox = h('div', { class: 'embed-compare-views', 'data-testid': 'embed-compare-views' });
  // The page's own compare section (hidden in an embed) goes: the embed's
  // table and notes carry the same test ids.
  document.getElementById('compare')?.remove();
  // In the page before the views are made: a view sizes its canvas
  // (and hands it to its drawing worker) as it is made.
  root.append(viewsBox);
  document.body.append(root);
  const lanes = runs.runs.map((run) => {
    const name = names.get(run.id) ?? run.id;
    const figure = h('figure', { class: 'embed-compare-view', 'data-algorithm': run.id });
    const caption = h('figcaption', {});
    const stage = h('div', { class: 'embed-stage' });
    const canvas = h('canvas', {
      class: 'embed-canvas',
      role: 'img',
      'aria-label': `${name}: the nodes and the messages between them`,
    });
    const overlay = h('div', { class: 'node-layer' });
    stage.append(canvas, overlay);
    figure.append(caption, stage);
    // `controls=…,legend`: each view's message kinds and timers.
    const lists = shows.has('legend') ? legendLists() : null;
    if (lists) figure.append(lists.box);
    viewsBox.append(figure);
    const view = new ClusterView(
      /** @type {HTMLCanvasElement} */ (canvas),
      overlay,
      (node) => toggleNode(run, name, node),
      () => {},
      () => {},
    );
    // Without the faults control the nodes are a picture, not buttons.
    overlay.inert = !shows.has('faults');
    return { run, name, view, caption, legend: lists ? new ClusterLegend(lists.kinds, lists.timers) : null };
  });

  const fixed = h('p', { class: 'compare-fixed embed-compare-fixed', 'data-testid': 'compare-fixed-crash', role: 'status' });
  fixed.hidden = true;
  const tableWrap = h('div', { class: 'embed-compare-table compare-scroll', 'data-testid': 'embed-compare-table' });
  const table = h('table', { class: 'compare-table', 'data-testid': 'compare-table' });
  const thead = h('thead', {});
  const headRow = document.createElement('tr');
  fillHead(headRow, COLUMNS);
  thead.append(headRow);
  const tbody = h('tbody', {});
  const rows = lanes.map((lane) => {
    const { tr, cells } = makeRow(lane.run.id, lane.name, COLUMNS);
    tbody.append(tr);
    return cells;
  });
  table.append(thead, tbody);
  tableWrap.append(table);

  const bar = h('div', { class: 'embed-bar', role: 'group', 'aria-label': 'Playback of every view' });
  const play = h('button', { type: 'button', 'data-testid': 'embed-play', 'aria-pressed': 'false' }, 'Play');
  const step = h('button', { type: 'button', 'data-testid': 'embed-step', title: 'To the next event in any view' }, 'Step');
  const reset = h('button', { type: 'button', 'data-testid': 'embed-reset', title: 'Back to the start of this part' }, 'Reset');
  const scrubber = /** @type {HTMLInputElement} */ (
    h('input', { type: 'range', step: 'any', 'data-testid': 'embed-scrubber', 'aria-label': 'Simulated time, ms' })
  );
  const speedBox = h('label', { class: 'embed-speed' }, 'Speed ');
  const speed = /** @type {HTMLInputElement} */ (
    h('input', { type: 'range', step: '0.05', 'data-testid': 'embed-speed', 'aria-label': 'Speed' })
  );
  speed.min = String(Math.log10(MIN_SPEED));
  speed.max = String(Math.log10(MAX_SPEED));
  const speedOut = h('output', { class: 'mono' });
  speedBox.append(speed, speedOut);
  const faultBox = h('span', { class: 'embed-faults', role: 'group', 'aria-label': 'Faults for every view', 'data-testid': 'embed-faults' });
  const crashLeader = h('button', { type: 'button', title: "Crash each run's own leader" }, 'Crash each leader');
  const heal = h('button', { type: 'button', title: 'Join every partition and restore cut links' }, 'Heal');
  faultBox.append(crashLeader, heal);
  const time = h('span', { class: 'embed-time mono', 'data-testid': 'embed-time' });
  const status = h('span', { class: 'embed-status', 'data-testid': 'embed-status', role: 'status' });
  const open = /** @type {HTMLAnchorElement} */ (
    h(
      'a',
      {
        class: 'embed-open',
        'data-testid': 'embed-open',
        target: '_blank',
        rel: 'noopener',
        title: 'Open this comparison, at this moment, in the full playground (new tab)',
      },
      'Open in playground ↗',
    )
  );
  layoutBar(bar, shows, { play, step, reset, scrubber, speed: speedBox, faults: faultBox }, [time, status, open]);
  root.append(fixed, tableWrap, bar, byTestId('error'));
  // A narrow frame: the algorithm column stays, a line says there is more.
  addScrollCue(tableWrap);
  root.dataset.controls = [...shows].join(',');

  /**
   * Goes to `ms`, clamped to the range.
   * @param {number} ms
   * @returns {number} the time gone to
   */
  const goTo = (ms) => {
    const target = Math.min(Math.max(ms, fromMs), toMs());
    runs.seek(target);
    return target;
  };
  const startPlaying = () => {
    if (runs.nowMs >= toMs() - AT_END_MS) goTo(fromMs);
    runs.setPlaying(true);
  };
  /** @returns {boolean} false when nothing is left before `to` */
  const stepOnce = () => {
    const end = toMs();
    const next = runs.runs.map((r) => r.model.playground.next_event_ms()).filter((t) => t !== undefined);
    if (next.length === 0 || Math.min(.../** @type {number[]} */ (next)) > end) {
      runs.setPlaying(false);
      runs.stopReason = `the end of this part (${end} ms)`;
      return false;
    }
    return runs.step();
  };
  /** @param {object} fault */
  const inject = (fault) => {
    try {
      runs.injectAll(fault);
      showProblems([]);
    } catch (e) {
      showProblems([messageOf(e)]);
    }
    render();
  };
  /**
   * A click on a node: crash it in every run (or recover it).
   * @param {import('../compare/runs.js').Run} run
   * @param {string} name
   * @param {number} node
   */
  function toggleNode(run, name, node) {
    if (!shows.has('faults')) return;
    if (node >= run.participants) {
      showProblems([`n${node} belongs to ${name} only; a fault here goes to every view, so pick one of n0 to n${run.participants - 1}.`]);
      return;
    }
    const state = run.model.nodes().find((n) => n.id === node);
    if (state) inject(state.alive ? { crash: node } : { recover: node });
  }

  /** The full playground's address for this comparison at this moment. */
  const fullHref = () => {
    const params = new URLSearchParams();
    if (preset) params.set('preset', preset);
    params.set('compare', ids.join(','));
    if (runs.nowMs > 0) params.set('at', String(runs.nowMs));
    const back = toolsPlayground(runs.runs[0]).for_algorithm(baseAlgorithm);
    const fragment = back.share_fragment();
    back.free();
    const query = params.toString().replace(/%2C/gi, ',');
    return new URL(`${window.location.pathname}?${query}#${fragment}`, window.location.href).href;
  };
  for (const type of ['pointerdown', 'focus', 'click', 'mouseenter']) {
    open.addEventListener(type, () => {
      open.href = fullHref();
    });
  }

  /** The fault count the note above the table was written for. */
  let notesFor = -1;
  // While playing, the table and the time readouts are written at most
  // every READOUT_MS, taking turns (as on the page); the drawings change
  // every frame, and a pause writes all.
  const readouts = new Readouts(2, READOUT_MS);
  function render() {
    runs.dirty = false;
    const due = readouts.due(runs.playing, performance.now());
    const figures = due[0] ? runs.figures() : [];
    lanes.forEach((lane, i) => {
      const snapshot = lane.run.model.snapshot();
      lane.view.render(snapshot);
      lane.legend?.update(snapshot);
      if (!due[0]) return;
      const f = figures[i];
      COLUMNS.forEach((c, j) => setText(rows[i][j], c.text(f)));
      const leaders = f.leaders.length === 0 ? 'no leader' : `leader ${f.leaders.map((id) => `n${id}`).join(', ')}`;
      setText(lane.caption, `${lane.name}: ${leaders}`);
    });
    const faults = runs.runs[0].model.playground.fault_count();
    if (faults !== notesFor) {
      notesFor = faults;
      const lines = fixedCrashNotes(runs.scenario());
      setText(fixed, lines.join(' '));
      fixed.hidden = lines.length === 0;
    }
    const end = toMs();
    const now = runs.nowMs;
    setText(play, runs.playing ? 'Pause' : 'Play');
    setAttr(play, 'aria-pressed', String(runs.playing));
    if (document.activeElement !== speed) speed.value = String(Math.log10(runs.speed));
    setText(speedOut, formatSpeed(runs.speed));
    // The time in `data-ms` every frame (an attribute no style reads: a
    // host's script and the tests read it), in words at the readouts' pace.
    time.dataset.ms = String(now);
    root.dataset.playing = String(runs.playing);
    if (!due[1]) return;
    setAttr(scrubber, 'min', String(fromMs));
    setAttr(scrubber, 'max', String(end));
    if (document.activeElement !== scrubber) scrubber.value = String(now);
    setAttr(scrubber, 'aria-valuetext', `${now} ms, from ${fromMs} to ${end} ms`);
    setText(time, `${msText(now)} ms`);
    const skipping = runs.skippingMs;
    setText(
      status,
      skipping > 0 ? `Skipping ${quietWords(skipping)} of quiet time…` : runs.stopReason && !runs.playing ? `Paused: ${runs.stopReason}` : '',
    );
  }

  /** @returns {import('./api.js').EmbedState} */
  const state = () => ({
    time_ms: runs.nowMs,
    playing: runs.playing,
    leader: null,
    leaders: [],
    violations: runs.figures().reduce((sum, f) => sum + f.violations, 0),
    trace_hash: '',
    from_ms: fromMs,
    to_ms: toMs(),
    runs: runs.runs.map((r) => ({
      algorithm: r.id,
      leaders: Array.from(r.model.playground.leaders()),
      violations: r.model.playground.violation_count(),
      trace_hash: r.model.playground.trace_hash(),
    })),
  });
  /**
   * Runs `action` and draws what it did (the API's commands).
   * @template T
   * @param {() => T} action
   * @returns {T}
   */
  const drawn = (action) => {
    const out = action();
    render();
    return out;
  };
  const api = new EmbedApi(wasm, options.origins, {
    play: () => drawn(startPlaying),
    pause: () => drawn(() => runs.setPlaying(false)),
    step: () => drawn(stepOnce),
    seek: (ms) => drawn(() => goTo(ms)),
    load: () => {
      throw Object.assign(
        new Error(`a compare embed (compare=${ids.join(',')}) cannot load another scenario; point the iframe at a new address instead`),
        { field: 'type' },
      );
    },
    state,
    playing: () => runs.playing,
    describe: () => {
      const scenario = JSON.parse(runs.runs[0].model.playground.scenario_json());
      return { algorithm: null, compare: ids, nodes: scenario.nodes, seed: runs.runs[0].model.playground.seed(), controls: [...shows] };
    },
  });

  play.addEventListener('click', () => drawn(() => (runs.playing ? runs.setPlaying(false) : startPlaying())));
  step.addEventListener('click', () => drawn(stepOnce));
  reset.addEventListener('click', () => drawn(() => goTo(fromMs)));
  scrubber.addEventListener('input', () => drawn(() => goTo(Number(scrubber.value))));
  speed.addEventListener('input', () =>
    drawn(() => {
      runs.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, 10 ** Number(speed.value)));
    }),
  );
  crashLeader.addEventListener('click', () => inject({ crash: 'leader' }));
  heal.addEventListener('click', () => inject({ heal: true }));

  // Where the runs open: `at` (clamped to the range) or `from`.
  if (request.at === 'end') {
    goTo(toMs());
  } else {
    const at = request.at ?? fromMs;
    const clamped = Math.min(Math.max(at, fromMs), toMs());
    if (request.at !== null && clamped !== at) {
      problems.push(`URL parameter \`at\`: ${at} ms is outside ${fromMs}..${toMs()} ms (\`from\`..\`to\`); opening at ${clamped} ms`);
    }
    goTo(clamped);
  }
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (options.autoplay && !reduceMotion) startPlaying();
  showProblems(problems);
  render();
  open.href = fullHref();
  document.body.dataset.ready = 'true';
  api.ready();

  player.add({
    playing: () => runs.playing,
    advance: (realMs, budgetMs) => {
      const end = toMs();
      runs.tick(realMs, budgetMs, end);
      if (runs.playing) return;
      // Stopped by itself: at `to`, or before it with nothing left to
      // happen (the rest of the range is quiet, so it counts as `to`).
      if (options.loop) {
        goTo(fromMs);
        runs.setPlaying(true);
      } else {
        goTo(end);
        runs.stopReason = `the end of this part (${end} ms)`;
      }
    },
    flush: () => {
      if (!runs.dirty) return false;
      render();
      return true;
    },
    failed: (e) => {
      runs.playing = false;
      showProblems([`Something went wrong: ${messageOf(e)}`]);
    },
  });
}
