// @ts-check
/**
 * The Experiments panel: sweep a scenario over a seed range, over node
 * counts or over the values of one scenario field, under one or several
 * algorithms, in Web Workers (one per core); a progress bar and cancel;
 * charts of the distributions; export of the very CSV and JSON that
 * `election sweep --csv/--json` prints for the same experiment.
 *
 * What an experiment is, its runs, its summary statistics, its CSV and
 * JSON and the theoretical curves all come from the core (through the
 * wasm `ExperimentRunner`); this module builds the experiment's JSON from
 * the form, hands run indices to the worker pool, and draws.
 * @module experiments/panel
 */

import { sweepsFor } from '../shared/panel-wasm.js';
import { ALGORITHMS, EXPERIMENT_PRESETS } from '../pkg/panel-data.js';
import { COLOURS, drawChart, loadChartLibrary } from './charts.js';
import { h } from '../shared/dom.js';
import { saveText } from '../shared/download.js';
import { Cancelled, WorkerPool } from './pool.js';
import { cdfColumns, groupValues, histogramColumns, suitsLog } from './series.js';
import { pageScenarioJson } from '../shared/page-scenario.js';
import { messageOf } from '../shared/dom.js';

/** Scenario fields offered for a parameter sweep, with example values. */
const FIELDS = [
  ['timing.election_timeout_ms', '150-151,150-155,150-175,150-200,150-300'],
  ['timing.heartbeat_ms', '25,50,75,100'],
  ['timing.reply_timeout_ms', '20,50,100'],
  ['network.latency_ms', '1-5,5-10,10-50'],
  ['network.drop', '0,0.05,0.1,0.2'],
  ['network.duplicate', '0,0.1'],
  ['timing.delta_ms', '10,50,100'],
  ['timing.lease_ms', '500,1000,2000'],
  ['timing.session_timeout_ms', '500,1000,2000'],
];

/**
 * Most runs one sweep may keep on the page: every record stays in memory
 * (about 300 bytes of JSON each) until the next sweep.
 */
const MAX_PAGE_RUNS = 200_000;

/** Time metrics a chart can show (record fields). */
const TIME_METRICS = [
  ['recovery_ms', 'Time to recover after the last fault (ms)'],
  ['first_leader_ms', 'Time to the first leader (ms)'],
];

/**
 * What the core's report calls each time metric over every run, those
 * that never got there counted as censored (core/tools/src/stats.rs
 * `Censored`), and what getting there is called.
 * @type {Record<string, {key: string, done: string, never: string}>}
 */
const CENSORED = {
  recovery_ms: { key: 'recovery_censored', done: 'recovered', never: 'never recovered' },
  first_leader_ms: { key: 'first_leader_censored', done: 'elected a leader', never: 'no leader' },
};

/**
 * A percentile of the core's censored figures as the table shows it: the
 * time, or "> T ms" when it falls among the runs that never got there.
 * @param {{censored_after_ms: number | null} | undefined} c
 * @param {number | null | undefined} v
 * @returns {string}
 */
export function censoredText(c, v) {
  if (typeof v === 'number') return String(Math.round(v * 1000) / 1000);
  return c && typeof c.censored_after_ms === 'number' ? `> ${Math.round(c.censored_after_ms * 1000) / 1000}` : '–';
}

/**
 * A share of runs as a percentage with one decimal ("30.8%").
 * @param {number} f
 * @returns {string}
 */
function percent(f) {
  return `${Math.round(f * 1000) / 10}%`;
}

/**
 * The time metric that fits a scenario: the recovery after its last
 * fault when it has faults, else the time to the first leader (with no
 * fault there is nothing to recover from).
 * @param {string} scenarioText the scenario's JSON
 * @returns {string | null} a `TIME_METRICS` key; null when the text is not
 *   a JSON object (yet: it may be half typed)
 */
export function fittingMetric(scenarioText) {
  let scenario;
  try {
    scenario = JSON.parse(scenarioText);
  } catch {
    return null;
  }
  if (scenario === null || typeof scenario !== 'object' || Array.isArray(scenario)) return null;
  return Array.isArray(scenario.faults) && scenario.faults.length > 0 ? 'recovery_ms' : 'first_leader_ms';
}

/**
 * The scenario on the page now, clicked faults included; in compare mode,
 * the scenario of the page's address (preset, query or `#s=` link), as
 * the core writes it; the default scenario when the address has none.
 * @returns {string}
 */
