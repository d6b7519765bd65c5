// The Faults panel: every fault kind applied live from the page shows up
// (log line, node label or readout), lands in the share link, and the link
// reproduces the run; a partitioned Bully cluster shows split brain and
// heals to one leader; a lossy network drops messages; a bad value is
// refused with the core's error naming the field and changes nothing. And
// the drawing of partitions, cut links and service nodes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { devUrl, launchBrowser } from './helpers.js';
import { latestLog, openPlayground, pageAddress, readouts, ready, toEnd } from './page.js';
import { cliRunScenario, decodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/** A settled Bully cluster of 6: n5 leads. */
const BULLY6 = '/?algorithm=bully&nodes=6&seed=3&at=end';

/**
 * The text of a `data-testid` element.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @returns {Promise<string>}
 */
async function testId(page, id) {
  return ((await page.textContent(`[data-testid="${id}"]`)) ?? '').trim();
}

/**
 * What must not change when nothing happened, and must come back when a
 * link is reopened.
 * @param {import('playwright-core').Page} page
 */
async function fingerprint(page) {
  return {
    ...(await readouts(page)),
    hash: await testId(page, 'trace-hash'),
    dropped: await testId(page, 'messages-dropped'),
    violations: await testId(page, 'violations'),
  };
}

/**
 * Moves simulated time on by `ms` with the timeline.
 * @param {import('playwright-core').Page} page
 * @param {number} ms
 */
async function runFor(page, ms) {
  const now = (await readouts(page)).time;
  await page.$eval(
    '#timeline',
    (el, to) => {
      const input = /** @type {HTMLInputElement} */ (el);
      input.max = String(Math.max(Number(input.max), to));
      input.value = String(to);
      input.dispatchEvent(new Event('input'));
    },
    now + ms,
  );
}

/**
 * Whether a recent log line contains `text`.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 */
async function logged(page, text) {
  return (await latestLog(page, 200)).some((line) => line.includes(text));
}

/**
 * Shares, then reloads the link and checks the same moment comes back.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<any>} the shared scenario
 */
async function shareAndReload(page) {
  await page.click('#share');
  const url = await pageAddress(page);
  const shared = await fingerprint(page);
  await page.reload();
  await ready(page);
  assert.deepEqual(await fingerprint(page), shared, 'the link reopens the same moment');
  return decodeShare(url);
}

test('every fault kind from the panel shows up, lands in the link, and the link reproduces it', async () => {
  const { page, errors } = await openPlayground(browser, BULLY6);
  const t0 = (await readouts(page)).time;
  assert.equal((await readouts(page)).leader, '5');

  await page.selectOption('#fault-node', '2');
  assert.equal(await page.textContent('#fault-crash'), 'Crash n2', 'buttons name the chosen node');
  await page.click('#fault-crash');
  assert.equal(await testId(page, 'crashed-count'), '1');
  assert.ok(await logged(page, 'n2 crashes'));
  await page.click('#fault-recover');
  assert.equal(await testId(page, 'crashed-count'), '0');
  assert.ok(await logged(page, 'n2 recovers'));

  await page.selectOption('#fault-node', '1');
  await page.fill('#pause-ms', '5000');
  await page.click('#fault-pause');
  assert.ok(await logged(page, 'n1 pauses until'));
  assert.match((await page.getAttribute('[data-testid="node-1"]', 'aria-label')) ?? '', /paused/);

  await page.selectOption('#fault-node', '3');
  await page.fill('#slow-ms', '20');
  await page.click('#fault-slow');
  assert.ok(await logged(page, 'n3 handles each message 20 ms late'));
  assert.match((await page.getAttribute('[data-testid="node-3"]', 'aria-label')) ?? '', /slow \+20 ms/);

  await page.selectOption('#fault-node', '4');
  await page.fill('#flaky-period', '400');
  await page.fill('#flaky-down', '100');
  await page.fill('#flaky-for', '1000');
  await page.click('#fault-flaky');
  assert.ok(await logged(page, 'n4 crashes'), 'a flaky node goes down at once');

  await page.selectOption('#fault-node', '0');
  await page.fill('#clock-offset', '300');
  await page.fill('#clock-drift', '0.05');
  await page.click('#fault-clock');
  assert.ok(await logged(page, "n0's clock is set to offset 300 ms, drift 0.05"));

  await page.selectOption('#fault-node', '5');
  await page.selectOption('#cut-to', '0');
  await page.click('#fault-cut');
  assert.ok(await logged(page, 'link n5 -> n0 is cut'));
  await page.click('#fault-uncut');
  assert.ok(await logged(page, 'link n5 -> n0 is restored'));

  await page.check('[data-testid="side-0"]');
  await page.check('[data-testid="side-1"]');
  await page.click('#fault-partition');
  assert.ok(await logged(page, 'network splits into {n0, n1} | {n2, n3, n4, n5}'));
  await page.click('#fault-heal');
  assert.ok(await logged(page, 'network heals'));

  await page.fill('#net-latency-lo', '5');
  await page.fill('#net-latency-hi', '20');
  await page.fill('#net-drop', '0');
  await page.fill('#net-duplicate', '0.1');
  await page.click('#fault-network');
  assert.ok(await logged(page, 'network: latency 5-20 ms, drop 0, duplicate 0.1'));
  assert.equal(await page.isVisible('[data-testid="error"]'), false);
  assert.equal((await readouts(page)).time, t0, 'faults do not move time');

  await runFor(page, 700);
  const scenario = await shareAndReload(page);
  assert.deepEqual(
    scenario.faults.map((/** @type {any} */ f) => ({ ...f, at_ms: f.at_ms === t0 })),
    [
      { at_ms: true, crash: 2 },
      { at_ms: true, recover: 2 },
      { at_ms: true, pause: 1, for_ms: 5000 },
      { at_ms: true, slow: 3, extra_ms: 20 },
      { at_ms: true, flaky: 4, period_ms: 400, down_ms: 100, for_ms: 1000 },
      { at_ms: true, clock: 0, offset_ms: 300, drift: 0.05 },
      { at_ms: true, cut: [5, 0] },
      { at_ms: true, uncut: [5, 0] },
      { at_ms: true, partition: [[0, 1]] },
      { at_ms: true, heal: true },
      { at_ms: true, network: { latency_ms: [5, 20], drop: 0, duplicate: 0.1, fifo: true } },
    ],
    'every fault is in the link, at the moment it was made',
  );

  // The same scenario run natively ends where the page's run ends.
  await toEnd(page);
  const expected = cliRunScenario(scenario);
  assert.equal(await testId(page, 'trace-hash'), expected.trace_hash);
  assert.equal((await readouts(page)).messages, expected.messages.sent);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a partition of a Bully cluster gives two leaders and a split-brain violation; heal gives one', async () => {
  const { page, errors } = await openPlayground(browser, BULLY6);
  assert.equal(await testId(page, 'leaders'), '5');
  assert.equal(await testId(page, 'violations'), '0');
  assert.equal(await page.isVisible('[data-testid="alerts"]'), false);

  // Shift-click picks nodes for side A; it does not crash them.
  for (const id of [0, 1, 2]) {
    await page.click(`[data-testid="node-${id}"]`, { modifiers: ['Shift'] });
  }
  assert.equal(await testId(page, 'crashed-count'), '0', 'shift-click crashes nothing');
  assert.equal(await page.isChecked('[data-testid="side-2"]'), true);
  assert.match((await page.getAttribute('[data-testid="node-2"]', 'aria-label')) ?? '', /picked for side A/);
  await page.click('[data-testid="node-2"]', { modifiers: ['Shift'] });
  assert.equal(await page.isChecked('[data-testid="side-2"]'), false, 'a second shift-click unpicks');
  await page.click('[data-testid="node-2"]', { modifiers: ['Shift'] });
  await page.click('#fault-partition');
  assert.equal(await page.isChecked('[data-testid="side-2"]'), false, 'the picks are cleared once made');

  await toEnd(page);
  assert.equal(await testId(page, 'leaders'), '2, 5', 'each side elects its own leader');
  assert.equal((await readouts(page)).leader, 'none', 'no single leader');
  assert.equal(await testId(page, 'violations'), '1');
  const alerts = await testId(page, 'alerts');
  assert.match(alerts, /split_brain/);
  assert.match(alerts, /n2 and n5/);
  assert.ok(await logged(page, 'VIOLATION split_brain'));

  await page.click('#fault-heal');
  await toEnd(page);
  assert.equal(await testId(page, 'leaders'), '5', 'healed: one leader again');
  assert.equal((await readouts(page)).leader, '5');
  // The split-brain episode stays on record (the core may also report the
  // two old leaders meeting when the network heals, before one steps down).
  assert.ok(Number(await testId(page, 'violations')) >= 1);
  assert.match(await testId(page, 'alerts'), /split_brain/);

  const scenario = await shareAndReload(page);
  assert.deepEqual(
    scenario.faults.map((/** @type {any} */ f) => Object.keys(f).filter((k) => k !== 'at_ms')[0]),
    ['partition', 'heal'],
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a network change to drop = 1 makes every message dropped', async () => {
  const { page, errors } = await openPlayground(browser, BULLY6);
  const before = await fingerprint(page);
  assert.equal(await page.inputValue('#net-drop'), '0', 'the form shows the scenario network');
  assert.equal(await page.inputValue('#net-latency-hi'), '10');
  await page.fill('#net-drop', '1');
  await page.click('#fault-network');
  assert.ok(await logged(page, 'network: latency 5-10 ms, drop 1, duplicate 0'));

  await runFor(page, 500);
  const after = await fingerprint(page);
  const sent = after.messages - before.messages;
  const dropped = Number(after.dropped) - Number(before.dropped);
  assert.ok(sent > 0, 'the leader keeps sending heartbeats');
  assert.ok(dropped >= sent - 10, `nearly all of ${sent} new messages are dropped (${dropped})`);
  assert.ok(await logged(page, 'lost by the network'));

  const scenario = await shareAndReload(page);
  assert.equal(scenario.faults[0].network.drop, 1);
  assert.equal(await page.inputValue('#net-drop'), '1', 'the reopened link shows the network in force');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad value shows the core error naming the field and changes nothing', async () => {
  const { page, errors } = await openPlayground(browser, BULLY6);
  const before = await fingerprint(page);
  const box = page.locator('[data-testid="error"]');

  /** @type {[() => Promise<void>, string][]} */
  const cases = [
    [async () => { await page.fill('#net-drop', '2'); await page.click('#fault-network'); }, 'network.drop'],
    [async () => { await page.fill('#net-drop', '0'); await page.fill('#net-latency-lo', '20'); await page.click('#fault-network'); }, 'network.latency_ms'],
    [async () => { await page.fill('#net-latency-lo', '5'); await page.fill('#pause-ms', ''); await page.click('#fault-pause'); }, 'for_ms'],
    [async () => { await page.fill('#pause-ms', '-5'); await page.click('#fault-pause'); }, 'for_ms'],
    [async () => { await page.fill('#clock-drift', '20'); await page.click('#fault-clock'); }, 'drift'],
    [async () => { await page.fill('#flaky-down', '500'); await page.click('#fault-flaky'); }, 'down_ms'],
    [async () => { await page.selectOption('#fault-node', '3'); await page.selectOption('#cut-to', '3'); await page.click('#fault-cut'); }, 'cut'],
    [async () => { await page.click('#fault-partition'); }, 'tick the nodes of side A'],
  ];
  for (const [act, field] of cases) {
    await act();
    await page.waitForSelector('[data-testid="error"]:not([hidden])');
    const text = (await box.textContent()) ?? '';
    assert.ok(text.includes(field), `the error names ${field}: ${text}`);
    assert.deepEqual(await fingerprint(page), before, `nothing changed after a bad ${field}`);
  }
  // Enter in a field applies its fault (a real form); a good value clears the error.
  await page.fill('#pause-ms', '100');
  await page.focus('#pause-ms');
  await page.keyboard.press('Enter');
  assert.equal(await box.isVisible(), false);
  assert.ok(await logged(page, 'n3 pauses until'));
  await page.click('#share');
  assert.equal(decodeShare(await pageAddress(page)).faults.length, 1, 'only the good fault is in the scenario');
  assert.deepEqual(errors, [], 'no uncaught exception, no console error');
  await page.close();
});

test('the node chosen under Faults is pinned in the inspector; pointing at a node chooses it', async () => {
  const { page, errors } = await openPlayground(browser, BULLY6);
  await page.selectOption('#fault-node', '3');
  assert.equal(await page.textContent('#inspector-title'), 'Node n3');
  assert.ok(((await page.textContent('#inspector')) ?? '').length > 0);
  // A pointer moving onto the node (a first ever mouse event has no
  // movement, and the page ignores nodes scrolled under a resting pointer).
  await page.mouse.move(5, 5);
  await page.hover('[data-testid="node-1"]');
  assert.equal(await page.textContent('#inspector-title'), 'Node n1');
  assert.equal(await page.inputValue('#fault-node'), '1', 'the panel acts on the node last pointed at');
  await page.focus('[data-testid="node-4"]');
  assert.equal(await page.inputValue('#fault-node'), '4', 'and on the node last focused');
  assert.equal(await page.textContent('#fault-pause'), 'Pause n4');
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 360 px the Faults panel fits and works', async () => {
  const { page, errors } = await openPlayground(browser, BULLY6, { width: 360, height: 740 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width} px wide`);
  for (const id of ['fault-node', 'fault-crash', 'fault-pause', 'fault-flaky', 'cut-to', 'fault-partition', 'fault-network']) {
    const box = await page.locator(`#${id}`).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 360, `#${id} is on screen: ${JSON.stringify(box)}`);
  }
  await page.check('[data-testid="side-0"]');
  await page.click('#fault-partition');
  assert.ok(await logged(page, 'network splits into {n0} | {n1, n2, n3, n4, n5}'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('drawing: partition sides are shaded, service nodes are rounded squares, cut links are red, the service legend only shows when needed', async () => {
  const { page, errors } = await openPlayground(browser, BULLY6);
  assert.equal(await page.isVisible('#roles li:has-text("service")'), false, 'no service node, no service entry');
  assert.equal(await page.isVisible('#roles li:has-text("follower")'), true);

  // Draw a made-up moment with draw.js itself and read back pixels: the
  // built site bundles draw.js, so this is done in the development page
  // (the repository's modules, devUrl()).
  const dev = await openPlayground(browser, `${devUrl()}${BULLY6}`);
  const pixels = await dev.page.evaluate(async () => {
    const { drawScene, layoutNodes } = await import('/www/cluster/draw.js');
    const canvas = document.createElement('canvas');
    canvas.width = 400;
    canvas.height = 400;
    const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    const node = (/** @type {number} */ id, /** @type {string} */ role, group = 0) => ({
      id, alive: true, paused: false, role, term: null, leader: null, group, slowMs: 0,
    });
    const g = layoutNodes(400, 400, 3, 'cluster', [], 2);
    /** @type {any} */
    const snapshot = {
      nowMs: 0,
      nodes: [node(0, 'follower', 0), node(1, 'follower', 1), node(2, 'service', 1)],
      flights: { rows: new Float64Array(0), width: 7, col: {} },
      kinds: [],
      sentByKind: [],
      messagesSent: 0,
      messagesDropped: 0,
      violationCount: 0,
      traceHash: '',
      leader: undefined,
      leaders: [],
      cuts: [[0, 1]],
      ring: [],
      layout: 'cluster',
      participants: 2,
    };
    drawScene(ctx, g, snapshot);
    const at = (/** @type {number} */ x, /** @type {number} */ y) =>
      Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data);
    const r = g.radius;
    const service = g.at[2];
    const follower = g.at[0];
    // Near the corner of the square, outside a circle of the same size.
    const corner = [r * 0.75, r * 0.75];
    // The cut link's dashed arrow ends at n1's edge; its head is solid.
    const a = g.at[0];
    const b = g.at[1];
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const [ux, uy] = [(b.x - a.x) / len, (b.y - a.y) / len];
    const shift = Math.min(6, r * 0.35);
    const head = { x: b.x - ux * (r + 3 + 5) - uy * shift, y: b.y - uy * (r + 3 + 5) + ux * shift };
    return {
      centreInMiddle: service.x === 200 && service.y === 200,
      serviceCorner: at(service.x + corner[0], service.y + corner[1]),
      followerCorner: at(follower.x + corner[0], follower.y + corner[1]),
      cutHead: at(head.x, head.y),
      // Beside n0, inside its side's shaded region.
      sideA: at(follower.x - r * 1.25, follower.y),
    };
  });
  assert.deepEqual(dev.errors, []);
  await dev.page.close();
  assert.ok(pixels.centreInMiddle, 'an extra node sits in the middle');
  assert.deepEqual(pixels.serviceCorner.slice(0, 3), [0xcc, 0x79, 0xa7], 'the service fills its corner (a square)');
  assert.notDeepEqual(pixels.followerCorner.slice(0, 3), [0x00, 0x9e, 0x73], 'a follower is round');
  assert.deepEqual(pixels.cutHead.slice(0, 3), [0xd5, 0x5e, 0x00], 'the cut arrow is red (vermillion)');
  const [red, green, blue, alpha] = pixels.sideA;
  assert.ok(alpha > 10 && alpha < 80 && blue > red && blue > green, `side A is shaded pale blue: ${pixels.sideA}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a coordination service is listed, drawn and can be broken like any node', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=zookeeper&nodes=5&seed=3&at=end');
  assert.equal(await page.isVisible('#roles li:has-text("service")'), true, 'the legend names the role');
  assert.match((await page.getAttribute('[data-testid="node-5"]', 'aria-label')) ?? '', /^n5, service/);
  // The service sits in the middle of the cluster, inside the circle of members.
  const service = await page.locator('[data-testid="node-5"]').boundingBox();
  const canvas = await page.locator('#cluster').boundingBox();
  assert.ok(service && canvas);
  const middle = { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 };
  assert.ok(Math.abs(service.y + service.height / 2 - middle.y) < 2, 'on the middle line');
  assert.ok(Math.abs(service.x + service.width / 2 - middle.x) < canvas.width / 4, 'near the middle');
  // The panel lists it too, and a partition may cut it off from its clients.
  assert.equal(await page.locator('#fault-node option').count(), 7);
  await page.check('[data-testid="side-5"]');
  await page.check('[data-testid="side-6"]');
  await page.click('#fault-partition');
  assert.ok(await logged(page, 'network splits into {n5, n6} | {n0, n1, n2, n3, n4}'));
  assert.deepEqual(errors, []);
  await page.close();
});
