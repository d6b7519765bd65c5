// Live captions (www/ask/captions.js): the core's sentence for the moment
// shown, right under the drawing, in the single view, presentation mode,
// compare mode (one per view) and embeds; it tells what comes next, and
// what it names is what the CLI's trace does next.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, playUntil, pressPlay } from './page.js';
import { cliRunScenario, encodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * The caption's text (trimmed) in `scope`.
 * @param {import('playwright-core').Page} page
 * @param {string} [scope] a selector around the caption
 */
async function caption(page, scope = '.stage') {
  return ((await page.textContent(`${scope} [data-testid=caption]`)) ?? '').trim();
}

/** Bully on 8 nodes, its leader crashed once the first election settled. */
function bullyCrash() {
  const base = { version: 1, algorithm: 'bully', nodes: 8, seed: 3 };
  const first = cliRunScenario(base);
  assert.equal(typeof first.leader, 'number', 'the first election elects someone');
  const crashAt = Math.ceil(first.end_ms) + 50;
  const scenario = { ...base, faults: [{ at_ms: crashAt, crash: first.leader }] };
  const run = cliRunScenario(scenario, ['--trace']);
  const firstElection = run.trace.find(
    (/** @type {any} */ e) => e.type === 'send' && e.kind === 'ELECTION' && e.at_us > crashAt * 1000,
  );
  assert.ok(firstElection, 'an election follows the crash');
  return { scenario, crashAt, leader: first.leader, sender: firstElection.from, electionAtMs: firstElection.at_us / 1000 };
}

test('after a Bully leader crash the caption names the node whose timer fires next: the first ELECTION sender of the CLI trace', async () => {
  const { scenario, crashAt, leader, sender, electionAtMs } = bullyCrash();
  assert.notEqual(sender, leader);
  // Halfway between the crash and that first ELECTION: nothing but timers move.
  const at = Math.round(((crashAt + electionAtMs) / 2) * 1000) / 1000;
  const { page, errors } = await openPlayground(browser, `/?at=${at}#s=${encodeShare(scenario)}`);
  const text = await caption(page);
  assert.ok(text.length > 0, 'a caption is shown');
  // The nodes it names, the crashed leader aside: the first is the sender.
  const named = [...text.matchAll(/\bn(\d+)\b/g)].map((m) => Number(m[1])).filter((id) => id !== leader);
  assert.equal(named[0], sender, `the caption "${text}" names n${sender} first`);
  // It sits right under the drawing, as wide as it (not in a side panel).
  const canvas = await page.locator('#cluster').boundingBox();
  const box = await page.locator('.stage [data-testid=caption]').boundingBox();
  assert.ok(canvas && box);
  assert.ok(box.y >= canvas.y + canvas.height - 1 && box.y - (canvas.y + canvas.height) < 40, 'under the canvas');
  assert.ok(box.x >= canvas.x - 1 && box.x + box.width <= canvas.x + canvas.width + 1, 'within its width');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the caption follows play, seek and step; screen readers get it from a polite region', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&start=none&at=0');
  const first = await caption(page);
  assert.ok(first.length > 0);
  assert.equal(await page.getAttribute('.stage [data-testid=caption-live]', 'aria-live'), 'polite');
  // The visible sentence is not itself live (it may change every frame).
  assert.equal(await page.getAttribute('.stage [data-testid=caption]', 'aria-live'), null);
  await page.waitForFunction((t) => document.querySelector('.stage [data-testid=caption-live]')?.textContent === t, first);
  await pressPlay(page);
  await playUntil(page, (t) => (document.querySelector('.stage [data-testid=caption]')?.textContent ?? '').trim() !== t, first, {
    maxMs: 20000,
  });
  await pressPlay(page);
  const later = await caption(page);
  assert.notEqual(later, first);
  // Back to 0: the first caption again.
  await page.click('#restart');
  await page.waitForFunction((t) => (document.querySelector('.stage [data-testid=caption]')?.textContent ?? '').trim() === t, first);
  // Step until it changes.
  for (let i = 0; i < 200 && (await caption(page)) === first; i++) await page.click('#step');
  assert.notEqual(await caption(page), first, 'a step moves the caption on');
  assert.deepEqual(errors, []);
  await page.close();
});

