// Hostile runs on the page (issue 31; the CLI's side is tests/hostile/):
// links that once froze the tab, took gigabytes or killed its wasm. For
// each, the page must open no dialog and throw no page error, answer a
// `page.evaluate` within 1 s at every look while it works, keep every
// main-thread task under 200 ms (by a Chromium trace), show its message
// (a refused field, or "Stopped at ...: ... (the limit)"), and Restart
// must work afterwards.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { baseUrl, collectErrors, launchBrowser } from './helpers.js';
import { playFor, ready } from './page.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/** Longest main-thread task the page may run, ms (the bound). */
const MAX_TASK_MS = 200;
/** Longest a `page.evaluate` may wait, ms. */
const MAX_EVALUATE_MS = 1000;

/**
 * The longest task on the renderer's main thread in a Chromium trace, ms.
 * @param {Buffer} trace
 * @returns {{ms: number, name: string}}
 */
function longestTask(trace) {
  const events = JSON.parse(trace.toString('utf8')).traceEvents ?? [];
  const main = new Set(
    events
      .filter((/** @type {any} */ e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((/** @type {any} */ e) => `${e.pid}:${e.tid}`),
  );
  let longest = { ms: 0, name: '' };
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !main.has(`${e.pid}:${e.tid}`)) continue;
    const ms = (e.dur ?? 0) / 1000;
    if (ms > longest.ms) longest = { ms, name: e.name };
  }
  return longest;
}

/**
 * Opens `path`, hands the page time until `done` holds in it (looking at
 * most `looks` times), checking at every look that it answers within
 * `MAX_EVALUATE_MS`; then that no task was long, no dialog opened and no
 * error was thrown, and that Restart brings the run to 0 ms.
 * @param {string} path
 * @param {(arg: string) => boolean} done evaluated in the page
 * @param {string} arg
 * @returns {Promise<{status: string, error: string}>}
 */
async function openHostile(path, done, arg, looks = 400) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  /** @type {string[]} */
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel'] });
  await page.goto(`${baseUrl()}${path}`);
  await ready(page, 60000);
  let reached = false;
  for (let i = 0; i < looks && !reached; i++) {
    const t0 = Date.now();
    reached = Boolean(await page.evaluate(done, arg));
    const waited = Date.now() - t0;
    assert.ok(waited < MAX_EVALUATE_MS, `${path}: page.evaluate waited ${waited} ms`);
    if (!reached) await playFor(page, 50);
  }
  const trace = await browser.stopTracing();
  assert.ok(reached, `${path}: never reached ${done} (${arg})`);
  const longest = longestTask(trace);
  assert.ok(longest.ms < MAX_TASK_MS, `${path}: a main-thread task took ${longest.ms.toFixed(0)} ms`);
  const status = (await page.locator('#stop-reason').textContent()) ?? '';
  const box = page.locator('[data-testid="error"]');
  const error = (await box.isVisible()) ? ((await box.textContent()) ?? '') : '';
  // Restart works afterwards.
  await page.locator('#restart').click();
  await playFor(page, 0);
  assert.equal(await page.locator('[data-testid="sim-time"]').textContent(), '0', `${path}: Restart`);
  assert.deepEqual(dialogs, [], `${path}: a dialog opened`);
  assert.deepEqual(errors, [], `${path}: page errors`);
  await page.close();
  return { status, error };
}

/** @param {string} text */
const statusSays = (text) => (document.getElementById('stop-reason')?.textContent ?? '').includes(text);
/** @param {string} text */
const errorSays = (text) => (document.querySelector('[data-testid="error"]')?.textContent ?? '').includes(text);

test('D1 as a link with at=end: the timeouts below the latency floor are refused, naming the field', async () => {
  const { error } = await openHostile(
    '/?algorithm=raft&nodes=64&election_timeout_ms=0.001-0.001&heartbeat_ms=0.001&at=end',
    errorSays,
    'election_timeout_ms',
  );
  assert.match(error, /timing\.election_timeout_ms\[0\]/);
  assert.match(error, /shorter than the network's fastest delivery/);
});

test('1,024 Raft nodes with timeouts at the floor, at=end: stopped at the limit of messages in flight, said, and not played past', async () => {
  const { status } = await openHostile(
    '/?algorithm=raft&nodes=1024&election_timeout_ms=5-5&heartbeat_ms=5&at=end',
    statusSays,
    'Stopped at',
  );
  assert.equal(status, 'Stopped at 10 ms: 2,097,152 messages in flight (the limit).');
});

test('P3 as a link: a script nesting arrays 9,000 deep in its state stops with a script error, the page stays alive', async () => {
  // election run --link --script tests/hostile/cli/deep-state.rhai
  const link =
    '/#s=1.fVLbbtswDP0Vgi9rAcO1N3RoXfRh39EEhiJRtRBZ8iS6WRHk30fZSQq0QP1i8XYOycMjKv8ak-NhxA6zTm5irHCn9D5aix2nmSrUA-l9_3eOaZY0q3wWp1Wz54zdy1beFLQLr5d8T8pQ6uWX6Zo_qsxfnIH4ENMeuyOaFCfsmrqp0MyTd1oxnW3rbLxiizvo934s1PdV22xPAhMNif1Q4ZSof4v8wZCWvlBlTcGUd3UZs8O7O_iTknrPEEiaM_BYNU0DhmgCF4AHgoL8I0Nmoa03wQaIoRcr8Y3mf7dw3ASQzxODgmd42T6tDhsTuALS1PVjAT2ucbV9gtOawoPL9cL1DOpcJph1Ju7ZjZRuNshO7zdYQXsrCacL_xqV3AqCGkm6-K6w8JWpiQx2rTxK92Ul3otbCpYNiQDkWS17vS8aJGe538U5mEUFKSRPmt2ZP868atBK9q-mkSsYSIB3pPgKsoi9WK3sQMSgQIfeyHl4F9bAw-rntEr6s5iZcv7M87sEDnKpVzzR_Y1SSVzGOijWg4wlF2BIC0JMePoP';
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  await page.goto(`${baseUrl()}${link}`);
  await ready(page, 60000);
  // Play until the first handler has run and failed.
  for (let i = 0; i < 100; i++) {
    const text = await page.evaluate(() => document.body.textContent ?? '');
    if (text.includes('more than 32 levels deep')) break;
    await playFor(page, 100);
  }
  const text = await page.evaluate(() => document.body.textContent ?? '');
  assert.match(text, /`this` nests arrays and maps more than 32 levels deep/);
  assert.deepEqual(
    errors.filter((e) => /recursive use|unreachable|RuntimeError/.test(e)),
    [],
    'no trap, no re-entrant call',
  );
  await page.locator('#restart').click();
  await playFor(page, 0);
  assert.equal(await page.locator('[data-testid="sim-time"]').textContent(), '0');
  await page.close();
});
