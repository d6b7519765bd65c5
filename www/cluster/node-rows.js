// @ts-check
/**
 * The nodes as the core hands them over (one `Float64Array`, a row of
 * numbers per node, columns named by `Playground.node_fields`) turned into
 * the objects the views draw. Used by the model and by the cluster worker
 * (www/cluster/worker.js), which is posted the rows themselves: posting
 * 1,024 node objects made the browser serialize each of them on the
 * page's thread (0.2 ms alone, once 4.2 ms in a frame of the 1024-node
 * burst), one typed array is copied in one go. No DOM.
 * @module node-rows
 */

/**
 * The core's node rows and the index of each named column.
 * @typedef {object} NodeRows
 * @property {Float64Array} rows
 * @property {Record<string, number>} col
 * @property {readonly string[]} roles role names by role code, from the
 *   wasm (shared/names.js; posted along to the worker, which has no wasm)
 */

/** The columns `decodeNodes` reads (the timer columns are not among
 * them: they change far more often, and the timer arcs read the rows). */
const NODE_COLUMNS = ['id', 'alive', 'paused', 'role', 'term', 'leader', 'group', 'slow_ms'];

/**
 * Whether two sets of node rows decode to the same nodes (they may differ
 * in other columns, the pending timers).
 * @param {Float64Array} a
 * @param {Float64Array} b
 * @param {Record<string, number>} col
 * @returns {boolean}
 */
export function sameNodes(a, b, col) {
  if (a.length !== b.length) return false;
  const width = Object.keys(col).length;
  for (const name of NODE_COLUMNS) {
    const c = col[name];
    if (c === undefined) continue;
    for (let at = c; at < a.length; at += width) if (a[at] !== b[at]) return false;
  }
  return true;
}

/**
 * @param {NodeRows} nodeRows
 * @returns {import('../player/model.js').NodeState[]}
 */
export function decodeNodes({ rows, col: c, roles }) {
  const width = Object.keys(c).length;
  /** @type {import('../player/model.js').NodeState[]} */
  const out = [];
  for (let at = 0; at + width <= rows.length; at += width) {
    const term = rows[at + c.term];
    const leader = rows[at + c.leader];
    out.push({
      id: rows[at + c.id],
      alive: rows[at + c.alive] === 1,
      paused: rows[at + c.paused] === 1,
      role: /** @type {import('../shared/names.js').RoleName} */ (roles[rows[at + c.role]] ?? 'follower'),
      term: term < 0 ? null : term,
      leader: leader < 0 ? null : leader,
      group: rows[at + c.group],
      slowMs: rows[at + c.slow_ms],
    });
  }
  return out;
}
