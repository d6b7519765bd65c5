// The first picture of the built index.html (www/first/picture.js, top
// comment; issue 30): the table it draws from, written here from the wasm
// tools module run in Node, and the script itself, bundled with that
// table for the build to inline at the page's `<!-- first-picture -->`
// line (scripts/build/site/build.mjs, step 3).
//
// ## The first picture's table
//
// **The table** (www/first/scenario.js `FirstTable`): the node rows'
// columns and a node's row at time 0, the role names, the defaults, each
// algorithm's layout and number of extra nodes, each preset's scenario,
// the query parameters and scenario fields that leave time 0 as drawn,
// and the captions at time 0 of `/` and the presets. Before it is
// written, every claim the page will make from it is checked against the
// core: for every algorithm, at node counts from 1 to 64 and the largest,
// both ring orders, several seeds and starts, and every neutral option
// the algorithm accepts, the rows, ring order, layout and participants
// the page would make (scenario.js `stateAtZero`) must be the core's at
// time 0, and the same for each preset and for a `#s=` link of each
// algorithm. A mismatch fails the build, naming the address: the first
// picture is the canvas's first frame or it is not drawn.
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { loadWasm } from '../wasm-node.mjs';
import { captionIndex } from '../../../www/ask/story.js';
import { firstScenario, stateAtZero } from '../../../www/first/scenario.js';

/** Scenario parameters whose every value leaves time 0 as the table draws
 * it (checked below for the ones a run can take): the rest (observers,
 * candidates, which change who the nodes are, and any new one) wait for
 * the wasm. */
const NEUTRAL = new Set([
  'seed',
  'start',
  'until_ms',
  'latency_ms',
  'drop',
  'duplicate',
  'election_timeout_ms',
  'heartbeat_ms',
  'reply_timeout_ms',
  'delta_ms',
  'fencing',
  'watch',
  'pre_vote',
  'check_quorum',
  'leader_lease',
  'master_lease',
  'backoff',
  'lease_ms',
  'renew_deadline_ms',
  'retry_ms',
  'drift_bound',
  'session_timeout_ms',
  'write_ms',
]);
/** The page's own parameters that change nothing drawn at time 0 (`at`
 * only as 0, scenario.js). */
const PAGE_NEUTRAL = ['predict'];
/** Scenario JSON fields of a `#s=` link that leave time 0 as drawn. */
const NEUTRAL_KEYS = [
  'version',
  'seed',
  'start',
  'until_ms',
  'network',
  'timing',
  'faults',
  'fencing',
  'watch',
  'pre_vote',
  'check_quorum',
  'leader_lease',
  'master_lease',
  'backoff',
];
/** Options tried on every algorithm in the check (those it refuses are skipped). */
const OPTION_TRIES = [
  'start=none',
  'start=0',
  'start=0,1',
  'seed=42',
  'latency_ms=20-80',
  'drop=0.2',
  'election_timeout_ms=300-600',
  'heartbeat_ms=20',
  'pre_vote=1',
  'check_quorum=1',
  'leader_lease=1',
  'master_lease=1',
  'fencing=0',
  'backoff=0',
  'watch=all',
  'lease_ms=500',
];

/**
 * The core's state at time 0 of `pg`, as the page reads it.
 * @param {any} pg a Playground
 * @param {string[]} fields
 */
function coreState(pg, fields) {
  return {
    rows: Array.from(pg.nodes()),
    ring: Array.from(pg.ring()),
    layout: pg.layout() === 'ring' ? 'ring' : 'cluster',
    participants: pg.node_count(),
    nowMs: pg.now_ms(),
    flights: pg.flights().length,
    kinds: Array.from(pg.kinds()),
    width: fields.length,
  };
}

/**
 * Fails unless the page's state at time 0 for `asked` is the core's.
 * @param {import('../../../www/first/scenario.js').FirstTable} table
 * @param {import('../../../www/first/scenario.js').FirstScenario} asked
 * @param {any} pg the core's run of the same address
 * @param {string} address for the message
 */
function check(table, asked, pg, address) {
  const core = coreState(pg, table.fields);
  const page = stateAtZero(table, asked);
  const same =
    core.kinds.join() === table.algorithms[asked.algorithm].kinds.join() &&
    core.nowMs === 0 &&
    core.flights === 0 &&
    core.layout === page.layout &&
    core.participants === page.participants &&
    core.ring.join() === page.ring.join() &&
    core.rows.join() === Array.from(page.rows).join();
  if (!same) {
    throw new Error(
      `first picture: ${address} at time 0 is not what the page would draw ` +
        `(core: ${JSON.stringify({ ...core, rows: core.rows.slice(0, 2 * core.width) })}; ` +
        `page: ${JSON.stringify({ ...page, rows: Array.from(page.rows.slice(0, 2 * core.width)) })}); ` +
        'fix www/first/scenario.js or leave such addresses to the wasm (scripts/build/site/first-picture.mjs)',
    );
  }
}

/**
 * The first picture's table, checked against the core.
 * @returns {Promise<import('../../../www/first/scenario.js').FirstTable>}
 */
