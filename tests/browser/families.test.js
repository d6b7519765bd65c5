// The wasm player module per algorithm family (web/src/lib.rs, module docs;
// www/shared/player-wasm.js): the first render loads only the module of the
// scenario the address asks for, another family's module
// loads when a run of it is asked for, and every run is the CLI's run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { baseUrl, collectErrors, fixtureUrl, launchBrowser } from './helpers.js';
import { pageAddress, readouts, ready, workDone } from './page.js';
import { REPO_ROOT, cliRun, cliRunScenario, decodeShare, encodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/** The wasm modules a list of request URLs fetched, by module name (`election_player_bully`, `election_lab`). */
const wasmModules = (/** @type {string[]} */ urls) =>
  [...new Set(urls.map((u) => /\/(election_\w+?)_bg(?:-[0-9a-f]+)?\.wasm/.exec(u)?.[1]).filter(Boolean))].sort();

/**
 * Opens `path` and records every request made until the page is ready.
 * @param {string} path
 * @returns {Promise<{page: import('playwright-core').Page, errors: string[], early: string[], all: string[]}>}
 */
async function openRecording(path) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  /** @type {string[]} */
  const all = [];
  page.on('request', (r) => {
    all.push(r.url());
  });
  await page.goto(`${baseUrl()}${path}`);
  await ready(page);
  return { page, errors, early: [...all], all };
}

/**
 * Asserts that the page shows what `election run --json` reported.
 * @param {import('playwright-core').Page} page
 * @param {any} expected
 * @param {string} what
 */
async function assertMatches(page, expected, what) {
  const shown = await readouts(page);
  assert.equal(shown.messages, expected.messages.sent, `messages-total of ${what}`);
  assert.equal(shown.leader, expected.leader === null ? 'none' : String(expected.leader), `leader of ${what}`);
  assert.equal(shown.time, expected.end_ms, `sim-time of ${what}`);
  assert.equal(await page.textContent('[data-testid=trace-hash]'), expected.trace_hash, `trace hash of ${what}`);
}

test('the default page loads only the Bully family player module before it is ready', async () => {
  const { page, errors, early } = await openRecording('/');
  assert.deepEqual(wasmModules(early), ['election_player_bully'], `wasm before ready: ${early.filter((u) => u.includes('.wasm'))}`);
  assert.equal(await page.inputValue('#algorithm'), 'bully');
  // The inline scripts (the preload script and the first picture) and the
  // inline style sheet are allowed by their hashes; the scripts leave once
  // they have run.
  const csp = (await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content')) ?? '';
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'( 'sha256-[A-Za-z0-9+/]+=*'){2};/);
  assert.match(csp, /style-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
  assert.equal(await page.$$eval('script:not([src])', (xs) => xs.length), 0);
  assert.equal(await page.$$eval('link[rel=preload][href*="election_player_bully_bg"]', (xs) => xs.length), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('?algorithm=raft loads the Raft module only, and its run is the CLI run', async () => {
  const { page, errors, early } = await openRecording('/?algorithm=raft&nodes=5&seed=3&at=end');
  assert.deepEqual(wasmModules(early), ['election_player_raft']);
  await assertMatches(page, cliRun(['--algorithm', 'raft', '--nodes', '5', '--seed', '3']), 'raft n=5');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a preset loads its family module: ?preset=chang-roberts-worst takes the ring module', async () => {
  const { page, errors, early } = await openRecording('/?preset=chang-roberts-worst');
  assert.deepEqual(wasmModules(early), ['election_player_ring']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching Bully -> Raft in the settings form loads the Raft module; Raft runs as election run does', async () => {
  const { page, errors, all } = await openRecording('/?algorithm=bully&nodes=5&seed=3');
  await page.selectOption('#algorithm', 'raft');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('algorithm') === 'raft');
  assert.ok(wasmModules(all).includes('election_player_raft'), 'the Raft module loaded');
  assert.equal(await page.isVisible('[data-testid="error"]'), false);
  // To the end of the run (the End key), then the scenario it ran (Share).
  await page.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.blur());
  await page.keyboard.press('End');
  await workDone(page);
  await page.click('#share');
  const scenario = decodeShare(await pageAddress(page));
  assert.equal(scenario.algorithm, 'raft');
  await assertMatches(page, cliRunScenario(scenario), 'Raft after the switch');
  // And back: Bully again, in the module loaded first.
  await page.selectOption('#algorithm', 'bully');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('algorithm') === 'bully');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a #s= link of a Raft scenario opens it, loading the Raft module only', async () => {
  const scenario = { version: 1, algorithm: 'raft', nodes: 5, seed: 7, faults: [{ at_ms: 400, crash: 'leader' }] };
  const { page, errors, early } = await openRecording(`/?at=end#s=${encodeShare(scenario)}`);
  // The link is read for its algorithm before any module loads: not the
  // default (Bully) module first.
  assert.deepEqual(wasmModules(early), ['election_player_raft']);
  assert.equal(await page.inputValue('#algorithm'), 'raft');
  await assertMatches(page, cliRunScenario(scenario), 'the Raft link');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a script scenario link opens in the single view on the lab\'s module', async () => {
  const scenario = JSON.parse(readFileSync(join(REPO_ROOT, 'scenarios/corpus/script-bully-clean.json'), 'utf8'));
  assert.equal(scenario.algorithm, 'script');
  const { page, errors, early } = await openRecording(`/?at=end#s=${encodeShare(scenario)}`);
  assert.deepEqual(wasmModules(early), ['election_lab'], 'the lab\'s module only');
  assert.equal(await page.isVisible('[data-testid="error"]'), false);
  await assertMatches(page, cliRunScenario(scenario), 'the script link');
  assert.deepEqual(errors, []);
  await page.close();
});

test("an embed's load of another family's scenario answers once its module has loaded; a message sent meanwhile waits its turn", async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  const errors = collectErrors(page);
  /** @type {string[]} */
  const urls = [];
  page.on('request', (r) => {
    urls.push(r.url());
  });
  await page.goto(await fixtureUrl(page, 'embed-host.html'));
  await page.evaluate((src) => /** @type {any} */ (window).openEmbed(src, 480, 320), `${baseUrl()}/?embed=1&algorithm=bully&nodes=5`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  assert.ok(frame);
  await frame.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  assert.deepEqual(wasmModules(urls), ['election_player_bully']);

  const scenario = { version: 1, algorithm: 'raft', nodes: 5, seed: 4 };
  const expected = cliRunScenario(scenario);
  // The load and a seek sent right after it, before the Raft module is in.
  await page.evaluate((s) => {
    const w = /** @type {any} */ (window);
    w.send({ type: 'load', scenario: s, id: 1 });
    w.send({ type: 'seek', ms: 1e9, id: 2 });
  }, scenario);
  await page.waitForFunction(() => /** @type {any} */ (window).received.some((m) => m.data?.id === 2), null, { timeout: 15000 });
  const replies = (await page.evaluate(() => /** @type {any} */ (window).received.map((m) => m.data))).filter(
    (m) => m.type === 'ok' || m.type === 'error',
  );
  assert.deepEqual(replies.map((m) => [m.type, m.command, m.id]), [['ok', 'load', 1], ['ok', 'seek', 2]], 'in the order sent');
  assert.equal(replies[0].algorithm, 'raft');
  assert.equal(replies[1].trace_hash, expected.trace_hash, 'the seek acted on the Raft run');
  assert.equal(replies[1].time_ms, expected.end_ms);
  assert.ok(wasmModules(urls).includes('election_player_raft'));
  assert.deepEqual(errors, []);
  await page.close();
});
