// Compare mode: `compare=a,b,c` opens one view and one table row per
// algorithm on the scenario in the rest of the address, all at one time;
// each row shows what `election run --algorithm X --until-ms T --json`
// reports for the same scenario at that time (the failover columns
// included; compare-lesson.test.js has the leader-crash lesson).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, pageAddress, playFor, ready } from './page.js';
import { cliRun, cliRunScenario, decodeShare, encodeShare } from './reference.js';
import { assertRowsMatch, rows, sharedTime } from './compare-rows.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

test('compare=bully,raft,chang-roberts at=end: one row each, the CLI figures at the latest end', async () => {
  const base = ['--nodes', '6', '--seed', '3'];
  const ids = ['bully', 'raft', 'chang-roberts'];
  const { page, errors } = await openPlayground(browser, `/?compare=${ids.join(',')}&nodes=6&seed=3&at=end`);
  const shown = await rows(page);
  assert.deepEqual(
    shown.map((r) => r.algorithm),
    ids,
    'one row per algorithm, in the order asked',
  );
  // at=end: the shared clock is at the latest of the algorithms' own ends.
  const ends = ids.map((a) => cliRun(['--algorithm', a, ...base]).end_ms);
  const t = await sharedTime(page);
  assert.equal(t, Math.max(...ends));
  assertRowsMatch(shown, (a, until) => cliRun(['--algorithm', a, ...base, '--until-ms', String(until)]), t);
  // The theory column: Chang-Roberts on an ascending ring, every node starting.
  const cr = shown.find((r) => r.algorithm === 'chang-roberts');
  assert.equal(cr?.cells.theory, String(2 * 6 - 1 + 6));
  assert.equal(shown.find((r) => r.algorithm === 'bully')?.cells.theory, '-');

  // Unambiguous: the single view is not shown, and the first
  // messages-total of the page is a cell of the table.
  assert.equal(await page.isVisible('main.layout'), false);
  assert.equal(await page.isVisible('[data-testid=compare-table]'), true);
  assert.equal(
    await page.$eval('[data-testid=messages-total]', (node) => node.closest('[data-testid=compare-table]') !== null),
    true,
  );
  assert.equal(await page.locator('[data-testid=compare-table] [data-testid=messages-total]').count(), 3);
  // One cluster drawing per view (each with its moving-messages overlay).
  assert.equal(await page.locator('.compare-view .canvas-wrap canvas:not(.cluster-moving):not(.cluster-labels)').count(), 3);
  assert.equal(await page.locator('.compare-view .canvas-wrap canvas.cluster-moving').count(), 3);
  assert.deepEqual(errors, []);
  await page.close();
});

