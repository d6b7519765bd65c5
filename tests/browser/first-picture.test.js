// The first picture and a stable layout (issue 30, items 1 and 2;
// www/first/picture.js, top comment): the built page draws the address's
// scenario at time 0 before the wasm is in, exactly as the canvas's first
// frame (the switch cannot be seen), nothing on the page moves when the
// page has started, and Play pressed before then plays once it has.
//
// The wasm is held back (its request answered only when the test says)
// to look at the page before it. Only the built site has the first
// picture: against the development page these tests are skipped.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { baseUrl, collectErrors, launchBrowser } from './helpers.js';
import { ready } from './page.js';

/** @type {import('playwright-core').Browser} */
let browser;
/** Whether BASE_URL serves the built site (its page has the first picture's table). */
let built = false;
before(async () => {
  browser = await launchBrowser({ handClock: true });
  built = (await fetch(`${baseUrl()}/sw.js`).catch(() => null))?.ok ?? false;
});
after(async () => {
  await browser?.close();
});

const SKIP = 'the development page has no first picture (run against dist/: scripts/test.sh)';

/**
 * Opens `path` with the wasm held back; `release` lets it through.
 * @param {string} path
 * @param {{width: number, height: number, mobile?: boolean}} viewport
 * @param {string} [shown] what the first picture shows by then (default
 *   its canvas)
 */
