// Zab's observers on the page (issue 16, item 2): a link with
// `"observers": k` draws the last k servers as observers (hexagons in the
// observer colour, read from the still layer's drawing model
// `__drawnNodes`), the role legend and the Node tab say what an observer
// is, and the election's counts are those of `election run --json`, kind
// by kind. No console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, readouts, settle, testId } from './page.js';
import { cliRun, cliRunScenario, encodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/** Nine servers, the last six observers: three voters elect. */
const SCENARIO = { version: 1, algorithm: 'zab', nodes: 9, seed: 4, observers: 6, network: { latency_ms: [10, 10] } };

/**
 * The page's counts against a CLI summary: total, election, each kind.
 * @param {import('playwright-core').Page} page
 * @param {any} expected
 */
async function assertCounts(page, expected) {
  const shown = await readouts(page);
  assert.equal(shown.messages, expected.messages.sent);
  assert.equal(shown.leader, String(expected.leader));
  assert.equal(shown.time, expected.end_ms);
  assert.equal(Number(await testId(page, 'metric-election')), expected.messages.election);
  for (const [kind, count] of Object.entries(expected.messages.by_kind)) {
    assert.equal(Number(await testId(page, `metric-kind-${kind}`)), count, kind);
  }
  assert.equal(await testId(page, 'trace-hash'), expected.trace_hash);
}

test('a link with observers draws them as observers, and the election counts equal the CLI', async () => {
  const expected = cliRunScenario(SCENARIO);
  // 3 voters: 12 notifications; 6 observers ask the 3 voters and are
  // answered (36), then connect (6 OBSERVERINFO, 6 LEADERINFO, 6 ACKEPOCH).
  assert.deepEqual(
    [expected.leader, expected.messages.election, expected.messages.by_kind.NOTIFICATION, expected.messages.by_kind.OBSERVERINFO],
    [2, 72, 48, 6],
  );
  const { page, errors } = await openPlayground(browser, `/?at=end#s=${encodeShare(SCENARIO)}`);
  await assertCounts(page, expected);

  await settle(page);
  const nodes = await page.$eval('#cluster', (c) => /** @type {any} */ (c).__drawnNodes ?? null);
  assert.ok(nodes, 'the still layer reported its nodes');
  assert.deepEqual(
    nodes.map((/** @type {any} */ n) => `${n.id}:${n.role}:${n.shape}`),
    [
      '0:follower:disc', '1:follower:disc', '2:leader:disc',
      '3:observer:hexagon', '4:observer:hexagon', '5:observer:hexagon',
      '6:observer:hexagon', '7:observer:hexagon', '8:observer:hexagon',
      '9:service:square',
    ],
  );
  assert.match((await page.getAttribute('[data-testid=node-5]', 'aria-label')) ?? '', /^n5, observer\./);
  const legend = await page.$$eval('#roles li:not([hidden])', (items) => items.map((li) => li.textContent));
  assert.ok(legend.includes('observer (follows, does not vote)'), legend.join(' | '));

  await page.hover('[data-testid=node-5]');
  await page.click('[data-testid=tab-node]');
  const fields = await page.$$eval('#inspector dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
  assert.deepEqual(fields.find(([name]) => name === 'membership'), ['membership', 'observer (follows, does not vote)']);
  await page.hover('[data-testid=node-1]');
  const voter = await page.$$eval('#inspector dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
  assert.deepEqual(voter.find(([name]) => name === 'membership'), ['membership', 'voter (n0 to n2 vote)']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('observers as a readable URL parameter: the same run as the CLI, and no observer legend without them', async () => {
  const expected = cliRun(['--algorithm', 'zab', '--nodes', '7', '--seed', '2']);
  const query = '/?algorithm=zab&nodes=7&seed=2&observers=4&at=end';
  const withObservers = cliRunScenario({ version: 1, algorithm: 'zab', nodes: 7, seed: 2, observers: 4 });
  const { page, errors } = await openPlayground(browser, query);
  await assertCounts(page, withObservers);
  assert.ok(withObservers.messages.election < expected.messages.election, 'fewer voters, fewer election messages');
  await page.close();

  const plain = await openPlayground(browser, '/?algorithm=zab&nodes=7&seed=2&at=end');
  await assertCounts(plain.page, expected);
  const legend = await plain.page.$$eval('#roles li:not([hidden])', (items) => items.map((li) => li.textContent));
  assert.ok(!legend.some((t) => t?.startsWith('observer')), legend.join(' | '));
  assert.deepEqual([...errors, ...plain.errors], []);
  await plain.page.close();
});
