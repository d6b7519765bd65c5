// Page helpers shared by the browser tests: open the playground and read
// its contract elements.
import { baseUrl, collectErrors } from './helpers.js';

/**
 * Opens `path` (relative to the page under test, e.g. `/?algorithm=bully`,
 * or a whole address) in a new page and waits until the playground has drawn its first frame.
 * @param {import('playwright-core').Browser} browser
 * @param {string} path
 * @param {{width: number, height: number}} [viewport]
 * @returns {Promise<{page: import('playwright-core').Page, errors: string[]}>}
 */
export async function openPlayground(browser, path, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  const errors = collectErrors(page);
  await page.goto(address(path));
  await ready(page);
  return { page, errors };
}

/**
 * `path` under the page under test (`baseUrl()`), or `path` itself when
 * it is a whole address (`http...`).
 * @param {string} path
 * @returns {string}
 */
function address(path) {
  return path.startsWith('http') ? path : `${baseUrl()}${path}`;
}

/**
 * Waits for the playground's first frame after a (re)load.
 * @param {import('playwright-core').Page} page
 * @param {number} [timeout] ms
 */
export async function ready(page, timeout = 15000) {
  await page.waitForSelector('body[data-ready="true"]', { timeout });
}

/**
 * The three contract readouts.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{messages: number, leader: string, time: number}>}
 */
export async function readouts(page) {
  const text = async (id) => (await page.textContent(`[data-testid="${id}"]`))?.trim() ?? '';
  return {
    messages: Number(await text('messages-total')),
    leader: await text('leader'),
    time: Number(await text('sim-time')),
  };
}

/**
 * The text of the newest event-log lines.
 * @param {import('playwright-core').Page} page
 * @param {number} [count]
 * @returns {Promise<string[]>}
 */
export async function latestLog(page, count = 20) {
  return page.$$eval('#log li', (items, n) => items.slice(0, n).map((li) => li.textContent ?? ''), count);
}

/**
 * The trimmed text of a `data-testid` element.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @returns {Promise<string>}
 */
export async function testId(page, id) {
  return ((await page.textContent(`[data-testid="${id}"]`)) ?? '').trim();
}

/**
 * The page's address as the document holds it now. `page.url()` is
 * Playwright's copy, updated by an event that arrives after the page
 * wrote the address (`history.replaceState`); read right after a key or
 * a click it may still be the old one on a busy machine (a test failed so
 * once). Read the address with this after any in-page change.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string>}
 */
export async function pageAddress(page) {
  return page.evaluate(() => location.href);
}

/**
 * Opens `path` in a new 1280×900 page for a frame-timing tool, waits for
 * the page (big runs take long to start), and sets the speed slider to
 * `log10Speed`. The tools in scripts/bench/browser/ (bench-frame.js,
 * profile-frame.js, trace-frame.js...) then measure the page playing.
 * @param {import('playwright-core').Browser} browser
 * @param {string} path
 * @param {number} log10Speed
 * @param {(page: import('playwright-core').Page) => Promise<void>} [beforeLoad] e.g. an init script
 * @returns {Promise<import('playwright-core').Page>}
 */
export async function openAtSpeed(browser, path, log10Speed, beforeLoad) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  if (beforeLoad) await beforeLoad(page);
  await page.goto(address(path));
  await ready(page, 120000);
  await setSpeed(page, log10Speed);
  return page;
}

/**
 * Sets the speed slider (log10 of the speed), as moving it does.
 * @param {import('playwright-core').Page} page
 * @param {number} log10Speed
 */