function addressScenario() {
  const live = pageScenarioJson();
  if (live) return JSON.stringify(JSON.parse(live), null, 2);
  // (The page has a run once ready; before the panel's module is in, none.)
  if (!wasm) return '{}';
  const { search, hash } = window.location;
  let text;
  try {
    text = wasm.address_scenario_json(search, hash);
  } catch {
    text = wasm.address_scenario_json('', '');
  }
  return JSON.stringify(JSON.parse(text), null, 2);
}

/**
 * @typedef {object} Results
 * @property {import('../pkg/election_sweeps.js').ExperimentRunner} runner
 * @property {string} recordsJson every record, in run order, as one JSON array
 * @property {import('./series.js').RunRecord[]} records
 * @property {{algorithm: string, nodes: number, value: string | null, label: string}[]} groups
 * @property {number} perGroup
 * @property {string | null} field
 * @property {any} report the core's `election sweep --json` object
 * @property {{algorithm: string, formula: string, points: [number, number][]}[]} theory
 */

/** The panel's wasm once in: the sweeps module (shared/panel-wasm.js),
 * loading beside the panel (experiments/open.js); the lab's module while
 * the experiment is a scripted run's. @type {import('../shared/panel-wasm.js').SweepsWasm | null} */
let wasm = null;

/**
 * Builds the panel inside `section`.
 * @param {HTMLElement} section
 * @param {() => void} close
 * @param {Promise<import('../shared/panel-wasm.js').Sweeps>} sweeps the sweeps
 *   module, loading (with its compiled module for the workers): the panel
 *   shows at once, from what the build wrote (www/pkg/panel-data.js), and
 *   Run waits for it
 * @returns {Promise<{focus: () => void}>}
 */
