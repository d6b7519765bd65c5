// Hostile runs on the page (issue 31; the CLI's side is tests/hostile/):
// links that once froze the tab, took gigabytes or killed its wasm. For
// each, the page must open no dialog and throw no page error, answer a
// `page.evaluate` within 1 s at every look while it works, keep every
// main-thread task under 200 ms of the thread's time (by a Chromium
// trace), show its message
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

/** What a main-thread task is called in a trace. */
const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** Longest main-thread task the page may run, ms (the bound). */
const MAX_TASK_MS = 200;
/** Longest a `page.evaluate` may wait, ms. */
const MAX_EVALUATE_MS = 1000;

/**
 * The longest task on the renderer's main thread in a Chromium trace, ms
 * of the thread's time.
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
  let tasks = 0;
  for (const e of events) {
    // Chromium 156 names a task 'ThreadControllerImpl::RunTask'; older
    // ones 'RunTask'. (Only 'RunTask' was looked for at first, so no task
    // was ever found and the bound checked nothing.)
    if (e.ph !== 'X' || !TASK_NAMES.has(e.name) || !main.has(`${e.pid}:${e.tid}`)) continue;
    tasks += 1;
    // The task's time on the thread (`tdur`), not its wall time: on a
    // loaded machine a task waits for a core, and its wall time then says
    // how busy the machine is, not how long the page blocked itself (a
    // 100 ms task took 350 to 520 ms of wall time in the full suite).
    const ms = (e.tdur ?? e.dur ?? 0) / 1000;
    if (ms > longest.ms) longest = { ms, name: e.name };
  }
  assert.ok(tasks > 0, 'the trace has main-thread tasks');
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
 * @param {{looks?: number, act?: (page: import('playwright-core').Page) => Promise<void>}} [options]
 *   most looks; what the user does once the page is ready (press Play,
 *   a key)
 * @returns {Promise<{status: string, error: string, text: string, end: string}>}
 *   the status line, the error box, the page's text, and the run's end
 *   readout ("Settles at 1234 ms")
 */
async function openHostile(path, done, arg, { looks = 400, act } = {}) {
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
  if (act) await act(page);
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
  // LIMITS_TASKS=1 prints each case's margin (for the closing figures).
  if (process.env.LIMITS_TASKS) console.log(`longest task ${longest.ms.toFixed(0)} ms: ${path.slice(0, 90)}`);
  assert.ok(longest.ms < MAX_TASK_MS, `${path}: a main-thread task took ${longest.ms.toFixed(0)} ms`);
  const status = (await page.locator('#stop-reason').textContent()) ?? '';
  const box = page.locator('[data-testid="error"]');
  const error = (await box.isVisible()) ? ((await box.textContent()) ?? '') : '';
  const text = await page.evaluate(() => document.body.textContent ?? '');
  const end = await page.evaluate(() => {
    const label = document.getElementById('end-label');
    return `${label?.textContent ?? ''} ${label?.nextElementSibling?.textContent ?? ''}`;
  });
  // Restart works afterwards.
  await page.locator('#restart').click();
  await playFor(page, 0);
  assert.equal(await page.locator('[data-testid="sim-time"]').textContent(), '0', `${path}: Restart`);
  assert.deepEqual(dialogs, [], `${path}: a dialog opened`);
  assert.deepEqual(errors, [], `${path}: page errors`);
  await page.close();
  return { status, error, text, end };
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
  const { status, end } = await openHostile(
    '/?algorithm=raft&nodes=1024&election_timeout_ms=5-5&heartbeat_ms=5&at=end',
    statusSays,
    'Stopped at',
  );
  assert.equal(status, 'Stopped at 10 ms: 2,097,152 messages in flight (the limit).');
  // The run's end is named for what it is, not "Settles at".
  assert.equal(end, 'Stopped at 10 ms: 2,097,152 messages in flight (the limit)');
});

/** @param {string} text */
const endLabelSays = (text) => document.getElementById('end-label')?.textContent === text;

test('1,024 Raft nodes with timeouts at the floor, paused at 0 ms: the end is named "Stopped at" with the limit before playback gets there', async () => {
  const { status, end } = await openHostile(
    '/?algorithm=raft&nodes=1024&election_timeout_ms=5-5&heartbeat_ms=5',
    endLabelSays,
    'Stopped at',
  );
  assert.equal(end, 'Stopped at 10 ms: 2,097,152 messages in flight (the limit)');
  assert.doesNotMatch(status, /Stopped at/, 'the run itself is still at its start');
});