async function openHeld(path, viewport, shown = 'canvas.cluster-first') {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.mobile ?? false,
    hasTouch: viewport.mobile ?? false,
  });
  const page = await context.newPage();
  const errors = collectErrors(page);
  /** @type {() => void} */
  let release = () => {};
  const held = new Promise((resolve) => {
    release = () => resolve(undefined);
  });
  await page.route(/\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${baseUrl()}${path}`);
  await page.waitForSelector(shown);
  return { context, page, errors, release };
}

/** Elements whose box must not change once painted. */
const STILL = [
  'header.top',
  '#theme-toggle',
  '.stage > .transport',
  '.stage > .timeline',
  '#cluster',
  '#story',
  '#roles',
  '.dock',
  '[data-testid=lessons]',
  '#settings',
];

/**
 * The boxes of `STILL`, in page coordinates.
 * @param {import('playwright-core').Page} page
 */
function boxes(page) {
  return page.evaluate((selectors) => {
    /** @type {Record<string, number[]>} */
    const out = {};
    for (const s of selectors) {
      const r = document.querySelector(s)?.getBoundingClientRect();
      out[s] = r ? [r.x, r.y + window.scrollY, r.width, r.height].map((v) => Math.round(v)) : [];
    }
    return out;
  }, STILL);
}

/**
 * A screenshot of the cluster's box, decoded.
 * @param {import('playwright-core').Page} page
 */
async function clusterPixels(page) {
  const box = await page.locator('#cluster').boundingBox();
  assert.ok(box, 'the cluster canvas has a box');
  return PNG.sync.read(await page.screenshot({ clip: box }));
}

for (const [name, viewport] of /** @type {const} */ ([
  ['a teacher at 1920x1080', { width: 1920, height: 1080 }],
  ['a student on a phone', { width: 390, height: 844, mobile: true }],
])) {
  test(`${name}: the first picture is the canvas's first frame, and nothing moves once the page has started`, async (t) => {
    if (!built) return t.skip(SKIP);
    const { context, page, errors, release } = await openHeld('/?algorithm=raft&nodes=5&seed=3', viewport);
    assert.equal(await page.getAttribute('body', 'data-ready'), null, 'not ready before the wasm');
    const early = await boxes(page);
    const picture = await clusterPixels(page);
    release();
    await ready(page);
    // Taken away once the layers have drawn the same moment.
    await page.waitForSelector('canvas.cluster-first', { state: 'detached' });
    const late = await boxes(page);
    // What the first screen shows (further down, the space-time diagram
    // below the cluster on a phone grows to its rows when it is drawn).
    const seen = Object.keys(early).filter((s) => early[s][1] < viewport.height);
    assert.ok(seen.includes('#cluster'));
    assert.deepEqual(
      Object.fromEntries(seen.map((s) => [s, late[s]])),
      Object.fromEntries(seen.map((s) => [s, early[s]])),
      'every box on the first screen as it was painted first',
    );
    const frame = await clusterPixels(page);
    assert.equal(frame.width, picture.width);
    // The same drawing; text drawn in the worker may round a few edge
    // pixels otherwise (on a phone a column of them): at most 1 in 1,000.
    let differ = 0;
    for (let i = 0; i < frame.data.length; i += 4) {
      if (frame.data[i] !== picture.data[i] || frame.data[i + 1] !== picture.data[i + 1] || frame.data[i + 2] !== picture.data[i + 2]) differ++;
    }
    assert.ok(differ <= (frame.width * frame.height) / 1000, `the canvas shows what the first picture showed (${differ} pixels differ)`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the first picture names the algorithm as the page does: its summary, its kinds, the role legend', async (t) => {
  if (!built) return t.skip(SKIP);
  const { context, page, errors, release } = await openHeld('/?algorithm=chang-roberts&ring=descending&nodes=6', { width: 1280, height: 900 });
  const text = (/** @type {string} */ s) => page.evaluate((sel) => document.querySelector(sel)?.textContent ?? '', s);
  const early = { summary: await text('#algorithm-summary'), kinds: await text('#kinds'), roles: await text('#roles') };
  assert.notEqual(early.summary, '');
  release();
  await ready(page);
  assert.deepEqual({ summary: await text('#algorithm-summary'), kinds: await text('#kinds'), roles: await text('#roles') }, early);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Play pressed before the wasm is in plays as soon as it is', async (t) => {
  if (!built) return t.skip(SKIP);
  const { context, page, errors, release } = await openHeld('/', { width: 1280, height: 900 });
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true', 'the press shows at once');
  release();
  await ready(page);
  await page.waitForFunction(() => document.querySelector('#play')?.getAttribute('aria-pressed') === 'true' && document.querySelector('#play')?.textContent === 'Pause');
  assert.equal(await page.getAttribute('#play', 'data-early-play'), null, 'the press was taken');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an address the first picture cannot draw waits for the wasm, as before', async (t) => {
  if (!built) return t.skip(SKIP);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = collectErrors(page);
  // A random ring order is the core's to draw.
  await page.goto(`${baseUrl()}/?algorithm=chang-roberts&ring=random&seed=4`);
  await ready(page);
  assert.equal(await page.$$eval('canvas.cluster-first', (xs) => xs.length), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('where it cannot draw, the cluster says the run or the comparison loads, until the page draws', async (t) => {
  if (!built) return t.skip(SKIP);
  // `at=end` is the core's to reach.
  const run = await openHeld('/?algorithm=raft&nodes=5&at=end', { width: 1920, height: 1080 }, '.cluster-loading');
  assert.equal(await run.page.textContent('.cluster-loading'), 'Loading the run…');
  assert.ok(await run.page.isVisible('.cluster-loading'));
  run.release();
  await ready(run.page);
  await run.page.waitForFunction(() => document.querySelectorAll('.cluster-loading').length === 0);
  assert.deepEqual(run.errors, []);
  await run.context.close();

  const compare = await openHeld('/?compare=bully,raft', { width: 390, height: 844, mobile: true }, '.cluster-loading');
  assert.equal(await compare.page.textContent('.cluster-loading'), 'Loading the comparison…');
  assert.ok(await compare.page.isVisible('.cluster-loading'));
  compare.release();
  await ready(compare.page);
  // Compare mode covers the single view; leaving it draws that view, and
  // the note goes.
  await compare.page.waitForSelector('#compare-leave', { state: 'visible' });
  await compare.page.click('#compare-leave');
  await compare.page.waitForFunction(() => document.querySelectorAll('.cluster-loading').length === 0);
  assert.deepEqual(compare.errors, []);
  await compare.context.close();
});
