// Time travel and the playback controls: play/pause, step, next change
// (lands right after a role change), speed on a log scale, the scrubber
// seeking back and forward (the page then shows exactly what a fresh page
// opened with at=<ms> shows), forking the history by acting in the past
// (later live faults dropped and said so, the share link agrees), every
// shortcut by keyboard alone, the help overlay, and no console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { baseUrl, launchBrowser } from './helpers.js';
import { latestLog, openPlayground, pageAddress, playFor, readouts, toEnd, workDone } from './page.js';
import { cliRunScenario, decodeShare, encodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/** A Raft run with a crash, a partition and a lossy network. */
const RAFT = {
  version: 1,
  algorithm: 'raft',
  nodes: 5,
  seed: 3,
  network: { latency_ms: [2, 12], drop: 0.02 },
  faults: [
    { at_ms: 3000, crash: 'leader' },
    { at_ms: 5000, partition: [[0, 1]] },
    { at_ms: 8000, heal: true },
  ],
  until_ms: 12000,
};

/**
 * Everything the readouts show, for comparing two pages.
 * @param {import('playwright-core').Page} page
 */
async function shown(page) {
  const text = async (id) => (await page.textContent(`[data-testid="${id}"]`))?.trim() ?? '';
  return {
    ...(await readouts(page)),
    hash: await text('trace-hash'),
    leaders: await text('leaders'),
    dropped: await text('messages-dropped'),
    crashed: await text('crashed-count'),
    violations: await text('violations'),
  };
}

/**
 * Moves the time scrubber to `ms` as a user dragging it would.
 * @param {import('playwright-core').Page} page
 * @param {number} ms
 */
async function scrub(page, ms) {
  await page.$eval(
    '#timeline',
    (input, value) => {
      const range = /** @type {HTMLInputElement} */ (input);
      range.value = String(value);
      range.dispatchEvent(new Event('input', { bubbles: true }));
    },
    ms,
  );
}

/** @param {import('playwright-core').Page} page */
async function simTime(page) {
  return (await readouts(page)).time;
}

/** Takes the focus off every control, as after clicking the page. */
async function blur(page) {
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
}

test('the scrubber seeks back and forward to exactly what a fresh page at=<ms> shows', async () => {
  const path = `/?at=end#s=${encodeShare(RAFT)}`;
  const { page, errors } = await openPlayground(browser, path);
  assert.equal(await simTime(page), 12000);
  const end = await shown(page);
  for (const ms of [2500, 11000.5, 0, 6000, 4321.125, 12000]) {
    await scrub(page, ms);
    const here = await shown(page);
    assert.equal(here.time, ms);
    const { page: fresh, errors: freshErrors } = await openPlayground(
      browser,
      `/?at=${ms}#s=${encodeShare(RAFT)}`,
    );
    assert.deepEqual(await shown(fresh), here, `at ${ms} ms`);
    assert.deepEqual(freshErrors, []);
    await fresh.close();
  }
  assert.deepEqual(await shown(page), end, 'back at the end, the same end');
  assert.equal(await page.isHidden('[data-testid="past-note"]'), true, 'at the latest moment');
  await scrub(page, 4000);
  assert.match(
    (await page.textContent('[data-testid="past-note"]')) ?? '',
    /In the past: this history runs on to 12000 ms/,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('play, pause, step and speed', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=2&at=0');
  await page.click('#step');
  const t1 = await simTime(page);
  await page.click('#step');
  assert.ok((await simTime(page)) >= t1);
  assert.ok((await latestLog(page)).length > 0, 'each step shows something');

  const speed = async () => (await page.textContent('#speed-out'))?.trim();
  const before = await speed();
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  await playFor(page, 500);
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  assert.ok((await simTime(page)) > t1, 'it played');

  // Speed: log scale from 1/1000 to 1000 times real time.
  assert.equal(await page.getAttribute('#speed', 'min'), '-3');
  assert.equal(await page.getAttribute('#speed', 'max'), '3');
  await blur(page);
  await page.keyboard.press('+');
  assert.notEqual(await speed(), before);
  assert.equal(await speed(), '0.01×', 'twice the default 0.005×');
  await page.keyboard.press('-');
  assert.equal(await speed(), before);
  for (let i = 0; i < 25; i++) await page.keyboard.press('+');
  assert.equal(await speed(), '1000×');
  assert.equal(Number(await page.inputValue('#speed')), 3, 'the slider follows');
  for (let i = 0; i < 25; i++) await page.keyboard.press('-');
  assert.equal(await speed(), '0.001×');
  assert.equal(Number(await page.inputValue('#speed')), -3);
  // The slider itself sets the speed too.
  await page.$eval('#speed', (input) => {
    const range = /** @type {HTMLInputElement} */ (input);
    range.value = '0';
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.equal(await speed(), '1×');
  assert.equal(await page.getAttribute('#speed', 'aria-valuetext'), '1× real time');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Next change stops right after a role change, a change of leaders or a violation', async () => {
  const { page, errors } = await openPlayground(
    browser,
    '/?algorithm=raft&nodes=5&seed=4&start=none&at=0',
  );
  await page.click('#next-change');
  await workDone(page);
  const reason = (await page.textContent('#stop-reason')) ?? '';
  assert.match(reason, /next change: n\d becomes candidate in term 1/, reason);
  // The newest role line of the log is at this very moment.
  const time = await simTime(page);
  const role = await page.$eval('#log li.ev-role', (li) => li.textContent ?? '');
  assert.match(role, /becomes candidate in term 1/);
  assert.equal(Number.parseFloat(role), time, role);
  assert.equal((await readouts(page)).leader, 'none');

  // On to the first leader, by key.
  await blur(page);
  for (let i = 0; i < 20 && (await readouts(page)).leader === 'none'; i++) {
    await page.keyboard.press('n');
  }
  const { leader } = await readouts(page);
  assert.match(leader, /^\d$/);
  assert.match((await page.textContent('#stop-reason')) ?? '', new RegExp(`n${leader} becomes leader`));

  // A split brain is a violation: Bully cut in two.
  const split = {
    version: 1,
    algorithm: 'bully',
    nodes: 6,
    seed: 3,
    faults: [{ at_ms: 1000, partition: [[0, 1, 2]] }],
    until_ms: 5000,
  };
  await page.goto(`${baseUrl()}/?at=500#s=${encodeShare(split)}`);
  await page.waitForSelector('body[data-ready="true"]');
  for (let i = 0; i < 30 && (await page.textContent('[data-testid="violations"]')) === '0'; i++) {
    await page.click('#next-change');
    await workDone(page);
  }
  assert.equal(await page.textContent('[data-testid="violations"]'), '1');
  assert.match((await page.textContent('#stop-reason')) ?? '', /next change: VIOLATION split_brain/);
  // Nothing more before the end: it says so and stops there.
  await page.click('#next-change');
  await workDone(page);
  await page.click('#next-change');
  await workDone(page);
  assert.match(
    (await page.textContent('#stop-reason')) ?? '',
    /no role change, leader change or violation before 5000 ms/,
  );
  assert.equal(await simTime(page), 5000);
  assert.deepEqual(errors, []);
  await page.close();
});

test('acting in the past forks a new history: later live faults are dropped, the link agrees', async () => {
  const base = {
    version: 1,
    algorithm: 'bully',
    nodes: 6,
    seed: 3,
    faults: [{ at_ms: 2500, crash: 1 }],
    until_ms: 8000,
  };
  const { page, errors } = await openPlayground(browser, `/?at=3000#s=${encodeShare(base)}`);
  await page.click('[data-testid="node-5"]');
  await scrub(page, 4000);
  await page.click('[data-testid="node-5"]');
  assert.equal(await page.isHidden('[data-testid="fork-note"]'), true, 'acting at the latest moment does not fork');
  await scrub(page, 6000);

  await scrub(page, 2000);
  assert.match(
    (await page.textContent('[data-testid="past-note"]')) ?? '',
    /runs on to 6000 ms\. A fault made now starts a new history and drops 2 later actions\./,
  );
  await page.click('[data-testid="node-4"]');
  const note = (await page.textContent('[data-testid="fork-note"]')) ?? '';
  assert.equal(
    note,
    // n5 led at 3000 ms: its click crashed "leader".
    'History forked at 2000 ms: 2 later actions dropped (crash the leader at 3000 ms, recover n5 at 4000 ms).',
  );
  assert.equal(await page.getAttribute('[data-testid="fork-note"]', 'role'), 'status');
  assert.equal(await page.isHidden('[data-testid="past-note"]'), true, 'now at the new latest moment');
  assert.equal(await page.textContent('[data-testid="crashed-count"]'), '1');

  // The new history in the link: the scenario's own fault stays.
  await page.click('#share');
  const scenario = decodeShare(await pageAddress(page));
  assert.deepEqual(scenario.faults, [
    { at_ms: 2500, crash: 1 },
    { at_ms: 2000, crash: 4 },
  ]);
  const here = await shown(page);
  const link = await pageAddress(page);
  const { page: other, errors: otherErrors } = await openPlayground(browser, link);
  assert.deepEqual(await shown(other), here, 'the link opens the same moment');
  await other.close();
  assert.deepEqual(otherErrors, []);

  // And the whole new history runs as the CLI runs it.
  await toEnd(page);
  const expected = cliRunScenario(scenario);
  const end = await shown(page);
  assert.equal(end.messages, expected.messages.sent);
  assert.equal(end.hash, expected.trace_hash);
  assert.equal(end.leader, String(expected.leader));
  assert.deepEqual(errors, []);
  await page.close();
});

test('every shortcut works from the keyboard alone, and not while typing', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=3&at=0');
  await blur(page);
  const pressed = async () => page.getAttribute('#play', 'aria-pressed');

  await page.keyboard.press(' ');
  assert.equal(await pressed(), 'true', 'Space plays');
  await page.keyboard.press(' ');
  assert.equal(await pressed(), 'false', 'Space pauses');
  await page.keyboard.press('Home');
  assert.equal(await simTime(page), 0, 'Home goes to 0');

  await page.keyboard.press('s');
  const afterS = await simTime(page);
  await page.keyboard.press('ArrowRight');
  assert.ok((await latestLog(page)).length >= 2, 's and → step');
  await page.keyboard.press('n');
  assert.match((await page.textContent('#stop-reason')) ?? '', /next change/);

  await page.keyboard.press('End');
  await workDone(page);
  const end = Number(await page.textContent('#end-ms'));
  assert.equal(await simTime(page), end, 'End runs to the end');
  assert.ok(end > afterS);

  // Seek back and forward by one jump (a twentieth of the scrubber, rounded).
  const max = Number(await page.getAttribute('#timeline', 'max'));
  await page.keyboard.press('[');
  const back = await simTime(page);
  assert.ok(back < end, `[ goes back (${back} < ${end})`);
  const jump = end - back;
  assert.ok(jump > 0 && jump <= max / 20, `one jump is ${jump} ms of ${max}`);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await simTime(page), Math.max(0, back - jump), '← goes back');
  await page.keyboard.press('Shift+ArrowLeft');
  const twice = await simTime(page);
  assert.equal(twice, Math.max(0, back - 2 * jump), 'Shift+← goes back');
  await page.keyboard.press(']');
  assert.equal(await simTime(page), twice + jump, '] goes forward');
  await page.keyboard.press('Shift+ArrowRight');
  assert.equal(await simTime(page), twice + 2 * jump, 'Shift+→ goes forward');

  const speed = async () => (await page.textContent('#speed-out'))?.trim();
  await page.keyboard.press('+');
  assert.equal(await speed(), '0.01×');
  await page.keyboard.press('-');
  assert.equal(await speed(), '0.005×');

  // Not while typing: keys go to the field.
  const moment = await shown(page);
  await page.focus('#pause-ms');
  await page.keyboard.press('End');
  await page.keyboard.type(' n s[]+-?');
  assert.deepEqual(await shown(page), moment, 'nothing moved');
  assert.equal(await pressed(), 'false');
  assert.equal(await speed(), '0.005×');
  assert.equal(await page.evaluate(() => document.querySelector('dialog')?.open), false);
  await page.fill('#pause-ms', '500');

  // On a node button, Space is playback's; Enter presses the button (crash).
  await page.focus('[data-testid="node-0"]');
  await page.keyboard.press(' ');
  assert.equal(await pressed(), 'true', 'Space plays on a node button');
  await page.keyboard.press(' ');
  assert.equal(await pressed(), 'false');
  assert.equal(await page.textContent('[data-testid="crashed-count"]'), '0');
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent('[data-testid="crashed-count"]'), '1');
  // Letters still work there.
  await page.keyboard.press('Home');
  await page.keyboard.press('n');
  assert.match((await page.textContent('#stop-reason')) ?? '', /next change/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the help overlay is a modal dialog that keeps the focus and closes with Escape', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=3&at=end');
  const open = async () =>
    page.evaluate(() => document.querySelector('[data-testid="help"]')?.matches(':modal'));
  await page.focus('#step');
  await page.keyboard.press('?');
  assert.equal(await open(), true, '? opens it, modal');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'help-close');
  const keys = await page.$$eval('#help-keys dt', (dts) => dts.map((dt) => dt.textContent));
  const listed = ['Space', 'S or →', 'N', '← or [ or Shift+←', '] or Shift+→', '+', '−', 'Home', 'End', '?'];
  for (const k of listed) assert.ok(keys.includes(k), `lists ${k}: ${JSON.stringify(keys)}`);
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
    assert.equal(
      await page.evaluate(() => document.querySelector('dialog')?.contains(document.activeElement)),
      true,
      'the focus stays inside',
    );
  }
  // Shortcuts are off while it is open.
  const time = await simTime(page);
  await page.keyboard.press('Home');
  assert.equal(await simTime(page), time);
  await page.keyboard.press('Escape');
  assert.equal(await open(), false, 'Escape closes it');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'step', 'focus goes back');

  await page.click('#help-open');
  assert.equal(await open(), true, 'the Keys button opens it');
  await page.click('#help-close');
  assert.equal(await open(), false, 'Close closes it');
  await blur(page);
  await page.keyboard.press('?');
  assert.equal(await open(), true);
  await page.keyboard.press('?');
  assert.equal(await open(), false, '? toggles it');
  assert.deepEqual(errors, []);
  await page.close();
});