test('the End key goes to a limit-stopped end in pieces, as To end does', async () => {
  const { status } = await openHostile(
    '/?algorithm=raft&nodes=1024&election_timeout_ms=5-5&heartbeat_ms=5',
    statusSays,
    'Stopped at',
    { act: (page) => page.keyboard.press('End') },
  );
  assert.equal(status, 'Stopped at 10 ms: 2,097,152 messages in flight (the limit).');
});

test('the next change (N) through 500,000 quiet events is searched in pieces', async () => {
  // Bully settled long before 3 s; a day's horizon leaves the search its
  // whole budget of events, once a single call of about a second.
  const { status } = await openHostile(
    '/?algorithm=bully&nodes=6&seed=3&until_ms=86400000&at=3000',
    statusSays,
    'no role change',
    { act: (page) => page.keyboard.press('n') },
  );
  assert.match(status, /no role change, leader change or violation in the next 500,000 events/);
});

/** @param {string} text */
const pageSays = (text) => (document.body.textContent ?? '').includes(text);

test('P3 as a link (arrays nested 200 deep in a script\'s state): a script error naming the limit, no trap, Restart works', async () => {
  // election run --link --script tests/hostile/cli/deep-state-200.rhai
  const link =
    '/#s=1.fVLbbtswDP0VQi9LAMO1W3QoXPRhf7D3JjAUia4Fy5JH0c2KIP8-yk4yoAXqF_NyeA5F8qS0f4vkuB9Vo5IhN7Eq1EGbIXadaphmLJTp0QztnznSLLBO-yTBTs-ek2pe92JjMC68XfEetUVq5Zfwhh914i_BgHyMNKjmpCzFSTVVWRXKzpN3RjNe_M518cYt4WA-2jFLPxZ1tT8LTbQo_lOhJsL2PfJ_BVr6UjoZDDbbxfWZjbq7g19E-iNBQGnOwn1VgUWcwAXgHiHz_kiQWERh8_tB7MGFAmQgegKOcJidt9tyF7oAMbQCJN4Y_ruF0y6AfB4ZNLzA6_55DXSRwGX-qiyz3GlN6_0znFcE9y6VSxcvoC9VQlkm5JbdiLTZKXZm2KkC6q0Azlf5NSvYAoIeUZr4rjDr5WkgWtXUYuTm86i8l7AULJOTxaBnvcz7Me-GXMftIc7BLtuRQvRo2F3048zrbmpBP1SVXIcMi_iAmm8kyxEsXl1V4hMGPLZWzsa7sCae1jjTuur77CZM6bPOz5w4ygXf-OQe3pEycHnWUbPp5VlyGRaNMERS538';
  const { text } = await openHostile(link, pageSays, 'levels deep', { looks: 40, act: pressPlay });
  assert.match(text, /the variable `a` nests arrays and maps more than 32 levels deep/);
});

test('P3 as a link (arrays nested 9,000 deep, the issue\'s script): a script error naming the limit at once, the page usable', async () => {
  // election run --link --script tests/hostile/cli/deep-state.rhai: the
  // handler's watch stops the nesting at 33 levels (script/watch.rs),
  // before it takes seconds or the wasm's stack.
  const link =
    '/#s=1.fVLbbtswDP0Vgi9rAcO1N3RoXfRh39EEhiJRtRBZ8iS6WRHk30fZSQq0QP1i8XYOycMjKv8ak-NhxA6zTm5irHCn9D5aix2nmSrUA-l9_3eOaZY0q3wWp1Wz54zdy1beFLQLr5d8T8pQ6uWX6Zo_qsxfnIH4ENMeuyOaFCfsmrqp0MyTd1oxnW3rbLxiizvo934s1PdV22xPAhMNif1Q4ZSof4v8wZCWvlBlTcGUd3UZs8O7O_iTknrPEEiaM_BYNU0DhmgCF4AHgoL8I0Nmoa03wQaIoRcr8Y3mf7dw3ASQzxODgmd42T6tDhsTuALS1PVjAT2ucbV9gtOawoPL9cL1DOpcJph1Ju7ZjZRuNshO7zdYQXsrCacL_xqV3AqCGkm6-K6w8JWpiQx2rTxK92Ul3otbCpYNiQDkWS17vS8aJGe538U5mEUFKSRPmt2ZP868atBK9q-mkSsYSIB3pPgKsoi9WK3sQMSgQIfeyHl4F9bAw-rntEr6s5iZcv7M87sEDnKpVzzR_Y1SSVzGOijWg4wlF2BIC0JMePoP';
  const { text } = await openHostile(link, pageSays, 'levels deep', { looks: 40, act: pressPlay });
  assert.match(text, /the variable `a` nests arrays and maps more than 32 levels deep/);
});