export async function setSpeed(page, log10Speed) {
  await page.evaluate((v) => {
    const input = /** @type {HTMLInputElement} */ (document.getElementById('speed'));
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, log10Speed);
}

/**
 * Presses Play (or Pause): not page.click, which would scroll the button,
 * and so the page, into view.
 * @param {import('playwright-core').Page} page
 */
export async function pressPlay(page) {
  await page.evaluate(() => document.getElementById('play')?.click());
}

/**
 * Scrolls the space-time diagram to the top of the window (at 1280x900
 * the page opens with the cluster in view and the diagram below it, where
 * it is not drawn while playing).
 * @param {import('playwright-core').Page} page
 */
export async function scrollToDiagram(page) {
  await page.evaluate(() => document.getElementById('spacetime')?.scrollIntoView({ block: 'start' }));
}

/**
 * A page, or a frame of one (an embed in its host).
 * @typedef {import('playwright-core').Page | import('playwright-core').Frame} Target
 */

/**
 * Hands the page `ms` of real time to play (its clock is in the test's
 * hand, see helpers.js `launchBrowser` and www/shared/play-clock.js), frame by
 * 60 Hz frame, and waits until it has played all of it (or its run
 * stopped by itself) and drawn the moment it got to. Playing or not is
 * the page's business: time handed to a paused page waits for Play.
 * @param {Target} target
 * @param {number} ms
 */
export async function playFor(target, ms) {
  await target.evaluate((add) => {
    /** @type {any} */ (window).__playClock.budget += add;
  }, ms);
  await settle(target);
}

/**
 * Hands the page time `stepMs` at a time (see `playFor`) until
 * `predicate(arg)`, evaluated in the page after each step, holds; fails
 * after `maxMs` of played time. What the page shows when it holds is a
 * function of the run, not of how fast frames came.
 * @template A
 * @param {Target} target
 * @param {(arg: A) => unknown} predicate
 * @param {A} arg
 * @param {{stepMs?: number, maxMs?: number}} [options]
 * @returns {Promise<number>} the real time played, ms
 */
export async function playUntil(target, predicate, arg, { stepMs = 100, maxMs = 60000 } = {}) {
  for (let played = 0; played <= maxMs; played += stepMs) {
    if (await target.evaluate(predicate, arg)) return played;
    await playFor(target, stepMs);
  }
  throw new Error(`not reached after ${maxMs} ms of play: ${predicate}`);
}

/**
 * Waits until the page has played all the time handed to it and drawn
 * what it got to: an animation frame after the last one that played
 * (which draws it) and every drawing handed to the cluster worker until
 * then (see www/shared/play-clock.js).
 * @param {Target} target
 * @param {number} [timeout] ms
 */
export async function settle(target, timeout = 60000) {
  await target.waitForFunction(() => /** @type {any} */ (window).__playClock.budget === 0, null, { timeout });
  const frames = await target.evaluate(() => /** @type {any} */ (window).__playClock.frames);
  await target.waitForFunction((f) => /** @type {any} */ (window).__playClock.frames > f, frames, { timeout });
  // Every drawing handed to the worker is drawn, and on the screen: a
  // worker's drawing shows a frame after it is made (see
  // www/first/handoff.js), and a view resized meanwhile (compare mode's
  // lanes settling) hands it another, which is waited for too, once (a
  // page that goes on drawing, a theme's transition say, hands it more
  // every frame). A screenshot once showed compare mode's third view
  // blank: taken between the worker's drawing and its showing.
  for (let round = 0; round < 2; round++) {
    const posted = await target.evaluate(() => /** @type {any} */ (window).__playClock.posted);
    await target.waitForFunction((p) => /** @type {any} */ (window).__playClock.painted >= p, posted, { timeout });
    await waitFrames(target, 2);
    if ((await target.evaluate(() => /** @type {any} */ (window).__playClock.posted)) === posted) return;
  }
}

/**
 * Presses To end and waits until the single view is there: on a busy
 * machine the way to the end takes pieces between frames (the page's
 * share at once is 12 ms of wasm; www/player/model.js runToEndInPieces),
 * and the readouts show the end only then. The page says it is on its
 * way with `body[data-working=true]`, set in the click's own task.
 * @param {import('playwright-core').Page} page
 */
export async function toEnd(page) {
  await page.click('#to-end');
  await workDone(page);
}

/**
 * Waits until the single view has no work in pieces under way (To end,
 * the End key, Next change, a seek far ahead: `body[data-working]`, see
 * `toEnd`), so that its readouts show where the action took it.
 * @param {import('playwright-core').Page} page
 */
export async function workDone(page) {
  await page.waitForFunction(() => document.body.dataset.working !== 'true', null, { timeout: 60000 });
}

/**
 * Waits until the page has drawn `count` more animation frames (however
 * long they take).
 * @param {Target} target
 * @param {number} count
 */
export async function waitFrames(target, count) {
  const frames = await target.evaluate(() => /** @type {any} */ (window).__playClock.frames);
  await target.waitForFunction((f) => /** @type {any} */ (window).__playClock.frames >= f, frames + count, { timeout: 60000 });
}