test('each compare view has its own legend of message kinds and timers', async () => {
  const { page, errors } = await openPlayground(browser, '/?compare=bully,raft&nodes=5&at=100');
  const lists = await page.$$eval('.compare-view [data-testid=view-kinds]', (uls) =>
    uls.map((ul) => [...ul.querySelectorAll('li')].map((li) => li.dataset.kind)),
  );
  assert.equal(lists.length, 2);
  assert.ok(lists[0].includes('ELECTION') && !lists[0].includes('REQUEST_VOTE'), `Bully's kinds: ${lists[0]}`);
  assert.ok(lists[1].includes('REQUEST_VOTE') && !lists[1].includes('ELECTION'), `Raft's kinds: ${lists[1]}`);
  const timers = await page.$$eval('.compare-view [data-testid=view-timers]', (uls) => uls.map((ul) => ul.querySelectorAll('li').length));
  assert.ok(timers.every((n) => n > 0), `a timer pending in each view at 100 ms: ${timers}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a #s= link with faults: every view runs the same faults, rows match the CLI at the same time', async () => {
  const scenario = {
    version: 1,
    algorithm: 'bully',
    nodes: 6,
    seed: 4,
    faults: [
      { at_ms: 300, partition: [[0, 1, 2]] },
      { at_ms: 1200, heal: true },
      { at_ms: 1500, crash: 'leader' },
    ],
  };
  const ids = ['bully', 'chang-roberts', 'raft', 'zab'];
  const at = 1717.5;
  const { page, errors } = await openPlayground(browser, `/?compare=${ids.join(',')}&at=${at}#s=${encodeShare(scenario)}`);
  assert.equal(await sharedTime(page), at);
  const shown = await rows(page);
  assert.deepEqual(shown.map((r) => r.algorithm), ids);
  assertRowsMatch(shown, (a, t) => cliRunScenario(scenario, ['--algorithm', a, '--until-ms', String(t)]), at);
  // Bully splits its brain across the partition; Raft and Zab do not.
  assert.ok(Number(shown[0].cells['split-brain-ms']) > 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('one clock: play, step and the scrubber move every view together', async () => {
  const base = ['--nodes', '5', '--seed', '7'];
  const { page, errors } = await openPlayground(browser, '/?compare=bully,lelann&nodes=5&seed=7&at=0');
  assert.equal(await sharedTime(page), 0);
  for (let i = 0; i < 4; i++) await page.click('#compare-step');
  let t = await sharedTime(page);
  assert.ok(t > 0, 'a step moves the shared clock');
  assertRowsMatch(await rows(page), (a, until) => cliRun(['--algorithm', a, ...base, '--until-ms', String(until)]), t);

  // The keyboard steps the shared clock too (not the hidden single view).
  await page.focus('#compare-title');
  await page.keyboard.press('s');
  assert.ok((await sharedTime(page)) > t, 's steps');
  t = await sharedTime(page);

  // Play for a while, then pause: still one time for all rows.
  await page.click('#compare-play');
  await playFor(page, 500);
  await page.click('#compare-play');
  assert.ok((await sharedTime(page)) > t + 1, 'it played');
  t = await sharedTime(page);
  assertRowsMatch(await rows(page), (a, until) => cliRun(['--algorithm', a, ...base, '--until-ms', String(until)]), t);

  // The scrubber goes back in time for every view.
  await page.$eval('#compare-timeline', (input) => {
    const range = /** @type {HTMLInputElement} */ (input);
    range.value = '12.5';
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.equal(await sharedTime(page), 12.5);
  assertRowsMatch(await rows(page), (a, until) => cliRun(['--algorithm', a, ...base, '--until-ms', String(until)]), 12.5);
  assert.deepEqual(errors, []);
  await page.close();
});

test('faults made in compare mode go into every view and into the link', async () => {
  const { page, errors } = await openPlayground(browser, '/?compare=bully,raft&nodes=5&seed=2&at=400');
  // Clicking n4 in the first view crashes it in both.
  await page.click('.compare-view[data-algorithm=bully] [data-testid=node-4]');
  for (const id of ['bully', 'raft']) {
    const label = await page.getAttribute(`.compare-view[data-algorithm=${id}] [data-testid=node-4]`, 'aria-label');
    assert.match(label ?? '', /n4, crashed/, `${id} view`);
  }
  await page.click('#compare-crash-leader');
  await page.click('#compare-share');
  await page.waitForFunction(() => /[#&]s=1\./.test(window.location.href));
  const href = await pageAddress(page);
  const url = new URL(href);
  assert.equal(url.searchParams.get('compare'), 'bully,raft');
  assert.equal(url.searchParams.get('at'), '400');
  const shared = decodeShare(href);
  assert.equal(shared.algorithm, 'bully', 'the link keeps the scenario the comparison started from');
  assert.deepEqual(
    shared.faults.map((/** @type {any} */ f) => ({ ...f })),
    [
      { at_ms: 400, crash: 4 },
      { at_ms: 400, crash: 'leader' },
    ],
  );
  // The link reopens the same comparison, equal to the CLI on that scenario.
  await page.goto(href);
  await ready(page);
  assert.equal(await sharedTime(page), 400);
  assertRowsMatch(await rows(page), (a, t) => cliRunScenario(shared, ['--algorithm', a, '--until-ms', String(t)]), 400);
  assert.deepEqual(errors, []);
  await page.close();
});

test('entering compare mode from the page and leaving it', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=2&at=100');
  // The page's own algorithm is ticked already; add Raft.
  assert.equal(await page.isChecked('#compare-picker input[value=bully]'), true);
  await page.click('#compare-open');
  // Compare mode loads on this first click (www/stage/compare-picker.js): the
  // check comes once it is in.
  await page.waitForFunction(() => /compare.*2 to 4/i.test(document.querySelector('[data-testid=error]')?.textContent ?? ''));
  assert.match(await page.textContent('[data-testid=error]') ?? '', /compare.*2 to 4/i, 'one algorithm is not a comparison');
  await page.check('#compare-picker input[value=raft]');
  await Promise.all([page.waitForURL(/compare=bully,raft/, { waitUntil: 'commit' }), page.click('#compare-open')]);
  await ready(page);
  assert.deepEqual((await rows(page)).map((r) => r.algorithm), ['bully', 'raft']);
  assert.equal(await sharedTime(page), 100, 'compare mode opens at the moment the single view was at');
  assert.equal(await page.isVisible('main.layout'), false);

  await Promise.all([page.waitForURL((u) => !u.searchParams.has('compare'), { waitUntil: 'commit' }), page.click('#compare-leave')]);
  await ready(page);
  assert.equal(await page.isVisible('main.layout'), true);
  assert.equal(await page.isVisible('#compare'), false);
  assert.equal(await page.locator('[data-testid=messages-total]').count(), 1);
  assert.equal(Number(await page.textContent('[data-testid=sim-time]')), 100);
  assert.deepEqual(errors, []);
  await page.close();
});

test('bad compare= values show an error naming the parameter, and the single view', async () => {
  for (const value of ['bully', 'bully,paxos', 'bully,bully', 'bully,raft,zab,lease,lelann', '']) {
    const { page, errors } = await openPlayground(browser, `/?compare=${encodeURIComponent(value)}&algorithm=raft`);
    const message = (await page.textContent('[data-testid=error]')) ?? '';
    assert.match(message, /URL parameter `compare`/, `${JSON.stringify(value)}: ${message}`);
    assert.equal(await page.isVisible('[data-testid=error]'), true);
    assert.equal(await page.isVisible('main.layout'), true);
    assert.equal(await page.isVisible('#compare'), false);
    assert.equal(await page.locator('[data-testid=messages-total]').count(), 1);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // A fault some algorithm cannot take: node 6 is ZooKeeper's resource.
  const scenario = { version: 1, algorithm: 'zookeeper', nodes: 5, faults: [{ at_ms: 10, crash: 6 }] };
  const { page, errors } = await openPlayground(browser, `/?compare=zookeeper,bully#s=${encodeShare(scenario)}`);
  assert.match((await page.textContent('[data-testid=error]')) ?? '', /`compare`: bully cannot run this scenario/);
  assert.deepEqual(errors, []);
  await page.close();
});
