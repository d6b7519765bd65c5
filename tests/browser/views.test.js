// The views around the cluster: the space-time diagram draws one arrow per
// message of a known run and clicking it seeks; the event log filters by
// node and by kind; the metrics panel shows exactly what `election run
// --json` reports; a split brain raises an alert banner whose "Jump to the
// moment" goes to the violation; the side panel's tabs work by keyboard;
// narration speaks role changes; nothing overflows at 360 px. No console
// errors anywhere.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, playUntil, readouts } from './page.js';
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
 * Bully, 6 nodes: the leader n5 crashes at 50 ms, n4 takes over; at 300 ms
 * a partition cuts {n0, n1, n2} off, which elects n2: split brain.
 */
const SPLIT = {
  version: 1,
  algorithm: 'bully',
  nodes: 6,
  seed: 3,
  faults: [
    { at_ms: 50, crash: 5 },
    { at_ms: 300, partition: [[0, 1, 2]] },
  ],
  until_ms: 900,
};

/**
 * The diagram's data attributes (what it drew).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<Record<string, string>>}
 */
async function drawn(page) {
  return page.$eval('[data-testid="spacetime"]', (c) => ({ .../** @type {HTMLElement} */ (c).dataset }));
}

/**
 * The number in a `data-testid` element.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
async function numberOf(page, id) {
  return Number(((await page.textContent(`[data-testid="${id}"]`)) ?? '').trim());
}

test('the space-time diagram draws an arrow per message of a Chang-Roberts run', async () => {
  const expected = cliRun([
    '--algorithm', 'chang-roberts', '--nodes', '8', '--seed', '3', '--ring', 'descending', '--start', 'all',
  ]);
  // n(n+1)/2 ELECTION messages plus one ELECTED lap of n, and the new
  // leader's first heartbeats; all delivered.
  assert.equal(expected.messages.election, 36 + 8);
  assert.equal(expected.messages.in_flight, 0);
  assert.equal(expected.messages.dropped, 0);
  const { page, errors } = await openPlayground(
    browser,
    '/?algorithm=chang-roberts&nodes=8&seed=3&ring=descending&start=all&at=end',
  );
  await page.click('#st-fit');
  assert.equal(await page.getAttribute('#st-fit', 'aria-pressed'), 'true');
  const d = await drawn(page);
  assert.equal(Number(d.arrows), expected.messages.sent, 'one arrow per message sent');
  assert.equal(Number(d.lost), 0);
  assert.equal(Number(d.windowStart), 0);
  assert.ok(Number(d.windowEnd) >= expected.end_ms, 'the whole run is in view');
  assert.ok(Number(d.roles) >= 8, 'every node changes role at least once');
  // The text alternative changes at most every 400 ms (spacetime/view.js
  // `publish`): the end, reached in pieces after the page opened at 0 ms,
  // may be written a moment after it is drawn.
  const counted = `${expected.messages.sent} messages (0 lost)`;
  const said = await page
    .waitForFunction((c) => document.querySelector('[data-testid="spacetime"]')?.getAttribute('aria-label')?.includes(c), counted, { timeout: 5000 })
    .then(() => true, () => false);
  const label = (await page.getAttribute('[data-testid="spacetime"]', 'aria-label')) ?? '';
  assert.ok(said, `the text alternative counts them too: ${label}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('clicking the diagram seeks there; what comes after is kept as the known future', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&at=end');
  await page.click('#st-fit');
  const before = await drawn(page);
  const end = (await readouts(page)).time;
  const start = Number(before.windowStart);
  const span = Number(before.windowEnd) - start;
  const left = Number(before.plotLeft);
  const width = Number(before.plotWidth);
  // Aim at 40% of the way along the time axis.
  const target = start + 0.4 * span;
  const x = left + 0.4 * width;
  const canvas = page.locator('[data-testid="spacetime"]');
  const box = await canvas.boundingBox();
  assert.ok(box);
  await canvas.click({ position: { x, y: box.height / 2 } });
  const now = (await readouts(page)).time;
  const pixel = span / width;
  assert.ok(Math.abs(now - target) <= 2 * pixel, `sim-time ${now} should be about ${target}`);
  assert.ok(now < end);
  const afterClick = await drawn(page);
  assert.ok(Number(afterClick.arrows) < Number(before.arrows), 'arrows after the moment are only the faded future');
  assert.equal(afterClick.windowEnd, before.windowEnd, 'the whole run stays in view');

  // Keyboard: focused, ← goes back a twentieth of the window.
  await page.focus('[data-testid="spacetime"]');
  await page.keyboard.press('ArrowLeft');
  const back = (await readouts(page)).time;
  assert.ok(Math.abs(back - Math.max(0, now - span / 20)) < 0.01, `← went to ${back}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('zoom buttons change the span around now', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&at=end');
  const span = async () => {
    const d = await drawn(page);
    return Number(d.windowEnd) - Number(d.windowStart);
  };
  const first = await span();
  await page.click('#st-zoom-out');
  assert.ok((await span()) > first);
  await page.click('#st-zoom-in');
  await page.click('#st-zoom-in');
  assert.ok((await span()) < first);
  const now = (await readouts(page)).time;
  const d = await drawn(page);
  assert.ok(Number(d.windowStart) <= now && now <= Number(d.windowEnd), 'now stays in view');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the event log filters by node and by kind', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&at=end');
  const lines = () =>
    page.$$eval('#log li', (items) =>
      items.map((li) => ({ text: li.querySelector('.ev-text')?.textContent ?? '', cls: li.className })),
    );
  const all = await lines();
  assert.ok(all.length > 20);

  await page.selectOption('[data-testid="log-node"]', '2');
  const n2 = await lines();
  assert.ok(n2.length > 0 && n2.length < all.length, `${n2.length} lines about n2`);
  for (const line of n2) assert.match(line.text, /\bn2\b/, line.text);

  await page.selectOption('[data-testid="log-kind"]', 'role');
  const roles = await lines();
  assert.ok(roles.length > 0);
  for (const line of roles) {
    assert.match(line.cls, /\bev-role\b/);
    assert.match(line.text, /\bn2 becomes\b/, line.text);
  }

  // The messages of one kind, from every node.
  await page.selectOption('[data-testid="log-node"]', 'all');
  const kinds = await page.$$eval('[data-testid="log-kind"] option', (os) =>
    os.map((o) => [/** @type {HTMLOptionElement} */ (o).value, o.textContent]),
  );
  const coordinator = kinds.find(([, text]) => text === 'COORDINATOR messages');
  assert.ok(coordinator, JSON.stringify(kinds));
  await page.selectOption('[data-testid="log-kind"]', coordinator[0]);
  const messages = await lines();
  assert.ok(messages.length > 0);
  for (const line of messages) {
    assert.match(line.cls, /\btraffic\b/);
    assert.match(line.text, /COORDINATOR/, line.text);
  }

  // Traffic off with everything: only decisions remain.
  await page.selectOption('[data-testid="log-kind"]', 'all');
  await page.uncheck('#log-traffic');
  const quiet = await lines();
  assert.ok(quiet.length > 0);
  for (const line of quiet) assert.doesNotMatch(line.cls, /\btraffic\b/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the metrics panel shows what `election run --json` reports', async () => {
  const expected = cliRunScenario(SPLIT);
  assert.ok(expected.leaderless_ms > 0 && expected.split_brain_ms > 0, 'the scenario has both');
  const { page, errors } = await openPlayground(browser, `/?at=end#s=${encodeShare(SPLIT)}`);
  await page.click('[data-testid="tab-metrics"]');
  assert.equal(await page.isVisible('[data-testid="metric-election"]'), true);
  assert.equal(await numberOf(page, 'metric-sent'), expected.messages.sent);
  assert.equal(await numberOf(page, 'metric-election'), expected.messages.election);
  assert.equal(await numberOf(page, 'metric-background'), expected.messages.background);
  assert.equal(await numberOf(page, 'metric-dropped'), expected.messages.dropped);
  assert.equal(await numberOf(page, 'metric-leaderless-ms'), expected.leaderless_ms);
  assert.equal(await numberOf(page, 'metric-split-brain-ms'), expected.split_brain_ms);
  assert.equal(await numberOf(page, 'metric-first-leader-ms'), expected.first_leader_ms);
  assert.equal(await numberOf(page, 'metric-elections'), expected.elections);
  assert.equal(await numberOf(page, 'metric-leader-changes'), expected.leader_changes);
  assert.equal(await numberOf(page, 'metric-recovery-ms'), expected.recovery_ms);
  assert.equal(await numberOf(page, 'metric-last-fault-ms'), 300);
  for (const [kind, count] of Object.entries(expected.messages.by_kind)) {
    assert.equal(await numberOf(page, `metric-kind-${kind}`), count, kind);
  }
  // Bully has no fenced resource: no writes to show.
  assert.equal(await page.isVisible('[data-testid="metric-writes-accepted"]'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('metrics of Raft include the writes to its fenced resource', async () => {
  const expected = cliRun(['--algorithm', 'raft', '--nodes', '5', '--seed', '1', '--until-ms', '2000']);
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=1&until_ms=2000&at=end');
  await page.click('[data-testid="tab-metrics"]');
  assert.equal(await page.isVisible('[data-testid="metric-writes-accepted"]'), true);
  assert.equal(await numberOf(page, 'metric-writes-accepted'), expected.writes.accepted);
  assert.equal(await numberOf(page, 'metric-writes-rejected'), expected.writes.rejected);
  assert.equal(await numberOf(page, 'metric-stale-writes'), expected.writes.stale_accepted);
  assert.equal(await numberOf(page, 'metric-election'), expected.messages.election);
  assert.equal(await numberOf(page, 'metric-background'), expected.messages.background);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a partition raises the split-brain alert; "Jump to the moment" seeks to it', async () => {
  const expected = cliRunScenario(SPLIT);
  assert.equal(expected.violations.length, 1);
  const violation = expected.violations[0];
  assert.equal(violation.property, 'split_brain');
  const { page, errors } = await openPlayground(browser, `/?at=end#s=${encodeShare(SPLIT)}`);
  const banner = page.locator('[data-testid="alert-banner"]');
  assert.equal(await banner.isVisible(), true);
  assert.equal(await banner.getAttribute('data-property'), 'split_brain');
  assert.equal(await page.getAttribute('#alert-region', 'role'), 'alert');
  const text = (await banner.textContent()) ?? '';
  assert.match(text, /Split brain/);
  assert.ok(text.includes(violation.detail), 'the core’s own words');
  assert.match(text, /Why this matters/);

  await page.click('[data-testid="alert-jump"]');
  assert.equal((await readouts(page)).time, violation.at_ms);
  assert.equal(await numberOf(page, 'violations'), 1, 'the violation happened at that moment');
  assert.equal(await banner.isVisible(), true, 'the banner stays while it applies');

  // Before it, it has not happened: no banner.
  await page.$eval(
    '#timeline',
    (el, to) => {
      const input = /** @type {HTMLInputElement} */ (el);
      input.value = String(to);
      input.dispatchEvent(new Event('input'));
    },
    violation.at_ms - 10,
  );
  assert.equal(await page.locator('[data-testid="alert-banner"]').count(), 0);
  await page.click('#to-end');
  assert.equal(await banner.isVisible(), true);

  // Dismissed, it goes; the list of alerts keeps it.
  await page.click('[data-testid="alert-dismiss"]');
  assert.equal(await page.locator('[data-testid="alert-banner"]').count(), 0);
  assert.equal(await page.locator('[data-testid="alerts"] li').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the side panel tabs work by keyboard and "All alerts" opens the list', async () => {
  const { page, errors } = await openPlayground(browser, `/?at=end#s=${encodeShare(SPLIT)}`);
  assert.equal(await page.getAttribute('[data-testid="tab-now"]', 'aria-selected'), 'true');
  await page.focus('[data-testid="tab-now"]');
  const before = (await readouts(page)).time;
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('[data-testid="tab-metrics"]', 'aria-selected'), 'true');
  assert.equal(await page.isVisible('#metrics'), true);
  assert.equal(await page.isVisible('[data-testid="sim-time"]'), false);
  assert.equal((await readouts(page)).time, before, '→ on a tab does not step the run');
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute('[data-testid="tab-node"]', 'aria-selected'), 'true');
  await page.click('[data-testid="alert-all"]');
  assert.equal(await page.getAttribute('[data-testid="tab-now"]', 'aria-selected'), 'true');
  assert.equal(await page.isVisible('[data-testid="alerts"]'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('narration says who becomes leader as the run plays, politely', async () => {
  // Nobody starts: the first election follows a timeout, while playing.
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&start=none&at=0');
  assert.equal(await page.getAttribute('[data-testid="live-narration"]', 'aria-live'), 'polite');
  await page.$eval('#speed', (el) => {
    const input = /** @type {HTMLInputElement} */ (el);
    input.value = '0';
    input.dispatchEvent(new Event('input'));
  });
  await page.click('#play');
  await playUntil(page, () => /becomes leader/.test(document.querySelector('[data-testid="live-narration"]')?.textContent ?? ''), null, {
    maxMs: 10000,
  });
  await page.click('#play');
  const said = (await page.textContent('[data-testid="live-narration"]')) ?? '';
  assert.match(said, /n5 becomes leader/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 360 px the views fit the width', async () => {
  const { page, errors } = await openPlayground(
    browser,
    `/?at=end#s=${encodeShare(SPLIT)}`,
    { width: 360, height: 740 },
  );
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `page is ${overflow} px wide`);
  const box = await page.locator('[data-testid="spacetime"]').boundingBox();
  assert.ok(box && box.width > 250 && box.x >= 0 && box.x + box.width <= 360);
  assert.equal(await page.locator('[data-testid="alert-banner"]').isVisible(), true);
  assert.equal(Number((await drawn(page)).arrows) > 0, true);
  assert.deepEqual(errors, []);
  await page.close();
});