test('presentation mode at 1920x1080: the caption in large type under the cluster, with leader, messages and time', async () => {
  const { scenario, crashAt } = bullyCrash();
  const { page, errors } = await openPlayground(browser, `/?present=1&at=${crashAt + 1}#s=${encodeShare(scenario)}`, {
    width: 1920,
    height: 1080,
  });
  const box = await page.locator('.stage [data-testid=caption]').boundingBox();
  assert.ok(box && box.y + box.height <= 1080 && box.width > 1000, `caption in the window: ${JSON.stringify(box)}`);
  const size = await page.$eval('.stage [data-testid=caption]', (e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(size >= 32, `caption type is ${size} px`);
  // The readouts at projector size.
  assert.equal(await page.isVisible('[data-testid=present-readouts]'), true);
  const readSize = await page.$eval('[data-testid=present-leader]', (e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(readSize >= 28, `readouts type is ${readSize} px`);
  assert.equal((await page.textContent('[data-testid=present-time]'))?.trim(), (await page.textContent('[data-testid=sim-time]'))?.trim());
  assert.equal(
    (await page.textContent('[data-testid=present-messages]'))?.trim(),
    Number(await page.textContent('[data-testid=messages-total]')).toLocaleString('en'),
  );
  // Bully has no terms: no term readout.
  assert.equal(await page.isVisible('[data-testid=present-term]'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Raft in presentation mode shows its term', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=2&present=1&at=end', { width: 1920, height: 1080 });
  assert.equal(await page.isVisible('[data-testid=present-term]'), true);
  assert.match((await page.textContent('[data-testid=present-term]')) ?? '', /^\d+$/);
  assert.match((await page.textContent('[data-testid=present-leader]')) ?? '', /^n\d+$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare mode: one caption inside each view, also in presentation mode', async () => {
  const ids = ['bully', 'raft', 'chang-roberts'];
  const { page, errors } = await openPlayground(browser, `/?compare=${ids.join(',')}&nodes=6&seed=3&at=5&present=1`, {
    width: 1920,
    height: 1080,
  });
  await page.waitForSelector('.compare-view [data-testid=caption]:not([hidden])');
  const texts = await page.$$eval('.compare-view', (views) =>
    views.map((v) => ({
      id: /** @type {HTMLElement} */ (v).dataset.algorithm,
      captions: v.querySelectorAll('[data-testid=caption]').length,
      text: (v.querySelector('[data-testid=caption]')?.textContent ?? '').trim(),
      inWindow: (() => {
        const r = v.querySelector('[data-testid=caption]')?.getBoundingClientRect();
        return r ? r.bottom <= window.innerHeight && r.height > 0 : false;
      })(),
    })),
  );
  assert.deepEqual(texts.map((t) => t.id), ids);
  for (const t of texts) {
    assert.equal(t.captions, 1, `${t.id}: one caption`);
    assert.ok(t.text.length > 0, `${t.id}: a caption`);
    assert.ok(t.inWindow, `${t.id}: in the window`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embed has the caption under its drawing', async () => {
  const { page, errors } = await openPlayground(browser, '/?embed=1&algorithm=bully&nodes=5&seed=1&at=2', { width: 640, height: 420 });
  const text = ((await page.textContent('#embed-root [data-testid=caption]')) ?? '').trim();
  assert.ok(text.length > 0);
  const canvas = await page.locator('[data-testid=embed-canvas]').boundingBox();
  const box = await page.locator('#embed-root [data-testid=caption]').boundingBox();
  assert.ok(canvas && box && box.y >= canvas.y + canvas.height - 1 && box.y + box.height <= 420);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a compare embed has one caption in each view', async () => {
  const { page, errors } = await openPlayground(browser, '/?embed=1&compare=bully,raft&nodes=5&seed=1&at=5', { width: 720, height: 480 });
  await page.waitForSelector('.embed-compare-view [data-testid=caption]:not([hidden])');
  const texts = await page.$$eval('.embed-compare-view', (views) =>
    views.map((v) => [v.querySelectorAll('[data-testid=caption]').length, (v.querySelector('[data-testid=caption]')?.textContent ?? '').trim()]),
  );
  assert.equal(texts.length, 2);
  for (const [count, text] of texts) {
    assert.equal(count, 1);
    assert.ok(String(text).length > 0);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a 390x844 phone the caption is readable and fits the width', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=3&at=1', { width: 390, height: 844 });
  const box = await page.locator('.stage [data-testid=caption]').boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390);
  const size = await page.$eval('.stage [data-testid=caption]', (e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(size >= 15, `caption type is ${size} px`);
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
  assert.deepEqual(errors, []);
  await page.close();
});
