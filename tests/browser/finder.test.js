// "Find a failure" (www/finder/): the Bully/partition search in Web
// Workers finds the counterexample `election check` finds (the same
// scenario JSON, the same trace hash) and opens it at the moment of the
// violation; Cancel stops a search; a bad seed range is named next to
// its field and nothing runs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, pageAddress, settle, testId } from './page.js';
import { cliCheck, cliRunScenario } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * Opens the page and the finder's section, with `kinds` ticked alone.
 * @param {string} algorithm
 * @param {string[]} kinds
 */
async function openFinder(algorithm, kinds) {
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=2');
  await page.click('[data-testid=finder-open-section]');
  await page.waitForSelector('[data-testid=finder][data-loaded=true]');
  await page.selectOption('[data-testid=finder-algorithm]', algorithm);
  for (const box of await page.$$('[data-testid=finder-kinds] input')) {
    const name = await box.getAttribute('value');
    if (kinds.includes(name ?? '')) await box.check();
    else await box.uncheck();
  }
  return { page, errors };
}

test('the bully/partition search finds what election check finds and opens it at the violation', async () => {
  const cli = cliCheck(['--algorithm', 'bully', '--faults', 'partition', '--seeds', '1..200']);
  const expected = cli.counterexample;
  assert.equal(expected.property, 'split_brain');
  const { page, errors } = await openFinder('bully', ['partition']);
  await page.fill('[data-testid=finder-seeds]', '1..200');
  await page.click('[data-testid=finder-run]');
  await page.waitForSelector('[data-testid=finder][data-state=done]', { timeout: 60000 });
  const status = await testId(page, 'finder-status');
  // What the shrink tried is said, as the CLI says it (issue 29, item 19).
  assert.equal(
    status,
    `Split brain (split_brain) at 50 ms: n0 and n1 each lead their own side of the partition (split brain). Seed 1 shrunk to 2 nodes and 1 fault (the scenario's seed ${expected.scenario.seed}; ${expected.tried}); opened at the violation.`,
  );
  assert.match(expected.tried, /^shrunk in \d+ runs; tried 1\.\.2 nodes, 40 seeds and 2 start sets \(every node, nobody\) each: \d+ runs; none smaller$/);
  const found = await page.$eval('[data-testid=finder]', (d) => /** @type {HTMLElement} */ (d).dataset);
  assert.deepEqual(JSON.parse(found.scenario ?? ''), expected.scenario);
  assert.equal(found.link, expected.link);
  assert.equal(await page.$eval('[data-testid=finder-progress]', (p) => /** @type {HTMLProgressElement} */ (p).value), 200);

  // The single view now shows the counterexample at the violation: the
  // address is its link, the time is 50 ms, the violation is there and
  // the trace hash is the CLI's at that moment.
  await settle(page);
  const url = new URL(await pageAddress(page));
  assert.equal(`${url.search}${url.hash}`, expected.link);
  assert.equal(await testId(page, 'sim-time'), '50');
  assert.equal(await testId(page, 'violations'), '1');
  const atViolation = cliRunScenario(expected.scenario, ['--at', '50']);
  assert.equal(await testId(page, 'trace-hash'), atViolation.trace_hash);
  assert.equal(atViolation.violations[0].property, 'split_brain');
  assert.deepEqual(errors, []);
  await page.close();
});

test('cancel stops a search, and the next one runs', async () => {
  const { page, errors } = await openFinder('raft', ['crash', 'partition', 'pause']);
  await page.fill('[data-testid=finder-seeds]', '1..1000000');
  await page.click('[data-testid=finder-run]');
  await page.waitForSelector('[data-testid=finder][data-state=running]');
  await page.waitForFunction(() => /** @type {HTMLProgressElement} */ (document.querySelector('[data-testid=finder-progress]')).value > 0);
  await page.click('[data-testid=finder-cancel]');
  await page.waitForSelector('[data-testid=finder][data-state=idle]');
  const status = await testId(page, 'finder-status');
  assert.match(status, /^Cancelled after \d+ of 1000000 runs\.$/);
  const done = Number(/after (\d+) of/.exec(status)?.[1]);
  assert.ok(done > 0 && done < 1000000, status);
  assert.equal(await page.isDisabled('[data-testid=finder-cancel]'), true);
  await page.fill('[data-testid=finder-seeds]', '1..20');
  await page.click('[data-testid=finder-run]');
  await page.waitForSelector('[data-testid=finder][data-state=done]');
  assert.equal(await testId(page, 'finder-status'), 'No failure in 20 runs.');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad seed range is named next to its field and nothing runs', async () => {
  const { page, errors } = await openFinder('bully', ['partition']);
  await page.fill('[data-testid=finder-seeds]', '9..1');
  await page.click('[data-testid=finder-run]');
  const message = await testId(page, 'finder-seeds-error');
  assert.equal(message, 'Seeds: the range 9..1 is empty: the first seed must not be above the last (both ends are included)');
  assert.equal(await page.getAttribute('[data-testid=finder-seeds]', 'aria-invalid'), 'true');
  assert.equal(await page.$eval('[data-testid=finder]', (d) => /** @type {HTMLElement} */ (d).dataset.state), 'idle');
  assert.equal(await page.$eval('[data-testid=finder-progress]', (p) => /** @type {HTMLProgressElement} */ (p).value), 0);
  // Typing again takes the message away.
  await page.fill('[data-testid=finder-seeds]', '1..3');
  assert.equal(await page.isHidden('[data-testid=finder-seeds-error]'), true);
  assert.deepEqual(errors, []);
  await page.close();
});
