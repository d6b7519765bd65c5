// Bad addresses show a readable error naming what is wrong and still show
// the default scenario; the normal page logs no errors at all (under its
// Content-Security-Policy).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, playFor, pressPlay, readouts } from './page.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

test('the normal page has no console errors and keeps playing', async () => {
  const { page, errors } = await openPlayground(browser, '/');
  assert.equal(await page.isVisible('[data-testid="error"]'), false);
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp ?? '', /script-src 'self' 'wasm-unsafe-eval'/);
  // No address: it opens paused at 0 and plays once Play is pressed (the
  // time the test hands it).
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  await pressPlay(page);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  await playFor(page, 1000);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true', 'still playing');
  await pressPlay(page);
  assert.ok(Number(await page.textContent('[data-testid="sim-time"]')) > 0, 'it played');
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [path, field] of [
  ['/?algorithm=paxos&nodes=5', 'algorithm'],
  ['/?algorithm=bully&nodes=0', 'nodes'],
  ['/?algorithm=bully&nodes=abc', 'nodes'],
  ['/?ring=sideways', 'ring'],
  ['/#s=1.AAAA', '`s`'],
  ['/#s=this-is-not-a-link', '`s`'],
  ['/?algorithm=bully&at=soon', '`at`'],
  ['/?algoritm=bully', '`algoritm`'],
]) {
  test(`bad address ${path} names ${field} and falls back to the defaults`, async () => {
    const { page, errors } = await openPlayground(browser, path);
    const box = page.locator('[data-testid="error"]');
    assert.equal(await box.isVisible(), true, 'the error is shown');
    assert.ok(((await box.textContent()) ?? '').includes(field), `error names ${field}: ${await box.textContent()}`);
    // The default scenario is there and drawn.
    assert.equal(await page.inputValue('#algorithm'), 'bully');
    assert.equal(await page.inputValue('#nodes'), '8');
    assert.equal(await page.locator('.node-button').count(), 8);
    const shown = await readouts(page);
    assert.ok(Number.isFinite(shown.time) && Number.isInteger(shown.messages));
    assert.deepEqual(errors, [], 'no uncaught exception, no console error');
    await page.close();
  });
}
