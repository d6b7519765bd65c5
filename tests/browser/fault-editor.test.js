// The fault timeline editor: adding a crash of the leader at a time, moving
// it (typing its time, dragging its marker, its arrow keys) and deleting it
// each re-run the scenario, land in the share link, and change the outcome
// exactly as the CLI computes it for the linked scenario; a bad value is
// refused naming the field with the run kept; the editor fits a phone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, pageAddress, readouts, ready, testId, toEnd } from './page.js';
import { cliRunScenario, decodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * The scenario in the page's address (the share link).
 * @param {import('playwright-core').Page} page
 */
async function linked(page) {
  return decodeShare(await pageAddress(page));
}

/**
 * Runs to the end and checks the page against the CLI for the linked
 * scenario; returns the CLI summary.
 * @param {import('playwright-core').Page} page
 */
async function endMatchesCli(page) {
  const scenario = await linked(page);
  // From the start: a run edited after its old end may already be past
  // its new one, and To end does not go back.
  await page.click('#restart');
  await toEnd(page);
  const expected = cliRunScenario(scenario);
  assert.equal(await testId(page, 'trace-hash'), expected.trace_hash, JSON.stringify(scenario.faults));
  assert.equal(await testId(page, 'leader'), expected.leader === null ? 'none' : String(expected.leader));
  return expected;
}

test('add, move (typed, dragged, arrow keys) and delete a fault: link and outcome follow, as in the CLI', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=1&at=end');
  assert.equal(await testId(page, 'leader'), '4');
  const end = (await readouts(page)).time;
  await page.click('.fe-details > summary');

  // Add: crash the leader at 300 ms.
  await page.selectOption('[data-testid="fault-kind"]', 'crash');
  await page.selectOption('[data-testid="fault-target"]', 'leader');
  await page.fill('[data-testid="fault-at"]', '300');
  await page.click('[data-testid="fault-add-button"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="fault-row"]').length === 1);
  assert.deepEqual((await linked(page)).faults, [{ at_ms: 300, crash: 'leader' }]);
  // Reopened at the same moment, paused.
  assert.equal((await readouts(page)).time, end);
  assert.equal(await testId(page, 'fault-text'), 'crash the leader');
  // The address is a link to this moment of the edited run.
  assert.match(await pageAddress(page), new RegExp(`[?&]at=${end}#s=1\\.`));
  const shared = { ...(await readouts(page)), hash: await testId(page, 'trace-hash') };
  const other = await browser.newPage();
  await other.goto(await pageAddress(page));
  await ready(other);
  assert.deepEqual({ ...(await readouts(other)), hash: await testId(other, 'trace-hash') }, shared);
  await other.close();
  const crashed = await endMatchesCli(page);
  assert.equal(crashed.leader, 3);

  // Move by typing the time.
  await page.fill('[data-testid="fault-time"]', '120');
  await page.press('[data-testid="fault-time"]', 'Enter');
  await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid="fault-time"]'))?.value === '120');
  assert.deepEqual((await linked(page)).faults, [{ at_ms: 120, crash: 'leader' }]);
  const moved = await endMatchesCli(page);
  assert.notEqual(moved.trace_hash, crashed.trace_hash);

  // Drag the marker to the middle of the strip.
  const strip = await page.$eval('[data-testid="fault-strip"]', (s) => {
    const r = s.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  const scale = Number(await page.$eval('#timeline', (t) => /** @type {HTMLInputElement} */ (t).max));
  const marker = await page.$eval('[data-testid="fault-marker"]', (m) => {
    const r = m.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  await page.mouse.move(marker.x, marker.y);
  await page.mouse.down();
  await page.mouse.move(strip.x + strip.width / 2, marker.y, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => !(document.querySelector('[data-testid="fault-marker"]')?.getAttribute('title') ?? '').endsWith(' at 120 ms'));
  const dragged = (await linked(page)).faults[0].at_ms;
  assert.equal(dragged, Math.round(scale / 2), `dragged to ${dragged} of ${scale}`);
  await endMatchesCli(page);

  // Arrow keys on the marker move it by a step (and do not step the run).
  const beforeKey = (await readouts(page)).time;
  await page.focus('[data-testid="fault-marker"]');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((t) => {
    const m = document.querySelector('[data-testid="fault-marker"]');
    return m && !(m.getAttribute('title') ?? '').endsWith(` at ${t} ms`);
  }, dragged);
  const keyed = (await linked(page)).faults[0].at_ms;
  assert.ok(keyed < dragged, `${keyed} < ${dragged}`);
  assert.equal((await readouts(page)).time, beforeKey);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'fault-marker');

  // Delete: back to the run without faults.
  await page.click('[data-testid="fault-delete"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="fault-row"]').length === 0);
  assert.deepEqual((await linked(page)).faults, []);
  const none = await endMatchesCli(page);
  assert.equal(none.leader, 4);
  assert.deepEqual(errors, []);
  await page.close();
});

