// Compare mode answers the lesson's question, "what did the failover
// cost": the failover columns equal `election run --json` for the same
// scenario at the same time; a crash of the leader made in the single
// view becomes a crash of each algorithm's own leader in compare mode (a
// fixed node is called out); the theory column and the notes under the
// table agree; on a phone every column can be reached.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, pageAddress, playFor, playUntil, ready, testId } from './page.js';
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

/** Bully's leader n4 crashes at 300 ms: each run's own leader, by "leader". */
const LEADER_CRASH = { version: 1, algorithm: 'bully', nodes: 5, seed: 3, faults: [{ at_ms: 300, crash: 'leader' }] };

/**
 * Sets the compare speed slider (log10 of the speed).
 * @param {import('playwright-core').Page} page
 * @param {number} log10Speed
 */
async function setCompareSpeed(page, log10Speed) {
  await page.$eval(
    '#compare-speed',
    (input, v) => {
      const range = /** @type {HTMLInputElement} */ (input);
      range.value = String(v);
      range.dispatchEvent(new Event('input', { bubbles: true }));
    },
    log10Speed,
  );
}

test('the failover cells equal election run --json, before the crash, while leaderless, after it and at the end', async () => {
  const ids = ['bully', 'raft'];
  const { page, errors } = await openPlayground(browser, `/?compare=${ids.join(',')}&at=0#s=${encodeShare(LEADER_CRASH)}`);
  const cli = (/** @type {string} */ a, /** @type {number} */ t) =>
    cliRunScenario(LEADER_CRASH, ['--algorithm', a, '--until-ms', String(t)]);
  // Played, then paused at whatever time the play reached.
  await setCompareSpeed(page, 0);
  await page.click('#compare-play');
  await playFor(page, 250);
  await page.click('#compare-play');
  const t1 = await sharedTime(page);
  assert.ok(t1 > 0 && t1 < 300, `paused before the crash, at ${t1} ms`);
  const before = await rows(page);
  assertRowsMatch(before, cli, t1);

  // Just after the crash nobody has settled yet: "-" in both.
  await page.$eval('#compare-timeline', (input) => {
    const range = /** @type {HTMLInputElement} */ (input);
    range.value = '300.5';
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const leaderless = await rows(page);
  assertRowsMatch(leaderless, cli, 300.5);
  assert.deepEqual(
    leaderless.map((r) => [r.cells['recovery-messages'], r.cells['recovery-ms']]),
    [
      ['-', '-'],
      ['-', '-'],
    ],
  );

  // Played on past the recovery and paused.
  await page.click('#compare-play');
  await playFor(page, 700);
  await page.click('#compare-play');
  const t2 = await sharedTime(page);
  assert.ok(t2 > 900, `played on to ${t2} ms`);
  const after = await rows(page);
  assertRowsMatch(after, cli, t2);
  for (const row of after) assert.match(row.cells['recovery-ms'], /^\d/, `${row.algorithm} recovered by ${t2} ms`);

  // And at the end.
  await page.click('#compare-to-end');
  const end = await sharedTime(page);
  assertRowsMatch(await rows(page), cli, end);

  // The headers say what the columns count.
  const titles = await page.$$eval('#compare-head-row th', (ths) =>
    Object.fromEntries(ths.map((th) => [/** @type {HTMLElement} */ (th).dataset.column ?? 'algorithm', th.title])),
  );
  assert.match(titles['recovery-messages'], /Election messages sent from the last fault that removed this run's leader .* until the cluster settled again/);
  assert.match(titles['recovery-ms'], /from the last fault that removed this run's leader until the cluster settled again/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a click on the leader in the single view crashes "leader": the same run, and compare crashes each leader', async () => {
  // At 400 ms Bully (n4) and Raft (since 168 ms) both have a leader.
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=3&at=400');
  const t = Number(await testId(page, 'sim-time'));
  assert.equal(t, 400);
  assert.equal(await testId(page, 'leader'), '4');
  await page.click('[data-testid="node-4"]');
  await page.click('#to-end');
  await page.click('#share');
  const scenario = decodeShare(await pageAddress(page));
  assert.deepEqual(scenario.faults, [{ at_ms: t, crash: 'leader' }], 'the click on the one leader is a crash of "leader"');
  // The same run as a crash of n4 by number: same trace hash.
  const byNumber = cliRunScenario({ ...scenario, faults: [{ at_ms: t, crash: 4 }] });
  assert.equal(await testId(page, 'trace-hash'), byNumber.trace_hash);
  assert.equal(cliRunScenario(scenario).trace_hash, byNumber.trace_hash);

  // Carried into compare: Raft's own leader at that time crashes, not n4.
  await page.goto((await pageAddress(page)).replace(/\?[^#]*/, `?compare=bully,raft&at=${t}`));
  await ready(page);
  assert.equal(await sharedTime(page), t);
  assert.equal(await page.isHidden('[data-testid=compare-fixed-crash]'), true, 'no fixed node to call out');
  const raftLeader = cliRun(['--algorithm', 'raft', '--nodes', '5', '--seed', '3', '--until-ms', String(t)]).leader;
  assert.notEqual(raftLeader, 4, 'the lesson needs Raft to have elected another node');
  for (const [id, node] of [
    ['bully', 4],
    ['raft', raftLeader],
  ]) {
    const label = await page.getAttribute(`.compare-view[data-algorithm=${id}] [data-testid=node-${node}]`, 'aria-label');
    assert.match(label ?? '', new RegExp(`n${node}, crashed`), `${id}'s own leader n${node} is crashed`);
  }
  assertRowsMatch(await rows(page), (a, until) => cliRunScenario(scenario, ['--algorithm', a, '--until-ms', String(until)]), t);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a crash of a fixed node is called out above the table', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5&seed=3&at=120');
  await page.click('[data-testid="node-1"]');
  await page.click('#share');
  assert.deepEqual(decodeShare(await pageAddress(page)).faults, [{ at_ms: 120, crash: 1 }], 'not the leader: the node itself');
  await page.check('#compare-picker input[value=raft]');
  await Promise.all([page.waitForURL(/compare=bully,raft/, { waitUntil: 'commit' }), page.click('#compare-open')]);
  await ready(page);
  assert.equal(await page.isVisible('[data-testid=compare-fixed-crash]'), true);
  assert.match(
    await testId(page, 'compare-fixed-crash'),
    /^n1 is crashed at 120 ms in every run \(a fixed node, not each one's leader\)\./,
  );
  // Above the table.
  const note = await page.locator('[data-testid=compare-fixed-crash]').boundingBox();
  const table = await page.locator('[data-testid=compare-table]').boundingBox();
  assert.ok(note && table && note.y < table.y);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the theory column and the notes under the table agree, before and after a fault', async () => {
  const ids = ['chang-roberts', 'hirschberg-sinclair', 'bully'];
  const { page, errors } = await openPlayground(browser, `/?compare=${ids.join(',')}&nodes=6&seed=3&at=end`);
  /** @returns {Promise<{names: Record<string, string>, theory: Record<string, string>, notes: string[]}>} */
  const read = () =>
    page.evaluate(() => ({
      names: Object.fromEntries(
        [...document.querySelectorAll('#compare-rows tr')].map((tr) => [
          /** @type {HTMLElement} */ (tr).dataset.algorithm,
          tr.querySelector('th')?.textContent ?? '',
        ]),
      ),
      theory: Object.fromEntries(
        [...document.querySelectorAll('#compare-rows tr')].map((tr) => [
          /** @type {HTMLElement} */ (tr).dataset.algorithm,
          tr.querySelector('[data-testid=theory]')?.textContent ?? '',
        ]),
      ),
      notes: document.getElementById('compare-theory')?.hidden
        ? []
        : [...document.querySelectorAll('#compare-theory li')].map((li) => li.textContent ?? ''),
    }));
  const before = await read();
  assert.equal(before.theory['chang-roberts'], '17');
  assert.notEqual(before.theory['hirschberg-sinclair'], '-');
  assert.equal(before.theory.bully, '-');
  // One note per number in the column, naming the row as the table does.
  assert.equal(before.notes.length, 2);
  assert.match(before.notes[0], new RegExp(`^Theory for ${before.names['chang-roberts']}: 2n-1 ELECTION`));
  assert.match(before.notes[1], new RegExp(`^Theory for ${before.names['hirschberg-sinclair']}: upper bound`));

  await page.click('#compare-crash-leader');
  const after = await read();
  assert.deepEqual(Object.values(after.theory), ['-', '-', '-'], 'the published counts are for no faults');
  assert.equal(after.notes.length, 1);
  assert.match(after.notes[0], /^Theory shows "-": .* no faults, and this scenario has faults\.$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone (390 px) every column of the table can be reached, with a cue to scroll', async () => {
  const ids = ['bully', 'raft', 'chang-roberts', 'lelann'];
  const { page, errors } = await openPlayground(browser, `/?compare=${ids.join(',')}&nodes=6&seed=3&at=end`, {
    width: 390,
    height: 844,
  });
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'the page itself does not scroll sideways');
  await page.locator('[data-testid=compare-scroll]').scrollIntoViewIfNeeded();
  assert.equal(await page.isVisible('[data-testid=compare-scroll-hint]'), true, 'a visible cue: there is more to the right');
  const columns = await page.$$eval('#compare-head-row th', (ths) => ths.map((th) => /** @type {HTMLElement} */ (th).dataset.column ?? ''));
  assert.equal(columns.length, 12);
  for (const column of columns.slice(1)) {
    // Scrolled so the column's left edge meets the sticky algorithm column.
    const seen = await page.evaluate((c) => {
      const wrap = /** @type {HTMLElement} */ (document.querySelector('[data-testid=compare-scroll]'));
      const th = /** @type {HTMLElement} */ (document.querySelector(`#compare-head-row th[data-column="${c}"]`));
      const first = /** @type {HTMLElement} */ (document.querySelector('#compare-head-row th'));
      wrap.scrollLeft = th.offsetLeft - first.offsetWidth;
      const box = wrap.getBoundingClientRect();
      const r = th.getBoundingClientRect();
      const cell = /** @type {HTMLElement} */ (document.querySelector(`#compare-rows tr [data-testid="${c}"]`));
      const cr = cell.getBoundingClientRect();
      const hit = document.elementFromPoint(cr.left + cr.width / 2, cr.top + cr.height / 2);
      return {
        inside: r.left >= box.left - 1 && r.right <= box.right + 1,
        uncovered: hit === cell || cell.contains(hit),
        text: cell.textContent,
      };
    }, column);
    assert.ok(seen.inside, `${column}: its header scrolls into the table's box`);
    assert.ok(seen.uncovered, `${column}: its first cell is not under the sticky column (${seen.text})`);
  }
  // At the far right the cue goes; the algorithm column stayed in view.
  await page.waitForFunction(
    () => /** @type {HTMLElement} */ (document.querySelector('[data-testid=compare-scroll-hint]')).hidden,
  );
  const name = await page.locator('#compare-rows tr:first-child th').boundingBox();
  const wrap = await page.locator('[data-testid=compare-scroll]').boundingBox();
  assert.ok(name && wrap && Math.abs(name.x - wrap.x) < 1, 'the algorithm column sticks to the left edge');
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare mode skips a stretch where every run is quiet, says so, and no number changes', async () => {
  // After Bully's leader crashes at 300 ms, both runs wait for timers:
  // nothing on the wire in either.
  const scenario = { ...LEADER_CRASH, until_ms: 700 };
  /** @type {unknown[]} */
  const seen = [];
  /** @type {number[]} */
  const times = [];
  for (const skip of [true, false]) {
    const { page, errors } = await openPlayground(browser, `/?compare=bully,lelann&at=300#s=${encodeShare(scenario)}`);
    assert.equal(await page.isChecked('[data-testid=compare-skip-quiet]'), true, 'on by default');
    if (!skip) await page.click('[data-testid=compare-skip-quiet]');
    await setCompareSpeed(page, -1); // 0.1x
    await page.click('#compare-play');
    await playFor(page, 100);
    const note = await page.textContent('#compare-stop');
    if (skip) assert.match(note ?? '', /^Skipping \d+ ms of quiet time/);
    else assert.doesNotMatch(note ?? '', /Skipping/);
    times.push(
      100 +
        (await playUntil(page, () => document.getElementById('compare-play')?.getAttribute('aria-pressed') === 'false', null, {
          stepMs: 100,
        })),
    );
    assert.equal(await sharedTime(page), 700, 'stopped at the scenario end');
    seen.push(await rows(page));
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(seen[0], seen[1], 'the same table with and without skipping');
  assert.ok(times[0] + 300 <= times[1], `skipping played faster: ${times[0]} ms against ${times[1]} ms`);
});