export async function createPanel(section, close, sweeps) {
  sweeps.then((s) => {
    wasm ??= s.wasm;
  }, () => {});
  const algorithms = ALGORITHMS;
  const presets = EXPERIMENT_PRESETS;

  const title = h('h2', { id: 'experiments-title', tabindex: -1 }, 'Experiments');
  const closeButton = h('button', { type: 'button', 'data-testid': 'exp-close' }, 'Close experiments');
  closeButton.addEventListener('click', close);

  const scenario = h('textarea', {
    id: 'exp-scenario',
    'data-testid': 'exp-scenario',
    rows: 8,
    spellcheck: 'false',
    'aria-describedby': 'exp-scenario-note',
  });
  scenario.value = addressScenario();
  const fromPage = h('button', { type: 'button', 'data-testid': 'exp-from-page' }, "Use this page's scenario");
  fromPage.addEventListener('click', () => {
    scenario.value = addressScenario();
    fitMetric();
  });

  const seeds = h('input', { id: 'exp-seeds', 'data-testid': 'exp-seeds', value: '1..100', inputmode: 'numeric', autocomplete: 'off' });
  const kindRadio = (/** @type {string} */ value, /** @type {string} */ label) => {
    const input = h('input', { type: 'radio', name: 'exp-kind', value, 'data-testid': `exp-kind-${value}` });
    return { input, label: h('label', {}, input, ` ${label}`) };
  };
  const kinds = {
    seeds: kindRadio('seeds', 'Seeds only'),
    nodes: kindRadio('nodes', 'Node counts'),
    param: kindRadio('param', 'A scenario field'),
  };
  kinds.seeds.input.checked = true;
  const nodes = h('input', { id: 'exp-nodes', 'data-testid': 'exp-nodes', value: '4,8,16,32,64', autocomplete: 'off' });
  const fieldList = h('datalist', { id: 'exp-field-list' }, ...FIELDS.map(([f]) => h('option', { value: f })));
  const field = h('input', { id: 'exp-field', 'data-testid': 'exp-field', list: 'exp-field-list', value: FIELDS[0][0], autocomplete: 'off' });
  const values = h('input', { id: 'exp-values', 'data-testid': 'exp-values', value: FIELDS[0][1], autocomplete: 'off' });
  field.addEventListener('change', () => {
    const known = FIELDS.find(([f]) => f === field.value.trim());
    if (known) values.value = known[1];
  });

  const algoBoxes = algorithms.map((a) => {
    const input = h('input', { type: 'checkbox', value: a.id, 'data-testid': `exp-algorithm-${a.id}` });
    return { input, label: h('label', { title: a.name }, input, ` ${a.id}`) };
  });
  const workers = h('input', {
    id: 'exp-workers',
    'data-testid': 'exp-workers',
    type: 'number',
    min: 1,
    max: 64,
    value: Math.max(1, Math.min(64, navigator.hardwareConcurrency || 2)),
  });
  const metric = h('select', { id: 'exp-metric', 'data-testid': 'exp-metric' }, ...TIME_METRICS.map(([v, t]) => h('option', { value: v }, t)));
  /** Whether the user picked the time shown (then it is left alone). */
  let metricPicked = false;
  /** Shows the time that fits the scenario in the box, unless one was picked. */
  const fitMetric = () => {
    const fits = fittingMetric(scenario.value);
    if (fits !== null && !metricPicked && metric.value !== fits) metric.value = fits;
  };
  fitMetric();
  scenario.addEventListener('input', fitMetric);

  const run = h('button', { type: 'submit', 'data-testid': 'exp-run' }, 'Run');
  const cancel = h('button', { type: 'button', 'data-testid': 'exp-cancel', disabled: true }, 'Cancel');
  const progress = h('progress', { 'data-testid': 'exp-progress', max: 1, value: 0, 'aria-label': 'Runs done' });
  const status = h('p', { class: 'note exp-status', role: 'status', 'data-testid': 'exp-status' });
  const exportCsv = h('button', { type: 'button', 'data-testid': 'exp-export-csv', disabled: true }, 'Export CSV');
  const exportJson = h('button', { type: 'button', 'data-testid': 'exp-export-json', disabled: true }, 'Export JSON');
  const table = h('div', { class: 'table-wrap exp-table', 'data-testid': 'exp-table', role: 'region', 'aria-label': 'Summary of each group', tabindex: 0 });
  const charts = h('div', { class: 'exp-charts', 'data-testid': 'exp-charts' });

  const presetButtons = presets.map((p) => {
    const b = h('button', { type: 'button', 'data-testid': `exp-preset-${p.name}`, title: p.summary }, p.title);
    b.addEventListener('click', () => {
      applyPreset(p);
      start();
    });
    return b;
  });

  const form = h(
    'form',
    { class: 'exp-form', 'aria-labelledby': 'experiments-title' },
    h(
      'div',
      { class: 'exp-field exp-wide' },
      h('label', { for: 'exp-scenario' }, 'Scenario (JSON)'),
      scenario,
      h('p', { id: 'exp-scenario-note', class: 'note' }, 'Every run uses this scenario with its seed replaced; faults included. ', fromPage),
    ),
    h('div', { class: 'exp-field' }, h('label', { for: 'exp-seeds' }, 'Seeds (A..B, both included)'), seeds),
    h(
      'fieldset',
      { class: 'exp-field' },
      h('legend', {}, 'Sweep over'),
      kinds.seeds.label,
      kinds.nodes.label,
      h('label', { for: 'exp-nodes', class: 'exp-sub' }, 'n ='),
      nodes,
      kinds.param.label,
      h('label', { for: 'exp-field', class: 'exp-sub' }, 'field'),
      field,
      fieldList,
      h('label', { for: 'exp-values', class: 'exp-sub' }, 'values'),
      values,
    ),
    h(
      'fieldset',
      { class: 'exp-field exp-algorithms' },
      h('legend', {}, "Algorithms (none ticked: the scenario's)"),
      ...algoBoxes.map((b) => b.label),
    ),
    h('div', { class: 'exp-field' }, h('label', { for: 'exp-workers' }, 'Workers'), workers),
    h('div', { class: 'exp-field' }, h('label', { for: 'exp-metric' }, 'Time shown'), metric),
    h('div', { class: 'exp-buttons exp-wide' }, run, cancel, progress, exportCsv, exportJson),
  );

  section.replaceChildren(
    h('div', { class: 'exp-head' }, title, closeButton),
    h(
      'p',
      { class: 'note' },
      'Run one scenario over many seeds, node counts or values of a field, in Web Workers. The numbers are those of ',
      h('code', {}, 'election sweep'),
      ' for the same experiment; the exports are its --csv and --json output.',
    ),
    h('div', { class: 'exp-presets', role: 'group', 'aria-label': 'Built-in experiments' }, ...presetButtons),
    form,
    status,
    table,
    charts,
  );

  const pool = new WorkerPool(Number(workers.value), null);
  /** @type {Results | null} */
  let results = null;

  /** @param {{name: string, metric: string, spec_json: string}} p */
  function applyPreset(p) {
    const spec = JSON.parse(p.spec_json);
    scenario.value = JSON.stringify(spec.scenario, null, 2);
    seeds.value = spec.seeds;
    for (const b of algoBoxes) b.input.checked = spec.algorithms.includes(b.input.value);
    const [f, v] = String(spec.param ?? '').split('=');
    if (f === 'nodes') {
      kinds.nodes.input.checked = true;
      nodes.value = v;
    } else if (f) {
      kinds.param.input.checked = true;
      field.value = f;
      values.value = v;
    } else {
      kinds.seeds.input.checked = true;
    }
    if (TIME_METRICS.some(([m]) => m === p.metric)) metric.value = p.metric;
    else fitMetric();
  }

  /**
   * The experiment JSON the form describes.
   * @returns {string}
   */
  function specJson() {
    let parsed;
    try {
      parsed = JSON.parse(scenario.value);
    } catch (e) {
      throw new Error(`experiment field scenario: not valid JSON: ${messageOf(e)}`);
    }
    let param = null;
    if (kinds.nodes.input.checked) param = `nodes=${nodes.value.trim()}`;
    if (kinds.param.input.checked) param = `${field.value.trim()}=${values.value.trim()}`;
    return JSON.stringify({
      scenario: parsed,
      seeds: seeds.value.trim(),
      algorithms: algoBoxes.filter((b) => b.input.checked).map((b) => b.input.value),
      param,
    });
  }

  /** @param {boolean} running */
  function setRunning(running) {
    run.disabled = running;
    cancel.disabled = !running;
    for (const b of presetButtons) b.disabled = running;
    exportCsv.disabled = running || !results;
    exportJson.disabled = running || !results;
    section.dataset.state = running ? 'running' : results ? 'done' : 'idle';
  }

  async function start() {
    if (pool.busy) return;
    results?.runner.free();
    results = null;
    table.replaceChildren();
    charts.replaceChildren();
    status.classList.remove('exp-error');
    let runner;
    let spec;
    try {
      spec = specJson();
      // A script runs only in the lab's module (shared/panel-wasm.js).
      status.textContent = 'Loading the experiments\' code…';
      pool.wasm = await sweepsFor(JSON.parse(spec).scenario?.algorithm === 'script');
      wasm = pool.wasm.wasm;
      runner = new wasm.ExperimentRunner(spec);
    } catch (e) {
      status.textContent = messageOf(e);
      status.classList.add('exp-error');
      setRunning(false);
      return;
    }
    const total = runner.run_count();
    if (total > MAX_PAGE_RUNS) {
      runner.free();
      status.textContent = `experiment field seeds: ${total} runs in all; the page keeps at most ${MAX_PAGE_RUNS} (election sweep runs up to 1000000)`;
      status.classList.add('exp-error');
      setRunning(false);
      return;
    }
    pool.size = Math.max(1, Math.min(64, Math.floor(Number(workers.value)) || 1));
    progress.max = total;
    progress.value = 0;
    status.textContent = `Running ${total} runs on ${Math.min(pool.size, total)} workers…`;
    setRunning(true);
    try {
      const texts = await pool.run(spec, total, ({ done }) => {
        progress.value = done;
        status.textContent = `${done} of ${total} runs`;
      });
      const recordsJson = `[${texts.join(',')}]`;
      results = {
        runner,
        recordsJson,
        records: texts.map((t) => JSON.parse(t)),
        groups: runner.groups(),
        perGroup: runner.seeds_per_group(),
        field: runner.param_field() ?? null,
        report: runner.report(recordsJson),
        theory: runner.theory(),
      };
      status.textContent = `Done: ${total} runs in ${results.groups.length} group${results.groups.length === 1 ? '' : 's'}.`;
      // A script that failed is said at once, not left to read as runs
      // without a leader (the CLI exits 2 with the same first error).
      const stopped = results.records.filter((r) => r.script_error);
      if (stopped.length > 0) {
        status.textContent += ` ${stopped.length} of ${total} runs were stopped by a script error; the first, seed ${stopped[0].seed}: ${stopped[0].script_error}`;
        status.classList.add('exp-error');
      }
      showTable(results);
      // "done" (data-state) once the charts are drawn too: the chart
      // library loads on first use.
      await showCharts(results);
      setRunning(false);
    } catch (e) {
      runner.free();
      results = null;
      if (e instanceof Cancelled) {
        status.textContent = `Cancelled after ${progress.value} of ${total} runs; nothing kept.`;
      } else {
        status.textContent = `The sweep failed: ${messageOf(e)}`;
        status.classList.add('exp-error');
      }
      setRunning(false);
    }
  }

  /**
   * The per-group reports: a grouped report's `groups`, or the one report.
   * @param {Results} r
   * @returns {any[]}
   */
  function groupReports(r) {
    return r.report.groups ?? [r.report];
  }

  /**
   * Legend and row labels: the algorithm when there are several, the
   * parameter's value when there is one (the field is named in captions).
   * @param {Results} r
   * @returns {string[]}
   */
  function shortLabels(r) {
    const several = new Set(r.groups.map((g) => g.algorithm)).size > 1;
    return r.groups.map((g) => [several || g.value === null ? g.algorithm : '', g.value ?? ''].filter(Boolean).join(' '));
  }

  /** @param {Results} r */
  function showTable(r) {
    const m = metric.value;
    const cens = CENSORED[m];
    const cell = (/** @type {unknown} */ v) => h('td', {}, v === null || v === undefined ? '–' : String(typeof v === 'number' ? Math.round(v * 1000) / 1000 : v));
    const rows = groupReports(r).map((g, i) => {
      // Percentiles over every run: one that never got there counts as
      // slower than it was watched ("> T").
      const c = g[cens.key];
      return h(
        'tr',
        { 'data-group': i },
        h('th', { scope: 'row', title: r.groups[i].label }, shortLabels(r)[i]),
        cell(g.runs),
        cell(g.election_messages?.mean),
        cell(g.theory),
        h('td', { 'data-testid': 'exp-p50' }, censoredText(c, c?.p50)),
        h('td', {}, censoredText(c, c?.p99)),
        h('td', {}, censoredText(c, c?.max)),
        cell(m === 'recovery_ms' ? g.runs_not_recovered : g.runs_without_leader),
        h('td', { 'data-testid': 'exp-reached' }, c ? percent(c.fraction_reached) : '–'),
      );
    });
    const watched = groupReports(r)
      .map((g) => g[cens.key]?.censored_after_ms)
      .filter((t) => typeof t === 'number');
    table.replaceChildren(
      h(
        'table',
        {},
        h('caption', {}, `Per group${r.field ? ` (${r.field})` : ''}; times: ${TIME_METRICS.find(([k]) => k === m)?.[1]}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['group', 'runs', 'election msgs (mean)', 'theory', 'p50', 'p99', 'max', cens.never, cens.done].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
      h(
        'p',
        { class: 'note', 'data-testid': 'exp-censored-note' },
        `Percentiles count every run: a run that ${cens.never === 'no leader' ? 'never elected a leader' : 'never recovered'} took longer than it was watched, ` +
          `so a percentile that falls among those runs reads "> T ms"${watched.length ? ` (here T = ${Math.min(...watched)} ms)` : ''}.`,
      ),
    );
  }

  /** @param {Results} r */
  async function showCharts(r) {
    const uPlot = await loadChartLibrary();
    charts.replaceChildren();
    const m = metric.value;
    const mName = TIME_METRICS.find(([k]) => k === m)?.[1] ?? m;
    const labels = shortLabels(r);
    const series = (/** @type {'step' | 'line'} */ style) =>
      labels.map((label, i) => ({ label, colour: COLOURS[i % COLOURS.length], style }));
    const times = groupValues(r.records, r.perGroup, m);
    const by = r.field && r.field !== 'nodes' ? `, one curve per ${r.field}` : '';
    const timeLog = suitsLog(times);
    // A curve that levels off below 1 is the runs that never got there:
    // each curve says how far it climbs.
    const cens = CENSORED[m];
    const reached = groupReports(r).map((g) => g[cens.key]);
    /** The groups whose curve stops below 1. */
    const short = reached.flatMap((c, i) => (c && c.reached < c.runs ? [i] : []));
    const cdf = drawChart(uPlot, charts, {
      testid: 'exp-chart-time-cdf',
      title: `CDF: ${mName}${by}`,
      xLabel: timeLog ? 'ms (log scale)' : 'ms',
      yLabel: 'fraction of runs',
      xLog: timeLog,
      columns: cdfColumns(times),
      series: labels.map((label, i) => ({
        label: reached[i] ? `${label} (${percent(reached[i].fraction_reached)} ${cens.done})` : label,
        colour: COLOURS[i % COLOURS.length],
        style: 'step',
      })),
      notes: short.length
        ? [
            `A curve that stops below 1 leaves out the runs that never ${cens.done === 'recovered' ? 'recovered' : 'elected a leader'} ` +
              `(within ${Math.min(...short.map((i) => reached[i].censored_after_ms ?? Infinity))} ms): ` +
              short.map((i) => `${labels[i] || 'all'} stops at ${percent(reached[i].fraction_reached)}`).join(', ') +
              '.',
          ]
        : [],
    });
    cdf.figure.dataset.reached = reached.map((c) => (c ? String(c.fraction_reached) : '')).join(',');
    drawChart(uPlot, charts, {
      testid: 'exp-chart-time-hist',
      title: `Histogram: ${mName}${by}`,
      xLabel: timeLog ? 'ms (log bins)' : 'ms',
      yLabel: 'fraction of runs',
      xLog: timeLog,
      columns: histogramColumns(times, 30, timeLog),
      series: series('step'),
    });
    const msgs = groupValues(r.records, r.perGroup, 'election_messages');
    const msgLog = suitsLog(msgs);
    drawChart(uPlot, charts, {
      testid: 'exp-chart-messages-cdf',
      title: 'CDF: election messages per run',
      xLabel: msgLog ? 'messages (log scale)' : 'messages',
      yLabel: 'fraction of runs',
      xLog: msgLog,
      columns: cdfColumns(msgs),
      series: series('step'),
    });
    drawChart(uPlot, charts, {
      testid: 'exp-chart-messages-hist',
      title: 'Histogram: election messages per run',
      xLabel: msgLog ? 'messages (log bins)' : 'messages',
      yLabel: 'fraction of runs',
      xLog: msgLog,
      columns: histogramColumns(msgs, 30, msgLog),
      series: series('step'),
    });
    if (r.field === 'nodes') drawLogLog(uPlot, r);
  }

  /**
   * Election messages against n on log-log axes: the measured mean of
   * each algorithm at each n as points, the core's theoretical curve
   * beside it as a dashed line.
   * @param {any} uPlot
   * @param {Results} r
   */
  function drawLogLog(uPlot, r) {
    const reports = groupReports(r);
    const algos = [...new Set(r.groups.map((g) => g.algorithm))];
    const ns = new Set(r.groups.map((g) => g.nodes));
    for (const c of r.theory) for (const [n] of c.points) ns.add(n);
    const xs = [...ns].sort((a, b) => a - b);
    /** @type {(number | null)[][]} */
    const cols = [];
    /** @type {import('./charts.js').SeriesSpec[]} */
    const specs = [];
    /** @type {string[]} */
    const notes = [];
    algos.forEach((a, k) => {
      const colour = COLOURS[k % COLOURS.length];
      const measured = new Map();
      r.groups.forEach((g, i) => {
        const mean = reports[i].election_messages?.mean;
        if (g.algorithm === a && mean > 0) measured.set(g.nodes, mean);
      });
      cols.push(xs.map((n) => measured.get(n) ?? null));
      specs.push({ label: `${a} measured`, colour, style: 'points' });
      const curve = r.theory.find((c) => c.algorithm === a);
      if (curve) {
        const at = new Map(curve.points);
        cols.push(xs.map((n) => at.get(n) ?? null));
        specs.push({ label: `${a} theory`, colour, style: 'dashed' });
        notes.push(`${a} theory (dashed): ${curve.formula}`);
      }
    });
    drawChart(uPlot, charts, {
      testid: 'exp-chart-loglog',
      title: 'Election messages against n (log-log): measured mean and theory',
      xLabel: 'n (nodes)',
      yLabel: 'election messages',
      xLog: true,
      yLog: true,
      columns: [xs, ...cols],
      series: specs,
      notes,
    });
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    start();
  });
  cancel.addEventListener('click', () => pool.cancel());
  metric.addEventListener('change', () => {
    metricPicked = true;
    if (!results) return;
    showTable(results);
    showCharts(results).catch((e) => {
      status.textContent = messageOf(e);
    });
  });
  exportCsv.addEventListener('click', () => {
    if (results) saveText(results.runner.report_csv(results.recordsJson), 'election-sweep.csv', 'text/csv');
  });
  exportJson.addEventListener('click', () => {
    if (results) saveText(results.runner.report_json(results.recordsJson), 'election-sweep.json', 'application/json');
  });
  // Chart ink follows the theme: redraw when the theme button changes it.
  new MutationObserver(() => {
    if (results && !pool.busy) showCharts(results).catch(() => {});
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  section.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !pool.busy) close();
  });
  setRunning(false);
  return { focus: () => title.focus() };
}
