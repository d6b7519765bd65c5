// The space-time diagram while it plays is drawn from a layer kept from
// frame to frame (www/spacetime-live.js: used round and round, the
// window's part copied in at most two pieces); the picture must be the
// one the full drawing of the same moment gives. Played until the
// layer's wrap lies inside the window, then nearly frozen while still
// playing (so the layer draws the frame), then paused (the full drawing).
// About 5 s of wall time.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { collectErrors, launchBrowser } from './helpers.js';
import { openAtSpeed } from './page.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/**
 * Sets the speed slider (log10 of the speed).
 * @param {import('playwright-core').Page} page
 * @param {number} v
 */
async function speed(page, v) {
  await page.evaluate((x) => {
    const input = /** @type {HTMLInputElement} */ (document.getElementById('speed'));
    input.value = String(x);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
}

/**
 * The simulated time shown.
 * @param {import('playwright-core').Page} page
 */
async function simTime(page) {
  return Number(await page.textContent('[data-testid="sim-time"]'));
}

/**
 * Presses Play (not page.click: that would scroll the button into view).
 * @param {import('playwright-core').Page} page
 */
async function play(page) {
  await page.evaluate(() => document.getElementById('play')?.click());
}

test('the diagram drawn from its layer while playing equals the full drawing of the moment', async () => {
  const path = '/?algorithm=raft&nodes=16&seed=1&heartbeat_ms=30&latency_ms=20-80&until_ms=60000&at=6000';
  const page = await openAtSpeed(browser, path, 0);
  const errors = collectErrors(page);
  await page.evaluate(() => document.getElementById('spacetime')?.scrollIntoView({ block: 'start' }));
  // Playing starts the layer at the window's left edge; the window (4.5 s
  // here) is two thirds of the layer, so the layer's wrap comes into the
  // window after about a third of the layer (seen with a probe: from
  // 8.2 s on in this run, when the frame is copied in two pieces).
  const from = await simTime(page);
  await play(page);
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid="sim-time"]')?.textContent) > t, from + 3500, {
    timeout: 60000,
  });
  await speed(page, -3);
  await page.waitForTimeout(300);
  const live = PNG.sync.read(await page.locator('#spacetime').screenshot());
  await play(page);
  await page.waitForTimeout(300);
  const full = PNG.sync.read(await page.locator('#spacetime').screenshot());
  assert.equal(live.width, full.width);
  let differing = 0;
  for (let i = 0; i < live.data.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs(live.data[i + c] - full.data[i + c]) > 48) {
        differing += 1;
        break;
      }
    }
  }
  assert.ok(differing <= live.width * live.height * 0.001, `${differing} pixels differ between the live and the full drawing`);
  assert.deepEqual(errors, []);
  await page.close();
});
