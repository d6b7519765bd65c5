// Opening a pathological run: 1,024 Bully nodes all starting an election
// at time 0 put half a million messages on the wire in that one instant.
// The page goes to the address's moment (`at=`) in pieces between frames
// instead of one long task, and looks for the run's end the same way; it
// must still end up exactly where the CLI does.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { baseUrl, collectErrors, launchBrowser } from './helpers.js';
import { pressPlay, ready, readouts, waitFrames } from './page.js';
import { cliRun } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

const BURST = ['--algorithm', 'bully', '--nodes', '1024', '--seed', '1', '--start', 'all'];
const BURST_QUERY = '?algorithm=bully&nodes=1024&seed=1&start=all';

test('a 1024-node burst opens at its moment over several frames, drawn on the way, and matches the CLI', async () => {
  const at = cliRun([...BURST, '--until-ms', '2']);
  const whole = cliRun(BURST);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  // Animation frames between the page's first drawing and its saying it
  // is ready: the way to the opening moment.
  await page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__framesOpening = 0;
    const count = () => {
      if (document.body?.dataset.ready === 'true') return;
      if (performance.getEntriesByName('playground-first-draw').length > 0) w.__framesOpening += 1;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  await page.goto(`${baseUrl()}/${BURST_QUERY}&at=2`);
  await ready(page, 60000);
  const frames = await page.evaluate(() => /** @type {any} */ (window).__framesOpening);
  assert.ok(frames >= 2, `the opening moment was reached over ${frames} frame(s), not in one task`);

  const shown = await readouts(page);
  assert.equal(shown.time, 2, 'the page stands at the asked moment');
  assert.equal(shown.messages, at.messages.sent, 'the messages the CLI sent by 2 ms');
  assert.equal(await page.textContent('[data-testid=trace-hash]'), at.trace_hash, 'the very same events');
  assert.equal(await page.inputValue('#timeline'), '2');

  // The run's end, looked for between frames, shows once found: the CLI's.
  await page.waitForFunction(() => document.getElementById('end-ms')?.textContent !== '…', null, { timeout: 60000 });
  assert.equal(Number(await page.textContent('#end-ms')), whole.end_ms, "the end is the CLI's end");
  // Still where it was opened: looking for the end did not move the run.
  assert.equal((await readouts(page)).time, 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('pressing Play while the page opens takes over from where the run got to', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  // Two pieces of the way there, then the page holds (see
  // www/shared/play-clock.js): the way to 19 ms takes many more.
  await page.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__playClock = { ...w.__playClock, tasks: 2 };
  });
  await page.goto(`${baseUrl()}/${BURST_QUERY}&at=19`);
  await page.waitForFunction(() => /** @type {any} */ (window).__playClock.tasks === 0, null, { timeout: 60000 });
  await waitFrames(page, 1);
  assert.equal(await page.getAttribute('body', 'data-ready'), null, 'still on the way');
  await pressPlay(page);
  await ready(page, 60000);
  assert.equal(await page.textContent('#play'), 'Pause', 'playing, as asked');
  // Paused, every readout is written: the run stands where the two
  // pieces got it (no time was handed to it).
  await pressPlay(page);
  const time = (await readouts(page)).time;
  assert.ok(time < 19, `the run plays on from where it got to (${time} ms), not from the opening moment`);
  assert.deepEqual(errors, []);
  await page.close();
});
