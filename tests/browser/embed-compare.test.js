// The compare embed (`?embed=1&compare=a,b`): small views side by side
// and the compact table with the failover columns, equal to `election
// run --json`, played by the page's player; a bad list is named, never
// replaced by a single view; the postMessage API says what it cannot do.
// And "Copy embed code": the iframe snippet of the single view or of a
// comparison opens the same run at the same moment.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { baseUrl, collectErrors, fixtureUrl, launchBrowser } from './helpers.js';
import { openPlayground, pageAddress, playFor, testId } from './page.js';
import { cliRunScenario, encodeShare } from './reference.js';
import { assertRowsMatch, rows } from './compare-rows.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/** Each run's leader crashes at 300 ms. */
const LEADER_CRASH = { version: 1, algorithm: 'bully', nodes: 5, seed: 3, faults: [{ at_ms: 300, crash: 'leader' }] };

/**
 * Opens an address as the top page and waits for it to be ready.
 * @param {string} path
 * @param {{width: number, height: number}} [viewport]
 */
async function open(path, viewport = { width: 800, height: 500 }) {
  const page = await browser.newPage({ viewport });
  const errors = collectErrors(page);
  await page.goto(path.startsWith('http') ? path : `${baseUrl()}${path}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  return { page, errors };
}

/** @param {import('playwright-core').Page} page */
async function embedTime(page) {
  return Number(await page.getAttribute('[data-testid=embed-time]', 'data-ms'));
}

test('embed=1&compare=bully,raft: two views, the compact table equal to election run, played by the player', async () => {
  const { page, errors } = await open(`/?embed=1&compare=bully,raft&at=250&speed=0.5&controls=play,step,scrubber,faults#s=${encodeShare(LEADER_CRASH)}`);
  const cli = (/** @type {string} */ a, /** @type {number} */ t) =>
    cliRunScenario(LEADER_CRASH, ['--algorithm', a, '--until-ms', String(t)]);
  assert.equal(await page.getAttribute('[data-testid=embed]', 'data-mode'), 'compare');
  assert.deepEqual(
    await page.$$eval('.embed-compare-view', (figs) => figs.map((f) => /** @type {HTMLElement} */ (f).dataset.algorithm)),
    ['bully', 'raft'],
  );
  // Each view has its canvas (no single-run canvas in its place).
  assert.equal(await page.locator('.embed-compare-view canvas.embed-canvas').count(), 2);
  assert.equal(await page.locator('[data-testid=embed-canvas]').count(), 0);
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  assert.equal(await embedTime(page), 250);
  const shown = await rows(page);
  assert.deepEqual(shown.map((r) => r.algorithm), ['bully', 'raft']);
  assert.deepEqual(Object.keys(shown[0].cells), ['compare-leader', 'recovery-messages', 'recovery-ms', 'election-messages', 'violation-count']);
  assertRowsMatch(shown, cli, 250);

  // Played past the crash and the recovery, then paused: still the CLI's.
  await page.click('[data-testid=embed-play]');
  await playFor(page, 2000);
  // Paused (unless it stopped by itself at the end of the runs).
  if ((await page.getAttribute('[data-testid=embed]', 'data-playing')) === 'true') await page.click('[data-testid=embed-play]');
  const t = await embedTime(page);
  assert.ok(t > 500, `played to ${t} ms`);
  const after = await rows(page);
  assertRowsMatch(after, cli, t);
  for (const row of after) assert.match(row.cells['recovery-ms'], /^\d/, `${row.algorithm} recovered`);

  // A click on a node crashes it in both views, called out as a fixed node.
  await page.click('.embed-compare-view[data-algorithm=raft] [data-testid=node-1]');
  for (const id of ['bully', 'raft']) {
    const label = await page.getAttribute(`.embed-compare-view[data-algorithm=${id}] [data-testid=node-1]`, 'aria-label');
    assert.match(label ?? '', /n1, crashed/, id);
  }
  assert.match(await testId(page, 'compare-fixed-crash'), /^n1 is crashed at [\d.]+ ms in every run \(a fixed node, not each one's leader\)\.$/);
  // The link opens the same comparison in the full playground.
  const href = await page.$eval('[data-testid=embed-open]', (a) => {
    a.dispatchEvent(new Event('focus'));
    return /** @type {HTMLAnchorElement} */ (a).href;
  });
  const url = new URL(href);
  assert.equal(url.searchParams.get('compare'), 'bully,raft');
  assert.equal(url.searchParams.get('embed'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad compare list in an embed is named, and no single view is shown instead', async () => {
  for (const value of ['bully', 'bully,paxos']) {
    const { page, errors } = await open(`/?embed=1&compare=${value}`);
    assert.match((await testId(page, 'error')) ?? '', /URL parameter `compare`/, value);
    assert.equal(await page.isVisible('[data-testid=error]'), true);
    assert.equal(await page.locator('canvas:visible').count(), 0, `${value}: no view in place of the comparison`);
    assert.equal(await page.locator('.embed-compare-view, [data-testid=embed-canvas]').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the postMessage API of a compare embed: state names every run, load is refused by name', async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  const errors = collectErrors(page);
  await page.goto(await fixtureUrl(page, 'embed-host.html'));
  await page.evaluate((src) => window.openEmbed(src, 800, 500), `${baseUrl()}/?embed=1&compare=bully,raft&nodes=5&seed=3&at=100`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  assert.ok(frame);
  await frame.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  /** @param {Record<string, unknown>} command */
  const send = async (command) => {
    const from = await page.evaluate(() => window.received.length);
    await page.evaluate((c) => window.send(c), command);
    await page.waitForFunction(
      ([n, id]) => window.received.slice(n).some((m) => (m.data?.type === 'ok' || m.data?.type === 'error') && m.data.id === id),
      [from, command.id],
    );
    return page.evaluate(([n, id]) => window.received.slice(n).map((m) => m.data).find((d) => d.id === id), [from, command.id]);
  };
  const ready = (await page.evaluate(() => window.received.map((m) => m.data))).find((d) => d.type === 'ready');
  assert.deepEqual(ready.compare, ['bully', 'raft']);
  const state = await send({ type: 'state', id: 1 });
  assert.equal(state.type, 'ok');
  assert.equal(state.time_ms, 100);
  assert.deepEqual(state.runs.map((/** @type {any} */ r) => r.algorithm), ['bully', 'raft']);
  const bully = cliRunScenario({ version: 1, algorithm: 'bully', nodes: 5, seed: 3 }, ['--until-ms', '100']);
  assert.equal(state.runs[0].trace_hash, bully.trace_hash);
  const seek = await send({ type: 'seek', id: 2, ms: 50 });
  assert.equal(seek.time_ms, 50);
  const load = await send({ type: 'load', id: 3, link: '/?algorithm=raft' });
  assert.equal(load.type, 'error');
  assert.equal(load.field, 'type');
  assert.match(load.message, /compare embed .* cannot load another scenario/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Copy embed code: the iframe snippet is on the clipboard and in the field, and opens this run at this moment', async () => {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const errors = collectErrors(page);
  await page.goto(`${baseUrl()}/?algorithm=raft&nodes=5&seed=4&at=450`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.click('[data-testid=copy-embed]');
  await page.waitForFunction(() => /copied/.test(document.querySelector('[data-testid=embed-code-status]')?.textContent ?? ''));
  const field = await page.inputValue('[data-testid=embed-code]');
  assert.equal(await page.getAttribute('[data-testid=embed-code]', 'readonly'), '');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), field, 'the clipboard holds what the field shows');
  const match = /^<iframe src="([^"]+)" title="([^"]+)" width="(\d+)" height="(\d+)"[^>]*><\/iframe>$/.exec(field);
  assert.ok(match, field);
  assert.equal(match[2], 'Election Playground: Raft, 5 nodes, seed 4');
  const src = match[1].replace(/&amp;/g, '&');
  const url = new URL(src);
  assert.equal(url.origin + url.pathname, new URL(await pageAddress(page)).origin + new URL(await pageAddress(page)).pathname);
  assert.equal(url.searchParams.get('embed'), '1');
  assert.equal(url.searchParams.get('at'), '450');
  assert.match(url.hash, /^#s=1\./);
  // 450 ms is after the run's own end, where an embed's range ends unless told.
  assert.equal(url.searchParams.get('to'), '450');
  const leader = await testId(page, 'leader');
  const hash = await testId(page, 'trace-hash');
  await page.close();

  // The snippet's address opens the same run at the same moment.
  const embed = await open(src, { width: Number(match[3]), height: Number(match[4]) });
  assert.equal(await embedTime(embed.page), 450);
  assert.equal(await embed.page.getAttribute('[data-testid=embed-status]', 'data-leader'), leader);
  assert.equal(await embed.page.isHidden('[data-testid=error]'), true);
  const state = await embed.page.evaluate(() => document.querySelector('[data-testid=embed-time]')?.textContent);
  assert.match(state ?? '', /^450/);
  assert.ok(hash.length > 0);
  assert.deepEqual([...errors, ...embed.errors], []);
  await embed.page.close();
});

test('Copy embed code in compare mode gives a compare embed; without clipboard the field is there to copy by hand', async () => {
  const { page, errors } = await openPlayground(browser, `/?compare=bully,raft&at=400#s=${encodeShare(LEADER_CRASH)}`);
  await page.click('[data-testid=compare-copy-embed]');
  await page.waitForSelector('[data-testid=compare-embed-code]:not([hidden])');
  const field = await page.inputValue('[data-testid=compare-embed-code]');
  const src = (/src="([^"]+)"/.exec(field)?.[1] ?? '').replace(/&amp;/g, '&');
  const url = new URL(src);
  assert.equal(url.searchParams.get('embed'), '1');
  assert.equal(url.searchParams.get('compare'), 'bully,raft');
  assert.equal(url.searchParams.get('at'), '400');
  assert.match(field, /title="Election Playground: Bully vs Raft compared, 5 nodes, seed 3"/);
  assert.match(await page.textContent('#compare-share-status') ?? '', /copied|by hand/);
  await page.close();

  const embed = await open(src);
  assert.equal(await embed.page.getAttribute('[data-testid=embed]', 'data-mode'), 'compare');
  assert.equal(await embedTime(embed.page), 400);
  assertRowsMatch(await rows(embed.page), (a, t) => cliRunScenario(LEADER_CRASH, ['--algorithm', a, '--until-ms', String(t)]), 400);
  assert.deepEqual([...errors, ...embed.errors], []);
  await embed.page.close();
});
