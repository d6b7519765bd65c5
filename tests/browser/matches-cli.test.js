// The page and the native CLI run the same core: for the same scenario,
// opened at `at=end`, the page shows exactly the messages, leader and end
// time that `election run --json` reports.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, readouts } from './page.js';
import { cliRun, cliRunScenario, encodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * Opens `path` and checks its readouts against a CLI summary.
 * @param {string} path
 * @param {any} expected `election run --json` output
 */
async function assertPageMatches(path, expected) {
  const { page, errors } = await openPlayground(browser, path);
  const shown = await readouts(page);
  assert.equal(shown.messages, expected.messages.sent, `messages-total of ${path}`);
  assert.equal(shown.leader, expected.leader === null ? 'none' : String(expected.leader), `leader of ${path}`);
  assert.equal(shown.time, expected.end_ms, `sim-time of ${path}`);
  // Native and wasm ran the very same events: the trace hashes agree.
  assert.equal(await page.textContent('[data-testid=trace-hash]'), expected.trace_hash, `trace hash of ${path}`);
  assert.deepEqual(errors, []);
  await page.close();
}

test('Chang-Roberts, descending ring, all start: same as the CLI', async () => {
  const expected = cliRun([
    '--algorithm', 'chang-roberts', '--nodes', '8', '--seed', '3', '--ring', 'descending', '--start', 'all',
  ]);
  assert.equal(expected.leader, 7, 'the highest id wins a Chang-Roberts election');
  await assertPageMatches(
    '/?algorithm=chang-roberts&nodes=8&seed=3&ring=descending&start=all&at=end',
    expected,
  );
});

test('Bully, 8 nodes: same as the CLI', async () => {
  const expected = cliRun(['--algorithm', 'bully', '--nodes', '8', '--seed', '3']);
  await assertPageMatches('/?algorithm=bully&nodes=8&seed=3&at=end', expected);
});

test('a #s= link with a crash fault: same as the CLI on that scenario', async () => {
  // The leader (n5) crashes after the first election; the rest re-elect.
  const scenario = {
    version: 1,
    algorithm: 'bully',
    nodes: 6,
    seed: 5,
    faults: [{ at_ms: 60.5, crash: 5 }],
  };
  const expected = cliRunScenario(scenario, ['--link']);
  assert.equal(expected.leader, 4, 'after n5 crashes, Bully elects the highest live id');
  // A link encoded here, independently of the core...
  await assertPageMatches(`/?at=end#s=${encodeShare(scenario)}`, expected);
  // ...and the link the CLI prints for the same scenario.
  assert.match(expected.link.fragment, /^#s=1\./);
  await assertPageMatches(`/?at=end${expected.link.fragment}`, expected);
});

test('a ring scenario with a random ring and the query link the CLI prints', async () => {
  const expected = cliRun([
    '--algorithm', 'chang-roberts', '--nodes', '12', '--seed', '11', '--ring', 'random', '--start', 'all', '--link',
  ]);
  await assertPageMatches(`/${expected.link.query}&at=end`, expected);
});
