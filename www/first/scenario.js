// @ts-check
/**
 * What the first picture draws (first/picture.js): the scenario's state at
 * time 0, read from the address without the wasm. Before its first event
 * a run is the same whatever its algorithm's rules: every node (the
 * participants, then the algorithm's extra nodes) in the core's row of a
 * node at time 0 (an extra node's as a service), their ids aside; no
 * message on the wire, no timer. What
 * differs is known from the address and the table the site build wrote
 * from the wasm (scripts/build/site/first-picture.mjs, `FirstTable`): the
 * algorithm's layout and extra nodes, the node count, the ring order.
 * The build checks, for every algorithm, node counts, ring orders, starts,
 * seeds and options, that the rows made here are the core's at time 0,
 * so the picture is the canvas's first frame; nothing here knows an
 * algorithm.
 *
 * Only what the table can say is drawn early: an address whose
 * parameters are all known to leave time 0 as the table has it (the
 * algorithm, nodes, seed, start, ring when ascending or descending,
 * network and timing; the page's own `speed`, `predict`, `at=0`), a
 * preset, or a `#s=` link whose scenario has only such fields. Anything
 * else (a random ring, observers, a lesson link, compare mode, an embed,
 * a value the core may refuse) waits for the wasm, as every address did
 * before.
 * @module first/scenario
 */

import { linkScenario } from '../shared/share-link.js';

/**
 * An algorithm as the first picture needs it.
 * @typedef {object} FirstAlgorithm
 * @property {'ring' | 'cluster'} layout the wasm's `algorithms()` layout
 * @property {number} extras how many extra nodes it adds (a service, a
 *   resource), after the participants
 * @property {string[]} kinds its message kinds, in the core's order
 * @property {string} summary its summary, as the settings show it
 */

/**
 * The table the site build writes from the wasm (first-picture.mjs).
 * @typedef {object} FirstTable
 * @property {string[]} fields the node rows' columns (`node_fields()`)
 * @property {string[]} roles role names by code (`role_names()`)
 * @property {number[]} row a node's row at time 0 (its `id` column 0)
 * @property {number[]} extraRow an extra node's row at time 0 (a service
 *   from the first moment; its `id` column 0)
 * @property {number} maxNodes the most nodes a scenario may have
 * @property {{algorithm: string, nodes: number, ring: 'ascending' | 'descending'}} defaults
 *   what an address that does not say gets
 * @property {Record<string, FirstAlgorithm>} algorithms by id
 * @property {Record<string, FirstScenario>} presets by name (`?preset=`)
 * @property {string[]} params query parameters that leave time 0 as
 *   drawn here (besides `algorithm`, `nodes`, `ring`, `preset`, `at`)
 * @property {string[]} keys scenario JSON fields (of a `#s=` link) that
 *   do (besides `algorithm`, `nodes`, `ring`)
 * @property {Record<string, string>} captions the caption at time 0 of
 *   `/` (key `''`) and of each preset (key `preset=<name>`)
 */

/**
 * The scenario at time 0 as drawn.
 * @typedef {object} FirstScenario
 * @property {string} algorithm
 * @property {number} nodes participants
 * @property {'ascending' | 'descending'} ring
 */

/**
 * The scenario the address asks for, when the first picture can draw it
 * (see the module's top comment), else null.
 * @param {FirstTable} table
 * @param {string} search `location.search`
 * @param {string} fragment `location.hash`
 * @returns {FirstScenario | Promise<FirstScenario | null> | null} at once for
 *   a query, a promise for a `#s=` link (inflated first)
 */
export function firstScenario(table, search, fragment) {
  const params = new URLSearchParams(search);
  const at = params.get('at');
  if (at !== null && !/^0*(\.0*)?$/.test(at.trim())) return null;
  const known = new Set([...table.params, 'algorithm', 'nodes', 'ring', 'preset', 'at']);
  for (const key of params.keys()) if (!known.has(key)) return null;
  const hash = fragment.replace(/^#/, '');
  if (hash !== '') {
    const link = new URLSearchParams(hash);
    if ([...link.keys()].join() !== 's' || ['algorithm', 'nodes', 'ring', 'preset'].some((p) => params.has(p))) return null;
    return linkScenario(fragment).then((s) => (s ? fromJson(table, s) : null));
  }
  const preset = params.get('preset');
  if (preset !== null) {
    if (['algorithm', 'nodes', 'ring'].some((p) => params.has(p))) return null;
    return Object.hasOwn(table.presets, preset) ? table.presets[preset] : null;
  }
  const algorithm = params.get('algorithm') ?? table.defaults.algorithm;
  const nodes = params.get('nodes');
  return checked(table, algorithm, nodes === null ? table.defaults.nodes : nodeCount(nodes), params.get('ring') ?? table.defaults.ring);
}

/**
 * A `#s=` link's scenario, when it has only fields the table knows leave
 * time 0 as drawn.
 * @param {FirstTable} table
 * @param {Record<string, unknown>} s
 * @returns {FirstScenario | null}
 */
function fromJson(table, s) {
  const known = new Set([...table.keys, 'algorithm', 'nodes', 'ring']);
  if (Object.keys(s).some((k) => !known.has(k))) return null;
  const nodes = s.nodes === undefined ? table.defaults.nodes : Number.isInteger(s.nodes) ? Number(s.nodes) : NaN;
  return checked(table, s.algorithm ?? table.defaults.algorithm, nodes, s.ring ?? table.defaults.ring);
}

/**
 * @param {string} text
 * @returns {number} NaN unless plain digits
 */
function nodeCount(text) {
  return /^\d{1,4}$/.test(text) ? Number(text) : NaN;
}

/**
 * The scenario, when the table can draw it.
 * @param {FirstTable} table
 * @param {unknown} algorithm
 * @param {number} nodes
 * @param {unknown} ring
 * @returns {FirstScenario | null}
 */
function checked(table, algorithm, nodes, ring) {
  if (typeof algorithm !== 'string' || !Object.hasOwn(table.algorithms, algorithm)) return null;
  if (!(nodes >= 1 && nodes <= table.maxNodes)) return null;
  if (ring !== 'ascending' && ring !== 'descending') return null;
  return { algorithm, nodes, ring };
}

/**
 * The scenario's state at time 0 as a snapshot's parts the still layer
 * draws (player/model.js `Snapshot`): the core's node rows, the ring
 * order, the layout.
 * @param {FirstTable} table
 * @param {FirstScenario} s
 * @returns {{rows: Float64Array, col: Record<string, number>, ring: number[], layout: 'ring' | 'cluster', participants: number}}
 */
export function stateAtZero(table, s) {
  const width = table.fields.length;
  const total = s.nodes + table.algorithms[s.algorithm].extras;
  const rows = new Float64Array(total * width);
  /** @type {Record<string, number>} */
  const col = {};
  table.fields.forEach((f, i) => {
    col[f] = i;
  });
  for (let id = 0; id < total; id++) {
    rows.set(id < s.nodes ? table.row : table.extraRow, id * width);
    rows[id * width + col.id] = id;
  }
  const ascending = [...Array(s.nodes).keys()];
  return {
    rows,
    col,
    ring: s.ring === 'descending' ? ascending.reverse() : ascending,
    layout: table.algorithms[s.algorithm].layout,
    participants: s.nodes,
  };
}
