// @ts-check
/**
 * Names the page takes from the wasm core instead of keeping copies:
 * the roles in the order of their codes (`role_names()`, the `role`
 * column of the node and trace rows) and the safety properties the core
 * checks with their labels (`properties()`), and the timer classes of
 * the node rows' `timer_class` column (`timer_classes()`). `learnNames(wasm)` fills
 * them once the wasm module is loaded (stage/start.js does, before anything is
 * drawn); the cluster worker, which has no wasm, is posted the role
 * names with the node rows.
 * @module shared/names
 */

/** @typedef {'follower' | 'candidate' | 'leader' | 'service' | 'observer'} RoleName */

/** Role names by role code (index = code), from the wasm. @type {RoleName[]} */
export const ROLE_NAMES = [];

/**
 * Role codes by name, from the wasm (`ROLE.leader` is the code of the
 * leader role in the rows).
 * @type {Record<RoleName, number>}
 */
export const ROLE = /** @type {Record<RoleName, number>} */ ({});

/**
 * The timer classes by code (the node rows' `timer_class`), from the
 * wasm: a stable `name` and a `label` for legends.
 * @type {{name: string, label: string}[]}
 */
export const TIMER_CLASSES = [];

/** The label of each property the core checks, by its id. @type {Map<string, string>} */
const PROPERTY_LABELS = new Map();

/** The roles the page draws (colours, legend): the wasm must name them all. */
const DRAWN_ROLES = /** @type {const} */ (['follower', 'candidate', 'leader', 'service', 'observer']);

/**
 * Learns the names from the loaded wasm module (again: the same names).
 * @param {{role_names(): string[], properties(): {id: string, label: string}[], timer_classes(): {name: string, label: string}[]}} wasm
 */
export function learnNames(wasm) {
  const names = wasm.role_names();
  const missing = DRAWN_ROLES.filter((r) => !names.includes(r));
  if (missing.length > 0) throw new Error(`the core has no role named ${missing.join(', ')}`);
  ROLE_NAMES.length = 0;
  names.forEach((name, code) => {
    ROLE_NAMES.push(/** @type {RoleName} */ (name));
    ROLE[/** @type {RoleName} */ (name)] = code;
  });
  TIMER_CLASSES.length = 0;
  for (const { name, label } of wasm.timer_classes()) TIMER_CLASSES.push({ name, label });
  PROPERTY_LABELS.clear();
  for (const { id, label } of wasm.properties()) PROPERTY_LABELS.set(id, label);
}

/**
 * The label of a property the core checks ("Split brain"), or its id in
 * words for one the core does not list.
 * @param {string} id e.g. `split_brain`
 * @returns {string}
 */
export function propertyLabel(id) {
  return PROPERTY_LABELS.get(id) ?? id.replaceAll('_', ' ');
}

/** @returns {string[]} the ids of every property the core checks, in its order */
export function propertyIds() {
  return [...PROPERTY_LABELS.keys()];
}
