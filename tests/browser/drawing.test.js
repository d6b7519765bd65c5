// What the cluster and the space-time diagram draw (issue 15, items 2 and
// 3), read from their drawing models (`__drawn` on the canvases, written
// by the drawing code while a test holds the page's clock): messages in
// flight are arrows of the wasm's kinds, fanning out from the sender's
// edge at the moment of sending; every node with a pending timer shows a
// countdown arc of its class, a crashed node none; nodes and labels grow
// with the canvas and the node buttons with them; a lost message's cross
// is on its own line in the space-time diagram, where the CLI's trace
// says it was lost. No console errors anywhere.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { baseUrl, devUrl, launchBrowser } from './helpers.js';
import { openPlayground, settle } from './page.js';
import { cliRun } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * The cluster's drawing model (www/cluster/layers.js `ClusterDrawn`).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<any>}
 */
async function clusterDrawn(page) {
  await settle(page);
  return page.$eval('#cluster', (c) => /** @type {any} */ (c).__drawn ?? null);
}

/**
 * What the wasm lists: the kinds of an algorithm and the timer classes,
 * from the repository's wasm module (the built site bundles its glue, so
 * it is asked in a page of the repository's server, `devUrl()`; dist/
 * ships the same wasm file).
 * @param {import('playwright-core').Page} page a page of the test, for its context
 * @param {string} algorithm
 * @returns {Promise<{kinds: string[], timers: string[]}>}
 */
async function wasmNames(page, algorithm) {
  const dev = await page.context().newPage();
  await dev.goto(`${devUrl()}/tests/browser/fixtures/embed-host.html`);
  const names = await dev.evaluate(async (id) => {
    // The tools module (every player module lists the same algorithms and names).
    const wasm = await import('/www/pkg/election_web.js');
    await wasm.default();
    const algo = wasm.algorithms().find((/** @type {any} */ a) => a.id === id);
    return { kinds: algo.kinds, timers: wasm.timer_classes().map((/** @type {any} */ t) => t.name) };
  }, algorithm);
  await dev.close();
  return names;
}

