// @ts-check
/**
 * Nodes packed into one `Float64Array` for the trip to the cluster worker
 * (www/cluster-worker.js), and unpacked there. Posting 1,024 node objects
 * makes the browser serialize each of them on the page's thread (0.2 ms
 * in isolation, but once 4.2 ms in a frame of the 1024-node burst, where
 * roles change every few frames); one typed array is copied in one go
 * (0.1 ms). No DOM: used by the page and by the worker.
 * @module node-rows
 */

/** Numbers per node: id, alive, paused, role, term, leader, group, slowMs. */
const WIDTH = 8;

/**
 * @typedef {object} PackedNodes
 * @property {Float64Array} rows WIDTH numbers per node (null as -1)
 * @property {string[]} roles role names, by the index in `rows`
 */

/**
 * @param {import('./model.js').NodeState[]} nodes
 * @returns {PackedNodes}
 */
export function packNodes(nodes) {
  /** @type {string[]} */
  const roles = [];
  /** @type {Map<string, number>} */
  const roleAt = new Map();
  const rows = new Float64Array(nodes.length * WIDTH);
  nodes.forEach((n, i) => {
    let role = roleAt.get(n.role);
    if (role === undefined) {
      role = roles.length;
      roles.push(n.role);
      roleAt.set(n.role, role);
    }
    const at = i * WIDTH;
    rows[at] = n.id;
    rows[at + 1] = n.alive ? 1 : 0;
    rows[at + 2] = n.paused ? 1 : 0;
    rows[at + 3] = role;
    rows[at + 4] = n.term ?? -1;
    rows[at + 5] = n.leader ?? -1;
    rows[at + 6] = n.group;
    rows[at + 7] = n.slowMs;
  });
  return { rows, roles };
}

/**
 * The nodes `packNodes` packed, as they were.
 * @param {PackedNodes} packed
 * @returns {import('./model.js').NodeState[]}
 */
export function unpackNodes({ rows, roles }) {
  /** @type {import('./model.js').NodeState[]} */
  const nodes = [];
  for (let at = 0; at + WIDTH <= rows.length; at += WIDTH) {
    nodes.push({
      id: rows[at],
      alive: rows[at + 1] === 1,
      paused: rows[at + 2] === 1,
      role: /** @type {import('./palette.js').RoleName} */ (roles[rows[at + 3]]),
      term: rows[at + 4] < 0 ? null : rows[at + 4],
      leader: rows[at + 5] < 0 ? null : rows[at + 5],
      group: rows[at + 6],
      slowMs: rows[at + 7],
    });
  }
  return nodes;
}
