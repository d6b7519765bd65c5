// The page's plain words for what the core reports (issue 15, clarity
// pass): the leader readout ("2 leaders (split brain): n2, n5"), the name
// of the run's end ("Settles at"), and input errors said at their field
// ("The drop chance must be a number from 0 to 1, not 1.5") from the
// `field` and `detail` the wasm's errors carry. Loads www/pkg in Node
// (build the wasm first); no browser needed.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadWasm } from '../../scripts/build/wasm-node.mjs';
import { coreError, plainSentence } from '../../www/panels/field-errors.js';
import { endLabel, leaderSummary } from '../../www/panels/status.js';

/** @type {any} */
let pkg;
before(async () => {
  ({ pkg } = await loadWasm());
});

/**
 * What `new Playground(scenario)` throws.
 * @param {object} scenario
 * @returns {unknown}
 */
function refusal(scenario) {
  try {
    new pkg.Playground(JSON.stringify(scenario)).free();
  } catch (e) {
    return e;
  }
  throw new Error(`accepted: ${JSON.stringify(scenario)}`);
}

test('the leader readout: one leader, none, or split brain with every leader', () => {
  assert.equal(leaderSummary([3]), 'n3');
  assert.equal(leaderSummary([]), 'no leader');
  assert.equal(leaderSummary([2, 5]), '2 leaders (split brain): n2, n5');
  assert.equal(leaderSummary([0, 4, 7]), '3 leaders (split brain): n0, n4, n7');
});

test("the run's end is named for what it is", () => {
  assert.equal(endLabel(19.041, null, 60000)[0], 'Settles at');
  assert.match(endLabel(19.041, null, 60000)[1], /nothing changes but heartbeats/);
  assert.match(endLabel(19.041, null, 60000)[1], /Playback may go on past it/);
  assert.equal(endLabel(null, null, 60000)[0], 'Settles at', 'still being looked for');
  assert.equal(endLabel(4000, 4000, 4000)[0], 'Stops at', "the scenario's until_ms");
  assert.equal(endLabel(60000, null, 60000)[0], 'Never settles; stops at', 'the run limit');
});

test("the core's errors carry the field and what is wrong with it alone", () => {
  const e = /** @type {any} */ (refusal({ algorithm: 'raft', nodes: 5, network: { drop: 1.5 } }));
  assert.ok(e instanceof Error);
  assert.equal(e.field, 'network.drop');
  assert.equal(e.detail, 'must be a number from 0 to 1, got 1.5');
  assert.match(e.message, /network\.drop/, 'the message still names the field');
  assert.equal(plainSentence(coreError(e)), 'The drop chance must be a number from 0 to 1, not 1.5.');
});

test('every field an input of the page can hold is said in plain words', () => {
  /** @type {[object, string, string][]} */
  const cases = [
    [{ nodes: 0 }, 'nodes', 'The number of nodes must be a whole number from 1 to 1024, not 0.'],
    [{ network: { duplicate: 2 } }, 'network.duplicate', 'The duplicate chance must be a number from 0 to 1, not 2.'],
    [{ network: { latency_ms: [20, 5] } }, 'network.latency_ms', 'The latency range: the high end must not be below the low end.'],
    [{ faults: [{ at_ms: 5, pause: 1, for_ms: -5 }] }, 'faults[0].for_ms', 'The length must be from 0 to 86,400,000 ms (one day), not -5.'],
    [{ faults: [{ at_ms: 5, pause: 1, for_ms: '' }] }, 'faults[0].for_ms', 'The length must be from 0 to 86,400,000 ms (one day), not blank.'],
    [{ faults: [{ at_ms: 5, slow: 1, extra_ms: -1 }] }, 'faults[0].extra_ms', 'The extra delay must be from 0 to 86,400,000 ms (one day), not -1.'],
    [{ faults: [{ at_ms: 5, clock: 1, offset_ms: 0, drift: 20 }] }, 'faults[0].drift', ''],
    [{ faults: [{ at_ms: 5, network: { drop: 2 } }] }, 'faults[0].network.drop', 'The drop chance must be a number from 0 to 1, not 2.'],
  ];
  for (const [scenario, field, words] of cases) {
    const err = coreError(refusal(scenario));
    assert.equal(err.field, field, JSON.stringify(scenario));
    const said = plainSentence(err);
    if (words) assert.equal(said, words);
    assert.doesNotMatch(said, /This value|, got /, said);
    assert.match(said, /^[A-Z].*\.$/, said);
  }
});