export async function firstPictureTable() {
  const { pkg } = await loadWasm();
  const fields = pkg.node_fields();
  const one = pkg.Playground.from_url('nodes=1', '');
  const row = Array.from(one.nodes()).slice(0, fields.length);
  row[fields.indexOf('id')] = 0;
  one.free();
  // An extra node (a service, a resource) is a service from the first
  // moment (engine: extra nodes start in the service role): its row.
  const withExtra = pkg.algorithms().find((/** @type {{extras: unknown[]}} */ a) => a.extras.length > 0);
  let extraRow = row;
  if (withExtra) {
    const pg = pkg.Playground.from_url(`algorithm=${withExtra.id}&nodes=1`, '');
    extraRow = Array.from(pg.nodes()).slice(fields.length, 2 * fields.length);
    extraRow[fields.indexOf('id')] = 0;
    pg.free();
  }
  const base = pkg.Playground.from_url('', '');
  const defaults = { algorithm: base.algorithm(), nodes: base.node_count(), ring: JSON.parse(base.scenario_json()).ring };
  base.free();
  /** @type {Record<string, import('../../../www/first/scenario.js').FirstAlgorithm>} */
  const algorithms = {};
  for (const a of pkg.algorithms()) {
    algorithms[a.id] = { layout: a.layout === 'ring' ? 'ring' : 'cluster', extras: a.extras.length, kinds: a.kinds, summary: a.summary };
  }
  const scenarioParams = new Set(pkg.scenario_params());
  const unknown = [...NEUTRAL].filter((p) => !scenarioParams.has(p));
  if (unknown.length) throw new Error(`first picture: the core has no scenario parameter ${unknown.join(', ')}`);
  /** @type {import('../../../www/first/scenario.js').FirstTable} */
  const table = {
    fields,
    roles: pkg.role_names(),
    row,
    extraRow,
    maxNodes: 1024,
    defaults,
    algorithms,
    presets: {},
    params: [...NEUTRAL, ...PAGE_NEUTRAL],
    keys: NEUTRAL_KEYS,
    captions: {},
  };
  const opened = (/** @type {string} */ query, /** @type {string} */ fragment = '') => {
    try {
      return pkg.Playground.from_url(query, fragment);
    } catch {
      return null;
    }
  };
  // The largest node count the core takes, as the page assumes it.
  if (!opened(`nodes=${table.maxNodes}`) || opened(`nodes=${table.maxNodes + 1}`)) {
    throw new Error(`first picture: the core no longer takes at most ${table.maxNodes} nodes`);
  }
  let checked = 0;
  for (const id of Object.keys(algorithms)) {
    for (const nodes of [1, 2, 3, 5, 8, 13, 64, table.maxNodes]) {
      for (const ring of ['ascending', 'descending']) {
        for (const more of ['', ...OPTION_TRIES]) {
          if (nodes === table.maxNodes && more !== '') continue;
          const query = `algorithm=${id}&nodes=${nodes}&ring=${ring}${more ? `&${more}` : ''}`;
          const pg = opened(query);
          if (!pg) continue;
          const asked = firstScenario(table, `?${query}`, '');
          if (!asked || asked instanceof Promise) throw new Error(`first picture: the page would not draw ?${query}`);
          check(table, asked, pg, `?${query}`);
          // The same scenario as a share link.
          if (more === '' && nodes <= 13) {
            const link = `#${pg.share_fragment()}`;
            const fromLink = await firstScenario(table, '', link);
            if (!fromLink) throw new Error(`first picture: the page would not draw the share link of ?${query}`);
            check(table, fromLink, pg, `the share link of ?${query}`);
          }
          pg.free();
          checked++;
        }
      }
    }
    // The algorithm's defaults.
    const pg = /** @type {any} */ (opened(`algorithm=${id}`));
    check(table, /** @type {any} */ (firstScenario(table, `?algorithm=${id}`, '')), pg, `?algorithm=${id}`);
    pg.free();
  }
  // `/` and its caption.
  const home = pkg.Playground.from_url('', '');
  check(table, /** @type {any} */ (firstScenario(table, '', '')), home, '/');
  table.captions[''] = captionAtZero(home);
  home.free();
  // The presets drawable at time 0 (a ring in another order waits for the wasm).
  for (const p of pkg.presets()) {
    const pg = pkg.Playground.from_preset_url(`preset=${encodeURIComponent(p.name)}`, '');
    const scenario = JSON.parse(pg.scenario_json());
    /** @type {import('../../../www/first/scenario.js').FirstScenario} */
    const asked = { algorithm: scenario.algorithm, nodes: scenario.nodes, ring: scenario.ring };
    const state = coreState(pg, fields);
    if (asked.ring === 'ascending' || asked.ring === 'descending') {
      if (state.nowMs !== 0) throw new Error(`first picture: preset ${p.name} does not open at 0 ms`);
      check(table, asked, pg, `?preset=${p.name}`);
      table.presets[p.name] = asked;
      table.captions[`preset=${p.name}`] = captionAtZero(pg);
    }
    pg.free();
  }
  console.error(`[build-site] first picture: ${checked} addresses checked against the core at time 0; ${Object.keys(table.presets).length} presets drawn`);
  return table;
}

/**
 * The caption a run shows at time 0, or '' (as www/ask/captions.js finds it).
 * @param {any} pg
 * @returns {string}
 */
function captionAtZero(pg) {
  const { captions } = JSON.parse(pg.story_json());
  return captions[captionIndex(captions, 0)]?.text ?? '';
}

/**
 * The first picture's script with its table, bundled and minified for
 * inlining.
 * @param {string} root the repository
 * @param {import('../../../www/first/scenario.js').FirstTable} table
 * @returns {Promise<string>}
 */
export async function firstPictureScript(root, table) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, 'www', 'first', 'picture.js')],
    bundle: true,
    minify: process.env.SITE_MINIFY !== '0',
    format: 'iife',
    target: 'es2022',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    define: { __FIRST__: JSON.stringify(table) },
  });
  const text = result.outputFiles[0].text.trim();
  if (/<\/script|<!--/i.test(text)) throw new Error('first picture: the script cannot be inlined as is');
  return text;
}
