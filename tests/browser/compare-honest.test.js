// Compare answers honestly: Crash each leader with runs that have no
// leader yet names them and offers to run them to their leader first (the
// crash then waits for each run's first leader: one scenario, so the link
// and `election run` reproduce it); Failover and Recovery count only from
// a fault that removed that run's leader, else "-" with the reason; the
// table equals `election run --json` throughout; presentation mode shows
// the costs in projector type without scrolling.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, pageAddress } from './page.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson, cliRunScenario, decodeShare, encodeShare } from './reference.js';
import { assertRowsMatch, rows, sharedTime } from './compare-rows.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/** Bully leads from time 0; Chang-Roberts from 41.79 ms, Raft from 167.701 ms. */
const PLAIN = { version: 1, algorithm: 'bully', nodes: 5, seed: 3 };

/**
 * The CLI's run of `scenario` under `algorithm` until `t`.
 * @param {object} scenario
 */
function cliOf(scenario) {
  return (/** @type {string} */ a, /** @type {number} */ t) => cliRunScenario(scenario, ['--algorithm', a, '--until-ms', String(t)]);
}

test('Crash each leader with leaderless runs: it names them, offers to run them to their leader, then crashes it', async () => {
  const ids = ['bully', 'chang-roberts', 'raft'];
  const { page, errors } = await openPlayground(browser, `/?compare=${ids.join(',')}&at=20#s=${encodeShare(PLAIN)}`);
  assert.equal(await sharedTime(page), 20);
  await page.click('#compare-crash-leader');
  // Bully lost n4; the others had no leader: said, with the offer.
  await page.waitForSelector('[data-testid=compare-crash-note]:not([hidden])');
  assert.equal(
    await page.textContent('[data-testid=compare-leaderless]'),
    'Chang-Roberts ring and Raft have no leader yet: not crashed. Bully lost its leader.',
  );
  assert.equal(await page.isVisible('[data-testid=compare-run-to-leader]'), true);
  assert.equal(await page.textContent('[data-testid=compare-run-to-leader]'), 'Run them to their leader, then crash it');
  const crashed = { ...PLAIN, faults: [{ at_ms: 20, crash: 'leader' }] };
  const now = await rows(page);
  assertRowsMatch(now, cliOf(crashed), 20);
  // Bully's leader was removed and it has not settled yet; the others' was not.
  assert.match(now[0].why['recovery-messages'], /^Its leader was removed at 20 ms and the cluster has not settled again yet\.$/);
  for (const row of now.slice(1)) {
    assert.deepEqual([row.cells['recovery-messages'], row.cells['recovery-ms']], ['-', '-'], row.algorithm);
    assert.match(row.why['recovery-ms'], /^No fault removed this run's leader/, row.algorithm);
  }
  // The reason is in the cell for screen readers too.
  assert.match(
    (await page.textContent('tr[data-algorithm=raft] [data-testid=recovery-messages]')) ?? '',
    /^- \(No fault removed this run's leader/,
  );

  // The offer: each leaderless run is run to its first leader and that is
  // crashed; the clock stands at the later of the two (Raft's, 167.701 ms).
  await page.click('[data-testid=compare-run-to-leader]');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-leaderless]')?.textContent?.startsWith('Crashed each first leader'));
  assert.equal(
    await page.textContent('[data-testid=compare-leaderless]'),
    'Crashed each first leader: Chang-Roberts ring at 41.79 ms and Raft at 167.701 ms.',
  );
  assert.equal(await page.isHidden('[data-testid=compare-run-to-leader]'), true);
  const t = await sharedTime(page);
  assert.equal(t, 167.701);
  const waited = { ...PLAIN, faults: [{ at_ms: 20, crash: 'leader-or-next' }] };
  const atCrash = await rows(page);
  assertRowsMatch(atCrash, cliOf(waited), t);
  assert.equal(atCrash[2].cells['compare-leader'], 'none', 'Raft lost its first leader');

  // One scenario for every run: the link carries the waiting crash.
  await page.click('#compare-share');
  await page.waitForFunction(() => /[#&]s=/.test(window.location.hash));
  assert.deepEqual(decodeShare(await pageAddress(page)).faults, waited.faults);

  // At the end every run has failed over, as the CLI says.
  await page.click('#compare-to-end');
  const end = await sharedTime(page);
  const last = await rows(page);
  assertRowsMatch(last, cliOf(waited), end);
  for (const row of last) assert.match(row.cells['recovery-ms'], /^\d/, `${row.algorithm} failed over`);
  // And `election compare` shows the same failover and recovery figures.
  const file = join(mkdtempSync(join(tmpdir(), 'election-compare-')), 'scenario.json');
  writeFileSync(file, JSON.stringify(waited));
  const report = cliJson(['compare', '--scenario', file, '--algorithms', ids.join(','), '--json']);
  assert.deepEqual(
    report.rows.map((/** @type {any} */ r) => [r.algorithm, String(r.failover_election_messages.mean), String(r.recovery_ms.mean)]),
    last.map((r) => [r.algorithm, r.cells['recovery-messages'], r.cells['recovery-ms']]),
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a fault that did not remove a run\'s leader reads "-" with the reason; every run with a leader is crashed at once', async () => {
  // At 1000 ms Raft's leader n2 keeps the majority {0, 1, 2}; Bully's n4 is cut off.
  const parted = { ...PLAIN, faults: [{ at_ms: 1000, partition: [[0, 1, 2]] }] };
  const { page, errors } = await openPlayground(browser, `/?compare=bully,raft&at=end#s=${encodeShare(parted)}`);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-time]')?.textContent) > 1000);
  const end = await sharedTime(page);
  const shown = await rows(page);
  assertRowsMatch(shown, cliOf(parted), end);
  assert.match(shown[0].cells['recovery-messages'], /^\d+$/, 'Bully failed over');
  assert.deepEqual([shown[1].cells['recovery-messages'], shown[1].cells['recovery-ms']], ['-', '-']);
  assert.match(shown[1].why['recovery-messages'], /^No fault removed this run's leader/);
  assert.equal(shown[1].why['recovery-ms'], shown[1].why['recovery-messages']);

  // Both lead now: Crash each leader crashes both and says nothing more.
  await page.click('#compare-crash-leader');
  assert.equal(await page.isHidden('[data-testid=compare-crash-note]'), true);
  const crashed = await rows(page);
  for (const row of crashed) assert.match(row.why['recovery-messages'] ?? '', /^Its leader was removed at /, row.algorithm);
  assert.deepEqual(errors, []);
  await page.close();
});

test('presentation mode shows the cost table in projector type, without scrolling, at 1920x1080', async () => {
  const crash = { ...PLAIN, faults: [{ at_ms: 300, crash: 'leader' }] };
  const { page, errors } = await openPlayground(browser, `/?compare=bully,chang-roberts,raft,zab&at=end#s=${encodeShare(crash)}`, {
    width: 1920,
    height: 1080,
  });
  await page.click('[data-testid=compare-present]');
  await page.waitForSelector('body.presenting');
  await page.waitForSelector('[data-testid=compare-table]', { state: 'visible' });
  const box = await page.$eval('[data-testid=compare-table]', (table) => {
    const r = table.getBoundingClientRect();
    const cell = /** @type {HTMLElement} */ (table.querySelector('tbody [data-testid=recovery-messages]'));
    const shownHeads = [...table.querySelectorAll('thead th')].filter((th) => getComputedStyle(th).display !== 'none');
    return {
      top: r.top,
      bottom: r.bottom,
      right: r.right,
      font: parseFloat(getComputedStyle(cell).fontSize),
      heads: shownHeads.map((th) => /** @type {HTMLElement} */ (th).dataset.column ?? 'algorithm'),
      // Nothing of compare mode needs scrolling: the section fits the
      // window and the table its box.
      scrolls: (() => {
        const section = /** @type {HTMLElement} */ (document.querySelector('#compare'));
        const wrap = /** @type {HTMLElement} */ (document.querySelector('#compare-scroll'));
        const s = section.getBoundingClientRect();
        return s.bottom > window.innerHeight + 0.5 || section.scrollHeight > section.clientHeight || wrap.scrollWidth > wrap.clientWidth;
      })(),
      viewsBottom: /** @type {HTMLElement} */ (document.querySelector('#compare-views')).getBoundingClientRect().bottom,
    };
  });
  assert.ok(box.font >= 24, `projector type: ${box.font}px`);
  assert.ok(box.bottom <= 1080 && box.right <= 1920, `on screen: ${JSON.stringify(box)}`);
  assert.ok(box.top >= box.viewsBottom - 1, 'under the views');
  assert.equal(box.scrolls, false, 'no scrolling');
  assert.deepEqual(box.heads, ['algorithm', 'compare-leader', 'recovery-messages', 'recovery-ms', 'messages-total', 'election-messages', 'violation-count']);
  // Still the core's numbers.
  assertRowsMatch(await rows(page), cliOf(crash), await sharedTime(page));
  assert.deepEqual(errors, []);
  await page.close();
});