test('every kind can be added from the form; a bad value names the field and keeps the run', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=2&at=200');
  await page.click('.fe-details > summary');
  const add = async (kind, fields = {}) => {
    await page.selectOption('[data-testid="fault-kind"]', kind);
    for (const [selector, value] of Object.entries(fields)) {
      if (selector.startsWith('select')) await page.selectOption(selector.slice(6), value);
      else await page.fill(selector, value);
    }
    await page.click('[data-testid="fault-add-button"]');
  };
  await add('pause', { 'select[data-testid="fault-target"]': '2', '[data-testid="fault-at"]': '500', '#fe-p-for_ms': '250' });
  await add('partition', { '[data-testid="fault-side"]': '0, 1', '[data-testid="fault-at"]': '600' });
  await add('heal', { '[data-testid="fault-at"]': '900' });
  await add('cut', { 'select[data-testid="fault-target"]': '3', 'select[data-testid="fault-to"]': '4', '[data-testid="fault-at"]': '700' });
  await add('network', { '[data-testid="fault-at"]': '1000', '#fe-p-drop': '0.1' });
  await add('clock', { 'select[data-testid="fault-target"]': 'leader' });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="fault-row"]').length === 6);
  assert.deepEqual((await linked(page)).faults, [
    { at_ms: 500, pause: 2, for_ms: 250 },
    { at_ms: 600, partition: [[0, 1]] },
    { at_ms: 900, heal: true },
    { at_ms: 700, cut: [3, 4] },
    { at_ms: 1000, network: { latency_ms: [5, 10], drop: 0.1, duplicate: 0, fifo: true } },
    { at_ms: 200, clock: 'leader', offset_ms: 300, drift: 0.05 },
  ]);
  // Listed in time order.
  assert.deepEqual(await page.$$eval('[data-testid="fault-time"]', (xs) => xs.map((x) => /** @type {HTMLInputElement} */ (x).value)), [
    '200',
    '500',
    '600',
    '700',
    '900',
    '1000',
  ]);
  await endMatchesCli(page);

  // A bad value: refused by the core, naming the field; nothing changes.
  const before = { url: (await pageAddress(page)), ...(await readouts(page)), hash: await testId(page, 'trace-hash') };
  await add('slow', { 'select[data-testid="fault-target"]': '1', '[data-testid="fault-at"]': '50', '#fe-p-extra_ms': '-5' });
  await page.waitForSelector('[data-testid="error"]:not([hidden])');
  assert.match(await testId(page, 'error'), /faults\[6\]\.extra_ms/);
  assert.deepEqual({ url: (await pageAddress(page)), ...(await readouts(page)), hash: await testId(page, 'trace-hash') }, before);
  assert.equal(await page.$$eval('[data-testid="fault-row"]', (rows) => rows.length), 6);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the editor works on a 360 px screen without scrolling sideways', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&at=300', { width: 360, height: 740 });
  await page.click('[data-testid="node-5"]');
  await page.click('.fe-details > summary');
  await page.selectOption('[data-testid="fault-kind"]', 'flaky');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360);
  const boxes = await page.$$eval('.fe-details input, .fe-details select, .fe-details button', (els) =>
    els.filter((e) => /** @type {HTMLElement} */ (e).offsetParent !== null).map((e) => e.getBoundingClientRect().right),
  );
  assert.ok(boxes.length >= 8);
  for (const right of boxes) assert.ok(right <= 360, `a control ends at ${right}`);
  assert.equal(await testId(page, 'fault-text'), 'crash the leader', 'n5 led: its click crashes "leader"');
  assert.equal(await page.inputValue('[data-testid="fault-time"]'), '300');
  assert.deepEqual(errors, []);
  await page.close();
});
