// Reduced motion and the light / dark themes: with prefers-reduced-motion
// nothing moves (no autoplay, messages drawn still, no transitions); the
// page follows prefers-color-scheme, and the theme button switches and
// remembers the theme, the canvas included.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { baseUrl, collectErrors, launchBrowser } from './helpers.js';
import { playFor, ready, readouts, settle } from './page.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * Perceived brightness (0..255) of a CSS colour or an [r, g, b] triple.
 * @param {number[]} rgb
 */
function brightness([r, g, b]) {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/**
 * The body background and a canvas corner pixel as shown on screen (the
 * canvas itself is transparent; its CSS background is the theme's).
 * @param {import('playwright-core').Page} page
 */
async function colours(page) {
  const body = await page.evaluate(
    () => getComputedStyle(document.body).backgroundColor.match(/\d+(\.\d+)?/g)?.map(Number) ?? [],
  );
  const box = await page.locator('#cluster').boundingBox();
  if (!box) throw new Error('no canvas');
  const shot = PNG.sync.read(await page.screenshot({ clip: { x: box.x + 6, y: box.y + 6, width: 1, height: 1 } }));
  return { body, pixel: Array.from(shot.data.subarray(0, 3)) };
}

test('reduced motion: no autoplay, messages drawn still, no transitions', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const errors = collectErrors(page);
  await page.goto(`${baseUrl()}/?algorithm=bully&nodes=8&seed=1`);
  await ready(page);
  assert.equal(await page.getAttribute('#cluster', 'data-animated'), 'false');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false', 'it does not play by itself');
  assert.equal((await readouts(page)).time, 0);
  // Step until messages are in flight; the drawing of a moment must not
  // change while time stands still, and two moments inside the same
  // flights differ only by what changed in the run, not by motion.
  for (let i = 0; i < 3; i++) await page.click('#step');
  // A picture of the cluster as shown (its canvases may be drawn by a
  // worker, whose pixels the page cannot read back): nodes and messages,
  // once drawn, and again some frames later.
  await settle(page);
  const a = await page.locator('.stage .canvas-wrap').screenshot();
  await settle(page);
  const b = await page.locator('.stage .canvas-wrap').screenshot();
  assert.ok(a.equals(b), 'a paused moment is drawn the same each time');
  const transition = await page.evaluate(() => getComputedStyle(document.querySelector('button') ?? document.body).transitionDuration);
  assert.match(transition, /^0s/);
  // Playing by hand still works, with the canvas still marked as not animated.
  const stepped = (await readouts(page)).time;
  await page.click('#play');
  await playFor(page, 500);
  await page.click('#play');
  assert.ok((await readouts(page)).time > stepped, 'it played');
  assert.equal(await page.getAttribute('#cluster', 'data-animated'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});

test('without reduced motion the canvas animates messages', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const errors = collectErrors(page);
  await page.goto(`${baseUrl()}/?algorithm=bully&nodes=8&seed=1&at=0`);
  await ready(page);
  assert.equal(await page.getAttribute('#cluster', 'data-animated'), 'true');
  assert.deepEqual(errors, []);
  await page.close();
});

test('dark scheme: dark page and canvas; the toggle switches and remembers', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(`${baseUrl()}/?algorithm=bully&nodes=8&seed=1&at=200`);
  await ready(page);
  let c = await colours(page);
  assert.ok(brightness(c.body) < 60, `dark body: ${c.body}`);
  assert.ok(brightness(c.pixel) < 60, `dark canvas: ${c.pixel}`);
  const toggle = page.locator('[data-testid="theme-toggle"]');
  // The button names its action: what pressing it does.
  assert.match((await toggle.getAttribute('aria-label')) ?? '', /Switch to the light theme/);
  assert.equal(await toggle.textContent(), 'Light theme');

  // By keyboard: focus the button and press Enter.
  await toggle.focus();
  await page.keyboard.press('Enter');
  c = await colours(page);
  assert.ok(brightness(c.body) > 200, `light body: ${c.body}`);
  assert.ok(brightness(c.pixel) > 200, `light canvas: ${c.pixel}`);
  assert.match((await toggle.getAttribute('aria-label')) ?? '', /Switch to the dark theme/);
  assert.equal(await toggle.textContent(), 'Dark theme');

  // The pick outlives a reload, against the dark system setting.
  await page.reload();
  await ready(page);
  c = await colours(page);
  assert.ok(brightness(c.body) > 200, `still light after reload: ${c.body}`);

  await toggle.click();
  c = await colours(page);
  assert.ok(brightness(c.pixel) < 60, `dark again: ${c.pixel}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('light scheme by default', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(`${baseUrl()}/?algorithm=bully&nodes=8&seed=1&at=200`);
  await ready(page);
  const c = await colours(page);
  assert.ok(brightness(c.body) > 200, `light body: ${c.body}`);
  assert.ok(brightness(c.pixel) > 200, `light canvas: ${c.pixel}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the header's buttons take the focus in the order they are seen, at 1920x1080 and on a phone", async () => {
  // Issue 29: Tab went Theme, Experiments, Trade-offs, Lab while the
  // screen showed Lab, Trade-offs, Experiments, Theme from left to right.
  for (const viewport of [
    { width: 1920, height: 1080 },
    { width: 390, height: 844 },
  ]) {
    const page = await browser.newPage({ viewport });
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/?algorithm=bully&nodes=8&seed=1`);
    await ready(page);
    // From the top of the page.
    await page.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.blur());
    /** @type {{id: string, x: number, y: number}[]} */
    const order = [];
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      order.push(
        await page.evaluate(() => {
          const a = /** @type {HTMLElement} */ (document.activeElement);
          const box = a.getBoundingClientRect();
          return { id: a.id, x: Math.round(box.left), y: Math.round(box.top) };
        }),
      );
    }
    const ids = order.map((o) => o.id);
    assert.deepEqual(ids, ['lab-open', 'tradeoffs-open', 'experiments-open', 'theme-toggle'], `${viewport.width}: ${JSON.stringify(order)}`);
    // Seen in that order: left to right on a line, lines top to bottom.
    for (let i = 1; i < order.length; i += 1) {
      const [a, b] = [order[i - 1], order[i]];
      assert.ok(b.y > a.y + 8 || (Math.abs(b.y - a.y) <= 8 && b.x > a.x), `${viewport.width}: ${a.id} then ${b.id}: ${JSON.stringify(order)}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});
