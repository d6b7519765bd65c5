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
import { playFor, pressPlay, ready } from './page.js';

/** Real time between two looks at a page that works in pieces while
 * paused (the handed clock only drives playing), ms: waiting changes
 * nothing the test checks, which is a function of the run. */
const LOOK_EVERY_MS = 250;

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
    if (!reached) await page.waitForTimeout(LOOK_EVERY_MS);
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
  assert.match(error, /`election_timeout_ms\[0\]`/);
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

test('P3 as a link (arrays nested 200 deep in a script\'s state): a script error, no trap, Restart works', async () => {
  // election run --link --script tests/hostile/cli/deep-state-200.rhai
  // (the 9,000 levels cost the interpreter's own size checks
  // seconds of one handler call: tests/hostile/README.md).
  const link =
    '/#s=1.fVLbbtswDP0VQi9LAMO1W3QoXPRhf7D3JjAUia4Fy5JH0c2KIP8-yk4yoAXqF_NyeA5F8qS0f4vkuB9Vo5IhN7Eq1EGbIXadaphmLJTp0QztnznSLLBO-yTBTs-ek2pe92JjMC68XfEetUVq5Zfwhh914i_BgHyMNKjmpCzFSTVVWRXKzpN3RjNe_M518cYt4WA-2jFLPxZ1tT8LTbQo_lOhJsL2PfJ_BVr6UjoZDDbbxfWZjbq7g19E-iNBQGnOwn1VgUWcwAXgHiHz_kiQWERh8_tB7MGFAmQgegKOcJidt9tyF7oAMbQCJN4Y_ruF0y6AfB4ZNLzA6_55DXSRwGX-qiyz3GlN6_0znFcE9y6VSxcvoC9VQlkm5JbdiLTZKXZm2KkC6q0Azlf5NSvYAoIeUZr4rjDr5WkgWtXUYuTm86i8l7AULJOTxaBnvcz7Me-GXMftIc7BLtuRQvRo2F3048zrbmpBP1SVXIcMi_iAmm8kyxEsXl1V4hMGPLZWzsa7sCae1jjTuur77CZM6bPOz5w4ygXf-OQe3pEycHnWUbPp5VlyGRaNMERS538';
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  await page.goto(`${baseUrl()}${link}`);
  await ready(page, 60000);
  await pressPlay(page);
  // Until the first handler has run and failed (the run then stops).
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate(() => (document.body.textContent ?? '').includes('levels deep'))) break;
    await page.waitForTimeout(LOOK_EVERY_MS);
  }
  const text = await page.evaluate(() => document.body.textContent ?? '');
  assert.match(text, /the variable `a` nests arrays and maps more than 32 levels deep/);
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