test('messages in flight are arrows of the wasm kinds, listed in the legend, fanning out from the sender', async () => {
  // Bully, 6 nodes, 5 ms in: the election's messages are on the wire.
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&at=5');
  const drawn = await clusterDrawn(page);
  const { kinds } = await wasmNames(page, 'bully');
  assert.ok(drawn, 'the cluster wrote its drawing model');
  assert.equal(drawn.shape, 'arrows');
  assert.ok(drawn.arrows > 0, `arrows: ${drawn.arrows}`);
  const byKind = Object.entries(drawn.arrowsByKind);
  assert.ok(byKind.length > 0);
  for (const [kind] of byKind) assert.ok(kinds.includes(kind), `${kind} is one of ${kinds}`);
  assert.equal(
    byKind.reduce((sum, [, n]) => sum + Number(n), 0),
    drawn.arrows,
  );
  assert.deepEqual(
    await page.$$eval('[data-testid="cluster-kinds"] li', (lis) => lis.map((li) => /** @type {HTMLElement} */ (li).dataset.kind)),
    kinds,
  );
  // Every arrow points from its sender to its receiver and lies outside both.
  const r = drawn.radius;
  for (const a of drawn.tips) {
    const from = drawn.centres[a.from];
    const to = drawn.centres[a.to];
    const along = (/** @type {number} */ x, /** @type {number} */ y) =>
      ((x - from.x) * (to.x - from.x) + (y - from.y) * (to.y - from.y)) / Math.hypot(to.x - from.x, to.y - from.y);
    assert.ok(along(a.hx, a.hy) > along(a.tx, a.ty), 'the head is nearer the receiver than the tail');
    assert.ok(Math.hypot(a.tx - from.x, a.ty - from.y) >= r, 'the tail is outside the sender');
    assert.ok(Math.hypot(a.hx - to.x, a.hy - to.y) >= r, 'the head is outside the receiver');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('at the moment of sending, arrows start at the sender edge in their own directions', async () => {
  // At 0 every Bully node sends ELECTION to each higher id (1 µs later they
  // are all on the wire, none has moved a pixel).
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&start=all&at=0.001');
  const drawn = await clusterDrawn(page);
  assert.ok(drawn.arrows >= 5, `arrows: ${drawn.arrows}`);
  const r = drawn.radius;
  const tails = drawn.tips.filter((/** @type {any} */ a) => a.from === 0);
  assert.ok(tails.length >= 2, 'n0 sends to several nodes at once');
  for (const a of tails) {
    const d = Math.hypot(a.tx - drawn.centres[0].x, a.ty - drawn.centres[0].y);
    assert.ok(d >= r && d <= r + 8, `tail at ${d.toFixed(1)} px from n0's centre (radius ${r.toFixed(1)})`);
  }
  // Their heads do not cover each other.
  for (let i = 0; i < tails.length; i++) {
    for (let j = i + 1; j < tails.length; j++) {
      const gap = Math.hypot(tails[i].hx - tails[j].hx, tails[i].hy - tails[j].hy);
      assert.ok(gap > 4, `heads ${gap.toFixed(1)} px apart`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('node labels are drawn over the message arrows, legible: an arrow leaving a node passes under its role', async () => {
  // Issue 29: arrows were painted over "n8" and "candidate · t1". Just
  // after 0 ms n0 (at the top) sends ELECTION to every higher id: the
  // arrows leave its lower edge straight through "candidate" under it.
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=1&at=0.1');
  const drawn = await clusterDrawn(page);
  const canvas = await page.$eval('#cluster', (c) => {
    const box = c.getBoundingClientRect();
    return { x: box.left + window.scrollX, y: box.top + window.scrollY };
  });
  const c0 = drawn.centres[0];
  // The role's line under n0 (layoutNodes: 3 px under the node, `font` px).
  const clip = {
    x: Math.round(canvas.x + c0.x - 45),
    y: Math.round(canvas.y + c0.y + drawn.radius + 2),
    width: 90,
    height: Math.round(drawn.font * 1.3),
  };
  const shot = async () => PNG.sync.read(await page.screenshot({ clip }));
  const moving = (/** @type {string} */ v) => page.$eval('.cluster-moving', (c, vis) => { /** @type {HTMLElement} */ (c).style.visibility = vis; }, v);
  await moving('hidden');
  const alone = await shot();
  await moving('visible');
  const over = await shot();
  /** @param {PNG} png @param {number} i */
  const rgb = (png, i) => [png.data[i], png.data[i + 1], png.data[i + 2]];
  let ink = 0;
  let crossed = 0;
  let hidden = 0;
  for (let i = 0; i < alone.data.length; i += 4) {
    const a = rgb(alone, i);
    const b = rgb(over, i);
    const differs = Math.max(...a.map((v, k) => Math.abs(v - b[k]))) > 40;
    if (differs) crossed += 1;
    if (0.299 * a[0] + 0.587 * a[1] + 0.114 * a[2] < 110) {
      ink += 1;
      if (differs) hidden += 1;
    }
  }
  assert.ok(ink > 30, `the label's letters are there: ${ink} px of ink`);
  assert.ok(crossed > 20, `an arrow crosses the label's line: ${crossed} px differ`);
  assert.equal(hidden, 0, `no letter pixel is covered by an arrow (${hidden} of ${ink})`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('each node with a pending timer shows its countdown arc, of a wasm timer class; a crashed node none', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=3&at=300');
  const { timers } = await wasmNames(page, 'raft');
  let drawn = await clusterDrawn(page);
  assert.deepEqual([...drawn.arcNodes].sort(), [0, 1, 2, 3, 4]);
  assert.equal(drawn.arcs, 5);
  for (const cls of Object.keys(drawn.arcsByClass)) assert.ok(timers.includes(cls), `${cls} is one of ${timers}`);
  // Raft: the leader's heartbeat, the followers' election timeouts.
  assert.deepEqual(drawn.arcsByClass, { election_timeout: 4, heartbeat: 1 });
  const legend = await page.$$eval('[data-testid="cluster-timers"] li', (lis) =>
    lis.map((li) => [/** @type {HTMLElement} */ (li).dataset.timer, li.textContent]),
  );
  // The legend lists the classes pending now, with the wasm's labels.
  assert.deepEqual(legend, [
    ['election_timeout', 'election timeout'],
    ['heartbeat', 'heartbeat'],
  ]);
  // Crash n1 (paused, by clicking it): its arc goes.
  await page.click('[data-testid="node-1"]');
  drawn = await clusterDrawn(page);
  assert.ok(!drawn.arcNodes.includes(1), `arcs on ${drawn.arcNodes}`);
  assert.equal(drawn.arcNodes.length, 4);
  assert.deepEqual(errors, []);
  await page.close();
});

test('nodes, labels and node buttons grow with the canvas: 1920x1080 shows larger nodes than 1280x720', async () => {
  /** @type {Record<string, {radius: number, font: number, button: number}>} */
  const sizes = {};
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ]) {
    const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=3&at=300', { width, height });
    const drawn = await clusterDrawn(page);
    const button = await page.$eval('[data-testid="node-0"]', (b) => b.getBoundingClientRect().width);
    sizes[`${width}`] = { radius: drawn.radius, font: drawn.font, button };
    assert.deepEqual(errors, []);
    await page.close();
  }
  const [small, large] = [sizes['1280'], sizes['1920']];
  assert.ok(large.radius > small.radius * 1.2, `radius ${small.radius} at 1280x720, ${large.radius} at 1920x1080`);
  assert.ok(small.font >= 12, `labels ${small.font} px at 1280x720`);
  assert.ok(large.font > small.font, `labels ${large.font} px at 1920x1080`);
  // The buttons that crash or inspect a node cover it at every size.
  for (const s of [small, large]) assert.ok(Math.abs(s.button - 2 * s.radius) < 1, `button ${s.button}, radius ${s.radius}`);
});

test('a lost message is crossed out on its own line in the space-time diagram, where the trace says it was lost', async () => {
  const args = ['--algorithm', 'bully', '--nodes', '4', '--seed', '1', '--drop', '0.3', '--until-ms', '40'];
  const drops = cliRun([...args, '--trace']).trace.filter((/** @type {any} */ e) => e.type === 'drop');
  assert.ok(drops.length > 0, 'the run loses messages');
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=4&seed=1&drop=0.3&until_ms=40&at=40');
  await page.$eval('[data-testid="spacetime"]', (c) => c.scrollIntoView());
  await settle(page);
  const drawn = await page.$eval('[data-testid="spacetime"]', (c) => /** @type {any} */ (c).__drawn);
  assert.ok(drawn.crosses.length > 0, 'crosses drawn');
  const { frame, window: win } = drawn;
  const yOf = (/** @type {number} */ node) => frame.top + (node + 0.5) * frame.rowHeight;
  const xOf = (/** @type {number} */ ms) => frame.left + ((ms - win.t0) * frame.plotWidth) / win.span;
  for (const c of drawn.crosses) {
    // Lost when and between whom the CLI says.
    assert.ok(
      drops.some((/** @type {any} */ d) => d.from === c.from && d.to === c.to && Math.abs(d.at_us / 1000 - c.lostMs) < 1e-9),
      `a drop ${c.from} -> ${c.to} at ${c.lostMs} ms`,
    );
    // Its line runs from the sender's line to the receiver's at that time.
    assert.ok(Math.abs(c.y1 - yOf(c.from)) < 1e-6 && Math.abs(c.yEnd - yOf(c.to)) < 1e-6);
    assert.ok(Math.abs(c.xEnd - xOf(c.lostMs)) < 1e-3);
    // The cross is on that line, just short of the receiver's.
    const cross = (c.xEnd - c.x1) * (c.y - c.y1) - (c.yEnd - c.y1) * (c.x - c.x1);
    assert.ok(Math.abs(cross) / Math.hypot(c.xEnd - c.x1, c.yEnd - c.y1) < 0.01, 'on its own line');
    const t = (c.y - c.y1) / (c.yEnd - c.y1);
    assert.ok(t > 0.5 && t < 1, `at ${t.toFixed(2)} of the way`);
    assert.ok(Math.abs(c.yEnd - c.y) <= 8, `${Math.abs(c.yEnd - c.y).toFixed(1)} px before the receiver's line`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone the layers over the drawing keep its size when the prompt or the quiet-time note sits under it', async () => {
  // The prompt (a service in the middle) and the quiet-time note go under
  // the drawing on a phone, inside its box: the arrows' and the words'
  // canvases stretched with the box and drew below their nodes.
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.goto(`${baseUrl()}/?algorithm=raft&nodes=8&seed=1`);
  await page.waitForSelector('body[data-ready="true"]');
  await settle(page);
  const boxes = () =>
    page.evaluate(() =>
      ['#cluster', '.cluster-moving', '.cluster-labels', '.canvas-wrap'].map((sel) => {
        const r = /** @type {HTMLElement} */ (document.querySelector(sel)).getBoundingClientRect();
        return [Math.round(r.top), Math.round(r.left), Math.round(r.width), Math.round(r.height)];
      }),
    );
  const [cluster, moving, labels, wrap] = await boxes();
  assert.ok(wrap[3] > cluster[3] + 20, `the prompt is under the drawing: ${wrap} ${cluster}`);
  assert.deepEqual(moving, cluster, 'the arrows');
  assert.deepEqual(labels, cluster, 'the words');
  await page.close();
});
