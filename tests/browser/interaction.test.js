// Using the page: playback moves simulated time, clicking a node crashes
// and recovers it (recorded as a fault at that moment), Share writes the
// whole scenario into the address and the link reproduces the run.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { baseUrl, launchBrowser } from './helpers.js';
import { latestLog, openPlayground, pageAddress, playFor, readouts, ready, waitFrames, toEnd } from './page.js';
import { cliRunScenario, decodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

test('play, pause and step move simulated time', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=3&at=1');
  assert.equal((await readouts(page)).time, 1, 'at=1 opens the run at 1 ms');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false', 'at= opens paused');

  await page.click('#step');
  const afterStep = (await readouts(page)).time;
  assert.ok(afterStep > 1, `Step goes to the next event (now ${afterStep} ms)`);

  await page.keyboard.press('s');
  await page.keyboard.press('ArrowRight');
  assert.ok((await readouts(page)).time >= afterStep, 'the s and → keys step');

  // 500 ms of real time at 0.005x: 2.5 ms of the run.
  await page.click('#play');
  await playFor(page, 500);
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  const paused = await readouts(page);
  assert.ok(paused.time > afterStep + 1, `it played (now ${paused.time} ms)`);
  // Time handed to a paused page is not played: frames go by, the run
  // stands.
  await page.evaluate(() => {
    /** @type {any} */ (window).__playClock.budget = 300;
  });
  await waitFrames(page, 10);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__playClock.budget), 300, 'no time was played');
  assert.deepEqual(await readouts(page), paused, 'nothing moves while paused');
  await page.evaluate(() => {
    /** @type {any} */ (window).__playClock.budget = 0;
  });

  // Space toggles play when no control has the focus.
  await page.locator('body').focus();
  await page.evaluate(() => (document.activeElement instanceof HTMLElement) && document.activeElement.blur());
  await page.keyboard.press(' ');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  await page.keyboard.press(' ');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});

test('clicking a node crashes it now and clicking again recovers it', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=3&at=end');
  const before = await readouts(page);
  assert.equal(before.leader, '4');
  assert.equal(await page.textContent('[data-testid="crashed-count"]'), '0');

  await page.click('[data-testid="node-4"]');
  assert.equal(await page.textContent('[data-testid="crashed-count"]'), '1');
  assert.equal((await readouts(page)).leader, 'none', 'the crashed leader no longer leads');
  assert.equal((await readouts(page)).time, before.time, 'a click does not move time');
  assert.ok((await latestLog(page)).some((line) => line.includes('n4 crashes')), 'the log says so');
  assert.match((await page.getAttribute('[data-testid="node-4"]', 'aria-label')) ?? '', /crashed/);

  // The crash is part of the scenario now: run on and compare with the CLI.
  await toEnd(page);
  await page.click('#share');
  const scenario = decodeShare(await pageAddress(page));
  // n4 was the one leader: the click crashed "leader" (the same node now).
  assert.deepEqual(scenario.faults, [{ at_ms: before.time, crash: 'leader' }]);
  const expected = cliRunScenario(scenario);
  const shown = await readouts(page);
  assert.equal(shown.leader, String(expected.leader));
  assert.equal(shown.leader, '3', 'Bully elects the highest live id');
  assert.equal(shown.messages, expected.messages.sent);
  assert.equal(shown.time, expected.end_ms);

  // Keyboard: the node is a real button.
  await page.focus('[data-testid="node-4"]');
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent('[data-testid="crashed-count"]'), '0');
  assert.ok((await latestLog(page)).some((line) => line.includes('n4 recovers')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Share puts the scenario in the address and reloading reproduces the run', async () => {
  const { page, errors } = await openPlayground(
    browser,
    '/?algorithm=chang-roberts&nodes=6&seed=2&ring=random&start=all&at=12.5',
  );
  await page.click('[data-testid="node-2"]');
  // Move on a little, with a step or two inside the run.
  await page.click('#step');
  await page.click('#step');
  await page.click('#share');
  const url = await pageAddress(page);
  assert.match(url, /#s=1\.[A-Za-z0-9_-]+$/, 'the address has the #s= link');
  assert.match(url, /[?&]at=/, 'and the moment to open at');
  assert.deepEqual(decodeShare(url).faults, [{ at_ms: 12.5, crash: 2 }]);
  const shared = await readouts(page);

  await page.reload();
  await ready(page);
  assert.deepEqual(await readouts(page), shared, 'the reloaded link shows the same moment');
  assert.equal(await page.textContent('[data-testid="crashed-count"]'), '1');

  // And in a fresh page, as someone opening the link would.
  const other = await browser.newPage();
  await other.goto(url);
  await ready(other);
  assert.deepEqual(await readouts(other), shared);
  await other.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('changing a setting rebuilds the run and writes readable parameters', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=3&at=end');
  await page.selectOption('#algorithm', 'chang-roberts');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('algorithm') === 'chang-roberts');
  const params = new URL(await pageAddress(page)).searchParams;
  assert.equal(params.get('nodes'), '5');
  assert.equal(params.get('seed'), '3');
  await page.click('#new-seed');
  assert.match(await page.inputValue('#seed'), /^\d+$/);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('seed') !== '3');
  assert.equal(await page.isVisible('[data-testid="error"]'), false);

  await page.fill('#nodes', '0');
  await page.press('#nodes', 'Enter');
  await page.locator('#nodes').blur();
  await page.waitForSelector('[data-testid="error"]:not([hidden])');
  assert.match((await page.textContent('[data-testid="error"]')) ?? '', /nodes/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('readable at 360 px: nothing wider than the screen', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=3&at=20', {
    width: 360,
    height: 740,
  });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width} px wide`);
  const box = await page.locator('#cluster').boundingBox();
  assert.ok(box && box.width >= 300 && box.height >= 260, `canvas is ${JSON.stringify(box)}`);
  assert.deepEqual(errors, []);
  await page.close();
  assert.ok(baseUrl().startsWith('http'));
});
