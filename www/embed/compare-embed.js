// @ts-check
/**
 * The compare embed (`?embed=1&compare=bully,raft`): compare mode as a
 * compact figure for an iframe, on the stage in embed chrome
 * (stage/embed-stage.js): one small cluster view per algorithm side by
 * side (stage/lanes.js), the compact table under them (who leads, what
 * the last failover cost, election messages, violations;
 * stage/compare-table.js), and the one bar on the shared clock
 * (stage/runs.js). `from`, `to`, `loop`, `autoplay`, `speed` and `at` work
 * as in a single embed (`to=end`: the latest of the runs' ends).
 *
 * The postMessage API (api.js) takes play, pause, step, seek and state
 * (which names every run, `runs`); `load` is refused with a message
 * naming the problem, and no per-run events are posted (each run has its
 * own story).
 * @module embed/compare-embed
 */

import { RANGE_PLAY_MS } from './params.js';
import { compareApi, fullCompareHref, openComparison } from './compare-runs.js';
import { embedRoot, EmbedStage, problemsOnly } from '../stage/embed-stage.js';
import { compactTable, EMBED_LANE, makeLane, nodeFault, renderLanes } from '../stage/lanes.js';
import { runsClock, Transport } from '../stage/transport.js';
import { playRuns } from '../stage/runs.js';
import { COMPACT, columns, fixedCrashNotes } from '../stage/compare-table.js';
import { addScrollCue } from '../shared/scroll-cue.js';
import { byTestId, h, messageOf, setText, showProblems } from '../shared/dom.js';
import { READOUT_MS, Readouts } from '../shared/readouts.js';
import { compareWasm } from '../shared/panel-wasm.js';
import { quietWords } from '../player/quiet.js';

/** The compact table's columns. */
const COLUMNS = columns(COMPACT);

/**
 * Builds the compare embed into the page and runs it, on the wasm compare
 * module (loaded now).
 * @param {import('../shared/url.js').PageRequest} request the address
 * @param {import('./params.js').EmbedRequest} options the embed's parameters
 * @param {string} compareText the `compare=` value
 * @param {string[]} problems what was wrong with the address so far
 */
export async function startCompareEmbed(request, options, compareText, problems) {
  let wasm;
  try {
    wasm = await compareWasm();
  } catch (e) {
    problemsOnly([...problems, `The comparison could not load: ${messageOf(e)}`]);
    return;
  }
  const opened = openComparison(wasm, request, compareText, problems);
  // A bad list: named, and nothing else shown in its place.
  if (!opened) {
    problemsOnly(problems, h('div', { id: 'embed-root', class: 'embed-root', 'data-testid': 'embed', 'data-mode': 'compare' }));
    return;
  }
  const { runs, ids, baseAlgorithm } = opened;
  const names = new Map(wasm.algorithms().map((/** @type {{id: string, name: string}} */ a) => [a.id, a.name]));
  const preset = request.fragment.includes('s=') ? null : new URLSearchParams(request.query).get('preset');
  const transport = new Transport(runsClock(runs), { fromMs: options.fromMs, to: options.to }, options.loop);
  transport.checkRange(problems, { what: 'these runs', whose: "the runs'" });
  transport.pickSpeed(options.speed, RANGE_PLAY_MS);
  const shows = options.controls;
  const root = embedRoot(true);
  const viewsBox = h('div', { class: 'embed-compare-views', 'data-testid': 'embed-compare-views' });
  // The page's own compare section (hidden in an embed) goes: the embed's table and notes carry the same test ids.
  document.getElementById('compare')?.remove();
  root.append(viewsBox);
  document.body.append(root);
  /** @type {import('../stage/bar.js').Drawn} */
  const drawn = (action) => {
    const out = action();
    render();
    return out;
  };
  const api = compareApi(runs, ids, transport, shows);
  const stage = new EmbedStage({ wasm, transport, options, compare: true, drawn, api });
  /** A click on a node: crash it in every run (or recover it). @type {(lane: import('../stage/lanes.js').Lane, node: number) => void} */
  const click = (lane, node) => {
    if (!shows.has('faults')) return;
    const fault = nodeFault(lane, node);
    if (fault === null) {
      showProblems([`n${node} belongs to ${lane.name} only; a fault here goes to every view, so pick one of n0 to n${lane.run.participants - 1}.`]);
    } else if (fault) stage.inject(fault);
  };
  const look = { ...EMBED_LANE, legend: shows.has('legend') };
  const lanes = runs.runs.map((run) => makeLane(run, names.get(run.id) ?? run.id, viewsBox, look, { click }));
  // Without the faults control the nodes are a picture, not buttons.
  for (const lane of lanes) lane.overlay.inert = !shows.has('faults');
  const { fixed, wrap: tableWrap } = compactTable(lanes, COLUMNS);
  /** The fault count the note above the table was written for. */
  let notesFor = -1;
  // While playing, the table and the time readouts are written at most every READOUT_MS, together (as on the page).
  const readouts = new Readouts(2, READOUT_MS);
  const render = () => {
    runs.dirty = false;
    const due = readouts.due(runs.playing, performance.now());
    renderLanes(lanes, COLUMNS, due[0] ? runs.figures() : null);
    const faults = runs.runs[0].model.playground.fault_count();
    if (faults !== notesFor) {
      notesFor = faults;
      const lines = fixedCrashNotes(runs.scenario());
      setText(fixed, lines.join(' '));
      fixed.hidden = lines.length === 0;
    }
    stage.renderBar(due[1]);
    root.dataset.playing = String(runs.playing);
    if (!due[1]) return;
    const skipping = runs.skippingMs;
    const stop = runs.stopReason && !runs.playing ? `Paused: ${runs.stopReason}` : '';
    setText(stage.bar.status, skipping > 0 ? `Skipping ${quietWords(skipping)} of quiet time…` : stop);
  };
  root.append(fixed, tableWrap, stage.bar.element, byTestId('error'));
  // A narrow frame: the algorithm column stays, a line says there is more.
  addScrollCue(tableWrap);
  stage.mark(root);
  const failed = (/** @type {unknown} */ e) => showProblems([`Something went wrong: ${messageOf(e)}`]);
  const part = playRuns(runs, render, failed, { advance: (realMs, budgetMs) => transport.advance(realMs, budgetMs) });
  stage.start({ at: request.at, problems, render, href: () => fullCompareHref(runs, ids, baseAlgorithm, preset), part });
}