test('a script copying, sorting or scanning a large array in a loop: stopped by the charged budget within a frame\'s work, said, the page usable', async () => {
  // election run --link --script tests/hostile/cli/{copy-loop,sort-loop,this-copy}.rhai:
  // one handler call each, which ran 1.5 s to minutes before every
  // operation was charged for what the call holds (script/watch.rs), and
  // copy-loop a 413 ms task before a copy was charged for the values it
  // clones (script/copies.rs).
  for (const link of [
    '/#s=1.ZVLtbtsgFH2VK34lkuc6mzq1rvZjz9FELobrGAWDB5d6VpR33wW3mbQhy8Dh3HM_r0Lasw-Gxkm0IqpgZhKV6KW6-GEQLYWElVAjqkv3K_mQmDZIGxkcZLIURft64jM6Zdz5k29RagwdbxHv_ElG-g90SIsPF9FehQ5-Fm1TN5XQabZGScKP-2AGf9dm2Km1m7Lrx-rQnG4s4zXy_akSc8Du3dNfD6HEJWRU6HQ-V59ptuLhAX7Cc9U0zRdDOIEMQa6g_GxQg3EgwXo_tzDh5MMKkeQaYeAIKugTAUo1ZvZ6dKxkIniH4GcMkox3QB5oRNbhtDks_sMuA5sXpvfJWMp-2K6ChZtQhN5mqd9aKBH167YbgsUnq4HkBYtsn_QZCQYTIu3roxuyTMchBtop-r2H69EBL8skCT_g9fSyAbJm_d0zJ11Bs_8ABx_A5FCauv7W5AXXYtqzqXyB29Hxl2uHqEV74EP2lAtrLcNkplJnbiNakqU7j7mTwQzU9T45XXrJhmhR5fp0bIM-0dbJA7PZMc_SiCzco6S7SBmZcjvkqEVAh0uneciscdvD04ZT2Abja75GjPFfP9_zw8Lzftfj6XnHkIklrUWSGjktbphGxQo-iNsf',
    '/#s=1.ZVPbbtswDP0VQi9LANd1NnRoXexhv7DXJjBkiY6FyJJH0fWCNP8-ymkTbDUMWCQPzxEvPint95Ec94OqVTLkRlaFarU5xK5TNdOEhTI9mkPze4o0CazTPomz05PnpOqXnZwxGBf2H3iP2iI18kl4xQ868SdnQJ4jHVR9UpbiqOqqrAplp9E7oxnf7c518cot7mCOzZClH4pNtTsLTbQo9mOhRsLmNfJNgZZ7KZ0MBpvPxUeZtbq_h5_wVFRVdecYB9BE-ggpEqOFWZoCGkwcRk1I4IJYPsaxhl-9dl8SxDks4G0QIrcPkSSNe7zmCKad7B4ZkCgS6GDBsSSOSJpdDAlmpIyfQpaMYaHKouMRVoMLE2PKyjEg9JLu5SJGew8tdiK3Lrehy9EmsSZeGf6zhtM2gDzcu1RKRfADXnbP__rKUdvVk9RdQLV-jwkfuKxVleW3Kj9wuiUQviIlXK2fb75c--pNF9C-QQt3oCV43gZ5c5MRrao3csg3yxPwXtzshmUgMm_0rJcxPuSRk-u4aaURdhm6JKJHk5vUSA7GiS8j3wharidL16MQt6j5SrLs1mJtcm2KMODcWNlG78Il8HjxM1026Gs2E6b0v873HJjlx7jyyZrlFghwKWvWbHopSxbOohGGSOr8Fw',
    '/#s=1.ZVJtbtswDL0KoT9LAM91unYrXOwkTeDKMh0LUSSPouMFQe4-Sm4ybBUEiKQeHz8vSrt9IMvDUdUqGrIjq0K12hxC36uaacJCmQHNofk1BZoE1msXxdjryXFU9dtOZPTG-v0N71B3SI08Ee_4o478yeiR50AHVV9UR2FUdVVWheqm0VmjGT_03vbhzi1mb87NMYV-LjbV7io0oUPRXwo1EjanwH8jUM5L6WjQd0kubmXW6uEB3nmw8f1LhKeiqqqvlvEImkifwYTRYgfWgwYXwlgDD5glIKkvgg9bLwwnTVa3DguIAYJ354wzg6Y9Qh8I5kHzYtPOwRCc-LZh8vJYhtXjD4iZSCIFjzBo3zmkBd2iMKDg1uXW9wnQRNbEK8O_13DZepCTSiglafgJb7vXf23lqLvVk5RWQLX--EtJ2RSuKstvVTpwWRxaobh5vsJ16-WmhiF2qt6IkGKnbjonZrbH3FyZHTrWeSTPaXxke25yiXmA4ogODVvJXnwwTLyMbyNoSUAWaEAhblHznSTvSdY2KXtF6HFuOum8s375eFnsTMs2PCY1Yoz_x_mePmZZ8jufrMwJKQFzWbNmM0hZsjwdGmEIpK5_AA',
  ]) {
    const { text } = await openHostile(link, pageSays, 'operation budget', { looks: 40, act: pressPlay });
    assert.match(text, /ran past the operation budget/);
  }
});

