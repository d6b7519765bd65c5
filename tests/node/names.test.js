// The names the page takes from the wasm (issue 15): role names in the
// order of the role codes, and the safety properties the core checks,
// each with a label and, on the page, a line on why it matters. Loads
// www/pkg in Node (build the wasm first); no browser needed.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadWasm } from '../../scripts/build/wasm-node.mjs';
import { WHY } from '../../www/panels/alerts.js';
import { learnNames, propertyIds, propertyLabel, ROLE, ROLE_NAMES } from '../../www/shared/names.js';

/** @type {any} */
let pkg;
before(async () => {
  ({ pkg } = await loadWasm());
  learnNames(pkg);
});

test('role names come from the wasm in role-code order', () => {
  assert.deepEqual(pkg.role_names(), ['follower', 'candidate', 'leader', 'service', 'observer']);
  assert.deepEqual(ROLE_NAMES, pkg.role_names());
  assert.deepEqual({ ...ROLE }, { follower: 0, candidate: 1, leader: 2, service: 3, observer: 4 });
});

test('every property the core checks has a label and a why, and no other', () => {
  const ids = propertyIds();
  assert.deepEqual(ids, pkg.properties().map((/** @type {{id: string}} */ p) => p.id));
  assert.ok(ids.includes('split_brain'), `${ids}`);
  assert.equal(propertyLabel('split_brain'), 'Split brain');
  assert.equal(propertyLabel('not_a_property'), 'not a property');
  assert.deepEqual(Object.keys(WHY).sort(), [...ids].sort());
});
