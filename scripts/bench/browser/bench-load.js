// First render over the network: how long a first visit takes to show the
// page, on a slow phone link and on a 5 Mbps link, and what crosses the
// wire before it is ready (issue 17, docs/PERFORMANCE.md "First render
// over the network").
//
// Each load is a cold one (cold-load.js: a new browser context, the
// DevTools protocol's network and CPU emulation); the time is from
// navigation start (the page's time origin) to `body[data-ready=true]`,
// stamped by the page itself (a MutationObserver added before any script
// runs), so polling does not add to it. Bytes are `encodedDataLength` of
// `Network.loadingFinished` (headers included, compressed as sent) of the
// requests that finished before the page was ready, the page's workers
// included (their requests share the page's emulated link; their CPU is not slowed).
//
// Profiles:
// - slow: Lighthouse's mobile throttling: 1.6 Mbps down (200,000 B/s),
//   750 kbps up, 150 ms round trip, CPU slowed 4x;
// - fast: 5 Mbps down and up (625,000 B/s), 28 ms round trip, CPU 1x.
//
// Serve over gzip (a host that compresses; `python3 -m http.server` does
// not):
//   node scripts/bench/gzip-server.mjs . 8230 &     (or: dist 8230)
//   BASE_URL=http://127.0.0.1:8230 node scripts/bench/browser/bench-load.js [PATH]
// PATH is a page address (default `/`, the default scenario). Options:
// LOADS (per profile, default 3), PROFILES (comma list, default
// `slow,fast`), VERBOSE=1 (every request before ready, by size), JSON=1
// (one line of JSON per profile at the end).
//
// A load not ready within STALL_MS (default 40 s) is reported as stalled
// and made again: Chromium's network emulation now and then holds a
// page's requests for good (they never reach the server; seen only with
// emulation on, and with a preload of the wasm in flight beside dozens of
// module requests of the unbundled page).
//
// Not a test (no timed assertions). The machine's other work slows the
// CPU-throttled loads too: note the load average it prints.
import { loadavg } from 'node:os';
import { baseUrl, launchBrowser } from '../../../tests/browser/helpers.js';
import { median, openCold, profilesNamed, short, splitAt, stampReady } from './cold-load.js';

const LOADS = Number(process.env.LOADS || 3);
/** A load not ready by then is counted as stalled and made again. */
const STALL_MS = Number(process.env.STALL_MS || 40_000);
const PATH = process.argv[2] || '/';
const VERBOSE = process.env.VERBOSE === '1';

/**
 * One cold load.
 * @param {import('playwright-core').Browser} browser
 * @param {import('./cold-load.js').Profile} profile
 * @param {string} url
 */
async function load(browser, profile, url) {
  const { context, page, requests } = await openCold(browser, profile, url, [stampReady]);
  try {
    await page.waitForFunction(() => /** @type {any} */ (window).__readyAt !== undefined, null, { timeout: STALL_MS, polling: 50 });
  } catch {
    const held = [...requests.values()].filter((r) => r.endMs === Infinity).map((r) => short(r.url));
    await context.close();
    return { stalled: held };
  }
  const readyAt = await page.evaluate(() => /** @type {any} */ (window).__readyAt);
  // Let requests in flight at ready report their end.
  await page.waitForTimeout(300);
  const { before, after } = splitAt(requests, url, readyAt);
  await context.close();
  return { readyMs: readyAt, before, after };
}

async function main() {
  const url = new URL(PATH, `${baseUrl()}/`).href;
  const wanted = profilesNamed(process.env.PROFILES || 'slow,fast');
  const browser = await launchBrowser();
  const results = [];
  try {
    console.log(`bench-load: ${url}, ${LOADS} cold loads per profile; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    for (const [key, profile] of wanted) {
      const loads = [];
      let stalls = 0;
      while (loads.length < LOADS) {
        const l = await load(browser, profile, url);
        if ('stalled' in l) {
          // Chromium's emulated link now and then holds requests for good
          // (they never reach the server; never seen without emulation,
          // seen with a preload in flight beside many module requests).
          stalls++;
          console.log(`  a load stalled (not ready in ${STALL_MS / 1000} s; held: ${l.stalled.slice(0, 6).join(', ')}${l.stalled.length > 6 ? ', …' : ''}); loading again`);
          if (stalls > 2 * LOADS) throw new Error('too many stalled loads');
          continue;
        }
        loads.push(l);
      }
      const times = loads.map((l) => l.readyMs);
      const bytes = loads.map((l) => l.before.reduce((a, r) => a + r.bytes, 0));
      const counts = loads.map((l) => l.before.length);
      console.log(
        `${profile.name}: ready median ${(median(times) / 1000).toFixed(2)} s ` +
          `(${(Math.min(...times) / 1000).toFixed(2)}-${(Math.max(...times) / 1000).toFixed(2)} s; ` +
          `${times.map((t) => (t / 1000).toFixed(2)).join(', ')}); ` +
          `${(median(bytes) / 1000).toFixed(1)} KB on the wire before ready in ${median(counts)} requests; ` +
          `load average ${loadavg()[0].toFixed(2)}`,
      );
      if (VERBOSE) {
        const last = loads[loads.length - 1];
        const rows = [...last.before].sort((a, b) => b.bytes - a.bytes);
        for (const r of rows) {
          console.log(`  ${(r.bytes / 1000).toFixed(1).padStart(7)} KB  ends ${((r.endMs - last.before[0].startMs) / 1000).toFixed(2)} s  ${short(r.url)}`);
        }
        const later = last.after.filter((r) => r.endMs !== Infinity || r.bytes);
        if (later.length) {
          console.log(`  after ready: ${later.map((r) => `${short(r.url)} ${(r.bytes / 1000).toFixed(1)} KB`).join(', ')}`);
        }
      }
      results.push({ profile: key, url, times, bytes, requests: counts, medianMs: median(times), medianBytes: median(bytes) });
    }
  } finally {
    await browser.close();
  }
  if (process.env.JSON === '1') for (const r of results) console.log(JSON.stringify(r));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