/** @param {string} ms */
const simTimeAtLeast = (ms) => Number(document.querySelector('[data-testid="sim-time"]')?.textContent ?? 0) >= Number(ms);

test('P2 as links: a script flooding messages plays in pieces with the tab responsive; one sending large messages stops naming the text limit', async () => {
  // election run --link --script tests/hostile/cli/flood.rhai: every node
  // broadcasts 200 messages a millisecond (the lab's flood took 60 s and
  // 2.5 GB of the tab before); the CLI stops it at 5,000,000 events.
  await openHostile('/#s=1.fVLBbtswDP0VgbukgOHKHToU3nXbaUA_YC4MRaISwbKUSXTTIsi_l7ITF2iB6iKRfHwkxXcC5XcxOdqP0ELWyR0IKtgqPURroaU0YQV6j3ro_08xTQyzymd2WjV5ytD-e-I3Bu3C7or3qAymnq-MK35UmT45A9IxpgHaE5gUD9DKWlZgpoN3WhFebOtsXLnZHfRrP5bS91Ujn85MEw2y_VDBIWH_HOm9Qpr7ApU1BlPe1XXMFm5vxe9nTK-i5Ittispo7jKLOynFiDmrHWaBM2R03ruMOgbTCnWNCutjNHUXbBAx9JlUoo2mlxtxEnzVGaknN2LadEBODx1Uorn5Kc7XjCXI0EoENSLndUHwsTEJJ1wQsq5LNwvd2uLm22lwpZMO_vx9fPzVwXlhLblfFO7CWvkywVLbpjhWYsy70jhDyi8hGmgbfpShyhd6z24mnX-UF4ae1LyH-7Kz5Cz12zgFM2-NE9GjJncZMk607Kxh9HcpWTV7ZOItKlpJZnHMViMl2wkDHnvDcvIuLIGHxU9pkcBdMTOP8rHOjxI4srJXPtYJb7IA57GOivSex2LFGNTMEBOc3wA', simTimeAtLeast, '0.01', {
    looks: 40,
    act: async (page) => {
      await pressPlay(page);
      await playFor(page, 1000);
    },
  });
  // election run --link --script tests/hostile/cli/big-messages.rhai:
  // messages of 500 strings of 8 KB (the tab froze for the whole 90 s).
  const { text } = await openHostile('/#s=1.dVPbjpswEP2VkfvQREUsaZUqIt2Xfamqql-wRMixh2DF2NQeNluh_HvHkLBSq-UBPOMzlzNzGIW0Jx8MtZ0oRVTB9CQycZTq7JtGlBQGzIRqUZ3r34MPA8MaaSM7GzlYiqJ8PvAZnTLudMdblBpDzZ-IC76Tkf5zOqSLD2dRjkIH34uyyItM6KG3RknCm92Yxi-52e3Un7pLpbfZpjhcOY3XyPYuE33A-sXTW4Uw9SVkVOh0Omd3mqV4eIBfGKM8YQTfwLYoIFIKmMwd_HwClKotoefegVoE45gD1-D3x3gDgzWdobxyjQPv6kgy0ErR6xpG4E8ekWoyHYZVJciocyUy2Kz3cL1HzJcMzcDJDjmucsCPRYIIj1CJ10rsZ9-lNRYh5hbdag3fYFdw0yPDPj1CnHLeIyVHPh9uYY0PYLh7KPJ8O0XIvB9iu4rrJSj1egxeasVsVx_Gs3G65OJPP76nlrUkWYK8rvdv8HeoVW7h1s3zndk1wXcZdPGURsOQtAtELcoNH9LY0qKsZTcnnfbGskBLctr2NikjmIbqox-cnrTBgWhRkbmN0Q80K2PD6C9FwdpskRMfUdKSZJLgZG14eiwRdHipNYvWGjdf7GY_hVlon5MZmcq_db6miwv_P0s-VuMLhgScaF0kqZZpsWY0Ks7gg7j-BQ', pageSays, 'too much text in one value', { looks: 40, act: pressPlay });
  assert.match(text, /too much text in one value/);
});
