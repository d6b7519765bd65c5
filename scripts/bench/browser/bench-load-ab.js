// @ts-check
// Two builds of the site, A and B, loaded cold in turn on the same
// addresses: the time to ready of each, interleaved (A then B, then B
// then A, so a burst of other load hits both alike), with the median and
// the range of each. For a before/after figure of a change to how the
// page loads (docs/PERFORMANCE.md, Panels), where a machine's absolute
// speed varies 2x between runs.
//
// Each load is a cold one (cold-load.js: a new browser context, no
// service worker, the link profile's emulation); the time is from
// navigation start to `body[data-ready=true]`, stamped by the page.
//
//   (cd dist-before && node ../scripts/bench/gzip-server.mjs . 8232 &)
//   (cd dist && node ../scripts/bench/gzip-server.mjs . 8230 &)
//   A=http://127.0.0.1:8232 B=http://127.0.0.1:8230 \
//     node scripts/bench/browser/bench-load-ab.js '/?embed=1' '/?compare=bully,raft' /
//
// Options: RUNS (loads per address and build, default 5), PROFILE (slow
// or fast, default fast). Not a test: it prints figures, with the load
// average at the start and the end.

import { loadavg } from 'node:os';
import { launchBrowser } from '../../../tests/browser/helpers.js';
import { median, openCold, profilesNamed, stampReady } from './cold-load.js';

/** A load not ready within this long is an error, ms. */
const TIMEOUT_MS = 60_000;

const builds = { A: process.env.A ?? '', B: process.env.B ?? '' };
if (!builds.A || !builds.B) {
  console.error('bench-load-ab: set A and B to the two served builds (see the top of this file)');
  process.exit(2);
}
const paths = process.argv.slice(2);
if (paths.length === 0) paths.push('/');
const runs = Number(process.env.RUNS ?? 5);
const [[, profile]] = profilesNamed(process.env.PROFILE ?? 'fast');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

console.log(`bench-load-ab: A ${builds.A}, B ${builds.B}; ${runs} runs, ${profile.name}; load average ${load()}`);
const browser = await launchBrowser();
/** @type {Record<string, {A: number[], B: number[]}>} */
const times = {};
try {
  for (let run = 0; run < runs; run++) {
    for (const path of paths) {
      const order = /** @type {('A' | 'B')[]} */ (run % 2 ? ['B', 'A'] : ['A', 'B']);
      for (const build of order) {
        const { context, page } = await openCold(browser, profile, builds[build] + path, [stampReady], { serviceWorkers: 'block' });
        try {
          await page.waitForFunction(() => /** @type {any} */ (window).__readyAt !== undefined, null, { timeout: TIMEOUT_MS });
          const ms = await page.evaluate(() => /** @type {any} */ (window).__readyAt);
          (times[path] ??= { A: [], B: [] })[build].push(ms);
        } finally {
          await context.close();
        }
      }
    }
  }
} finally {
  await browser.close();
}

/** @param {number[]} xs */
const figure = (xs) => `${(median(xs) / 1000).toFixed(2)} s (${(Math.min(...xs) / 1000).toFixed(2)}-${(Math.max(...xs) / 1000).toFixed(2)})`;
console.log('\n| cold, to ready | A | B | B / A |\n|---|---|---|---|');
for (const [path, t] of Object.entries(times)) {
  console.log(`| \`${path}\` | ${figure(t.A)} | ${figure(t.B)} | ${(median(t.B) / median(t.A)).toFixed(2)} |`);
}
console.log(`\nload average at the end ${load()}`);
