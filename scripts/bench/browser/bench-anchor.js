// @ts-check
// The playground against its anchor, RaftScope (the classic Raft
// visualization: jQuery, Bootstrap and SVG), side by side (issue 30,
// docs/PERFORMANCE.md "Against RaftScope"): the first drawn cluster
// and the bytes before it, ready to play, and Lighthouse's scores.
//
//   bash scripts/build-site.sh           # the built site, dist/
//   node scripts/bench/browser/bench-anchor.js [PATH]
//
// PATH is our page's address (default `/`, the default scenario).
// RaftScope is served from RAFTSCOPE_DIR when set, else from
// `../shared/anchors/raftscope` beside the repository (beside the main
// checkout when this is a git worktree; RaftScope as published, with its
// two submodules); when none has an index.html it says so and exits 0. SITE_DIR (default dist) is our built site.
//
// Both are served by the same gzip server (scripts/bench/gzip-server.mjs,
// one process each) and measured interleaved, ours then theirs, each
// figure in turn, run after run, so that the machine's load falls on
// both alike; the ratios ours / RaftScope are the fair figures on a busy
// machine. Each run:
// - a cold load of each on every profile (cold-load.js: a new browser
//   context, network and CPU emulated as bench-load.js does):
//   - first picture: navigation start to the first drawn cluster; ours:
//     the page's `playground-first-draw` mark (www/stage/page.js, set once the
//     cluster is first drawn); RaftScope: the first content in its
//     `#servers` SVG group, stamped by a MutationObserver added before
//     any script runs (it draws the servers and plays at once);
//   - bytes on the wire (compressed, headers included) of the requests
//     finished by the first picture;
//   - ready to play; ours: `body[data-ready=true]` (the wasm is in and
//     Play works); RaftScope plays from its first picture, so its
//     figure is its first picture;
// - a plain visit (PLAIN_MS, default 30 s; 0 skips it): a cold load on
//   the fast profile, the service worker allowed, left alone; the bytes
//   the server sent (bodies as sent, gzip-server.mjs COUNT=1) in all, and
//   as a share of those sent by ready (what the service worker adds);
// - Lighthouse (the npm `lighthouse` package's CLI, with the Chromium
//   the browser tests use, a new profile each run), mobile and desktop:
//   performance score, cumulative layout shift, accessibility score.
//
// Options: RUNS (default 3), PROFILES (comma list of cold-load.js's
// profiles, default `slow,fast`), LIGHTHOUSE=0 (skip it), VERBOSE=1
// (the requests each first picture waited for, last run), STALL_MS (a
// load not drawn by then is made again, default 40 s; see bench-load.js).
//
// Not a test (no timed assertions). It prints the load average at the
// start and the end.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser } from '../../../tests/browser/helpers.js';
import { PROFILES, median, openCold, profilesNamed, short, splitAt, stampReady } from './cold-load.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const RUNS = Number(process.env.RUNS || 3);
const STALL_MS = Number(process.env.STALL_MS || 40_000);
const VERBOSE = process.env.VERBOSE === '1';
const LIGHTHOUSE = process.env.LIGHTHOUSE !== '0';
/** How long a plain visit is watched (0: not measured). */
const PLAIN_MS = Number(process.env.PLAIN_MS ?? 30_000);

/**
 * One side of the comparison: where its files are, which address to
 * open, and how its page says it has drawn and is ready to play.
 * @typedef {object} Site
 * @property {string} name
 * @property {string} dir served by the gzip server
 * @property {string} path the address opened, below the server's root
 * @property {(() => void)[]} init scripts run in the page before its own
 * @property {() => number | undefined} pictureAt in the page: ms from navigation start to the first picture, once drawn
 * @property {() => number | undefined} readyAt in the page: ms from navigation start to ready to play, once ready
 */

/** One side's figures from one cold load. @typedef {{pictureMs: number, readyMs: number, bytes: number, requests: import('./cold-load.js').Request[], start: number}} Load */

/**
 * In RaftScope's page before any script: the time (ms from navigation
 * start) its `#servers` group first has content, as `window.__pictureAt`.
 */
function stampServers() {
  const w = /** @type {any} */ (window);
  const observer = new MutationObserver(() => {
    if (w.__pictureAt === undefined && document.querySelector('#servers > *')) {
      w.__pictureAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** @type {(dir: string, path: string) => Site} */
const ours = (dir, path) => ({
  name: 'ours',
  dir,
  path,
  init: [stampReady],
  pictureAt: () =>
    (performance.getEntriesByName('playground-first-picture')[0] ?? performance.getEntriesByName('playground-first-draw')[0])?.startTime,
  readyAt: () => /** @type {any} */ (window).__readyAt,
});

/** @type {(dir: string) => Site} */
const raftscope = (dir) => ({
  name: 'RaftScope',
  dir,
  path: '/',
  init: [stampServers],
  pictureAt: () => /** @type {any} */ (window).__pictureAt,
  readyAt: () => /** @type {any} */ (window).__pictureAt,
});

/**
 * The RaftScope folder to serve, or null (with why) when there is none.
 * @returns {{dir: string} | {why: string}}
 */
function findRaftScope() {
  const tried = [];
  if (process.env.RAFTSCOPE_DIR) tried.push(resolve(process.env.RAFTSCOPE_DIR));
  for (const checkout of new Set([ROOT, mainCheckout()])) {
    if (checkout) tried.push(resolve(checkout, '..', 'shared', 'anchors', 'raftscope'));
  }
  const dir = tried.find((d) => existsSync(join(d, 'index.html')));
  return dir ? { dir } : { why: `no RaftScope (index.html) in ${tried.join(' nor in ')}; set RAFTSCOPE_DIR` };
}

/**
 * The main checkout when this one is a git worktree of it (its
 * `../shared` is the one beside the repository), else this one; null
 * without git.
 * @returns {string | null}
 */
function mainCheckout() {
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return dirname(common.trim());
  } catch {
    return null;
  }
}

/** A port free on the loopback now. @returns {Promise<number>} */
function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

/**
 * Serves `dir` with scripts/bench/gzip-server.mjs in a child process.
 * @param {string} dir
 * @returns {Promise<{url: string, stop: () => void}>}
 */
async function serve(dir) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'bench', 'gzip-server.mjs'), dir, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, COUNT: '1' },
  });
  // Every byte of a response body it sends (gzip-server.mjs, COUNT=1).
  const served = { bytes: 0 };
  await new Promise((listening, fail) => {
    child.stdout?.once('data', listening);
    child.once('exit', (code) => fail(new Error(`gzip-server for ${dir} exited (${code}) before listening`)));
  });
  let rest = '';
  child.stdout?.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^sent (\d+) /.exec(line);
      if (m) served.bytes += Number(m[1]);
    }
  });
  return { url: `http://127.0.0.1:${port}`, served, stop: () => child.kill() };
}

/**
 * A plain visit: a cold load (fast profile) with the service worker
 * allowed, the page left alone for PLAIN_MS; the bytes the server sent by
 * ready and by the end (what the page and its service worker asked for,
 * wherever from).
 * @param {import('playwright-core').Browser} browser
 * @param {Site} site
 * @param {string} url
 * @param {{bytes: number}} served the server's count
 * @returns {Promise<{ready: number, total: number}>}
 */
async function plainVisit(browser, site, url, served) {
  const { context, page } = await openCold(browser, PROFILES.fast, url, site.init);
  const from = served.bytes;
  try {
    await page.waitForFunction(site.readyAt, null, { timeout: STALL_MS, polling: 50 });
    const ready = served.bytes - from;
    await page.waitForTimeout(PLAIN_MS);
    return { ready, total: served.bytes - from };
  } finally {
    await context.close();
  }
}

/**
 * One cold load of `site` under `profile`, made again when it stalls.
 * @param {import('playwright-core').Browser} browser
 * @param {import('./cold-load.js').Profile} profile
 * @param {Site} site
 * @param {string} url
 * @returns {Promise<Load>}
 */
async function coldLoad(browser, profile, site, url) {
  for (let attempt = 1; ; attempt++) {
    const { context, page, requests } = await openCold(browser, profile, url, site.init);
    try {
      // Each stamp is a time after navigation start, so never 0.
      await page.waitForFunction(site.pictureAt, null, { timeout: STALL_MS, polling: 50 });
      await page.waitForFunction(site.readyAt, null, { timeout: STALL_MS, polling: 50 });
    } catch {
      const held = [...requests.values()].filter((r) => r.endMs === Infinity).map((r) => short(r.url));
      await context.close();
      console.log(`  ${site.name}: a load stalled (not ready in ${STALL_MS / 1000} s; held: ${held.slice(0, 6).join(', ') || 'none'}); loading again`);
      if (attempt > 3) throw new Error(`${site.name}: too many stalled loads`);
      continue;
    }
    const pictureMs = /** @type {number} */ (await page.evaluate(site.pictureAt));
    const readyMs = /** @type {number} */ (await page.evaluate(site.readyAt));
    // Let requests in flight at the picture report their end.
    await page.waitForTimeout(300);
    const { start, before } = splitAt(requests, url, pictureMs);
    await context.close();
    return { pictureMs, readyMs, bytes: before.reduce((a, r) => a + r.bytes, 0), requests: before, start };
  }
}

/** @typedef {{performance: number, cls: number, accessibility: number}} Scores */

/**
 * One Lighthouse run (its CLI, as a user would run it; chrome-launcher
 * gives each run a new empty profile). Null, with a line saying why,
 * when it fails.
 * @param {string} url
 * @param {'mobile' | 'desktop'} formFactor
 * @returns {Promise<Scores | null>}
 */
async function lighthouse(url, formFactor) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-anchor-'));
  const out = join(dir, 'report.json');
  const args = [
    url,
    `--chrome-path=${CHROMIUM_PATH}`,
    `--chrome-flags=${['--headless', ...CHROMIUM_ARGS].join(' ')}`,
    '--only-categories=performance,accessibility',
    '--output=json',
    `--output-path=${out}`,
    '--quiet',
    ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
  ];
  try {
    const code = await new Promise((done) => {
      const child = spawn(join(ROOT, 'node_modules', '.bin', 'lighthouse'), args, { stdio: ['ignore', 'ignore', 'inherit'] });
      child.once('error', (e) => {
        console.log(`  lighthouse could not start (${e.message}); run npm ci`);
        done(-1);
      });
      child.once('exit', done);
    });
    if (code !== 0 || !existsSync(out)) {
      console.log(`  lighthouse ${formFactor} ${url}: failed (exit ${code})`);
      return null;
    }
    const report = JSON.parse(readFileSync(out, 'utf8'));
    if (report.runtimeError) {
      console.log(`  lighthouse ${formFactor} ${url}: ${report.runtimeError.code} ${report.runtimeError.message}`);
      return null;
    }
    return {
      performance: Math.round(report.categories.performance.score * 100),
      cls: report.audits['cumulative-layout-shift'].numericValue,
      accessibility: Math.round(report.categories.accessibility.score * 100),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The figures, in the order of the table: each with both sides' values
 * run by run (the same index is the same run, so interleaved pairs).
 * `ratio` false where a ratio says nothing (a layout shift near 0 on
 * both sides).
 * @typedef {{label: string, format: Format, ratio: boolean, ours: number[], theirs: number[]}} Figure
 */

/** @type {Map<string, Figure>} */
const figures = new Map();

/**
 * Adds a run's value of one figure for one side.
 * @param {string} label
 * @param {Format} format
 * @param {'ours' | 'theirs'} side
 * @param {number} value
 * @param {boolean} [ratio] whether the table gives ours / RaftScope
 */
function note(label, format, side, value, ratio = true) {
  let f = figures.get(label);
  if (!f) {
    f = { label, format, ratio, ours: [], theirs: [] };
    figures.set(label, f);
  }
  f[side].push(value);
}

/**
 * A figure's number format: the number alone, and with its unit.
 * @typedef {{(x: number): string, unit: string}} Format
 */

/**
 * @param {(x: number) => string} number
 * @param {string} unit
 * @returns {Format}
 */
const withUnit = (number, unit) => Object.assign(number, { unit });
const seconds = withUnit((ms) => (ms / 1000).toFixed(2), ' s');
const kilobytes = withUnit((b) => (b / 1000).toFixed(1), ' KB');
const score = withUnit((x) => x.toFixed(0), '');
const shift = withUnit((x) => x.toFixed(3), '');
const factor = withUnit((x) => x.toFixed(2), '');

/**
 * Median and range of `xs` as `median unit (min-max)`.
 * @param {number[]} xs
 * @param {Format} f
 */
function spread(xs, f) {
  if (!xs.length) return 'n/a';
  if (xs.length === 1) return f(xs[0]) + f.unit;
  return `${f(median(xs))}${f.unit} (${f(Math.min(...xs))}-${f(Math.max(...xs))})`;
}

/** The table, in Markdown. @returns {string[]} */
function table() {
  const rows = ['| figure | ours | RaftScope | ours / RaftScope |', '|---|---|---|---|'];
  for (const f of figures.values()) {
    const n = Math.min(f.ours.length, f.theirs.length);
    const ratios = [];
    for (let i = 0; i < n; i++) if (f.ratio && f.theirs[i] > 0) ratios.push(f.ours[i] / f.theirs[i]);
    rows.push(`| ${f.label} | ${spread(f.ours, f.format)} | ${spread(f.theirs, f.format)} | ${ratios.length ? spread(ratios, factor) : '-'} |`);
  }
  return rows;
}

/**
 * The requests a first picture waited for, by when they ended.
 * @param {string} title
 * @param {Load} load
 */
function listRequests(title, load) {
  console.log(`${title}: first picture at ${seconds(load.pictureMs)} s, ${kilobytes(load.bytes)} KB in ${load.requests.length} requests before it:`);
  for (const r of [...load.requests].sort((a, b) => a.endMs - b.endMs)) {
    console.log(
      `  ${kilobytes(r.bytes).padStart(6)} KB  ${seconds(r.startMs - load.start)} to ${seconds(r.endMs - load.start)} s  ${short(r.url)}`,
    );
  }
}

async function main() {
  const anchor = findRaftScope();
  if ('why' in anchor) {
    console.log(`bench-anchor: skipped: ${anchor.why}`);
    return;
  }
  const siteDir = resolve(ROOT, process.env.SITE_DIR || 'dist');
  if (!existsSync(join(siteDir, 'index.html'))) {
    throw new Error(`no built site in ${siteDir}: run bash scripts/build-site.sh first (or set SITE_DIR)`);
  }
  const sites = [ours(siteDir, process.argv[2] || '/'), raftscope(anchor.dir)];
  const profiles = profilesNamed(process.env.PROFILES || 'slow,fast');
  const servers = await Promise.all(sites.map((s) => serve(s.dir)));
  const urls = sites.map((s, i) => new URL(s.path, `${servers[i].url}/`).href);
  const browser = await launchBrowser();
  const sides = /** @type {const} */ (['ours', 'theirs']);
  /** @type {Map<string, Load>} the last load of each site and profile */
  const last = new Map();
  try {
    console.log(`bench-anchor: ${urls[0]} against RaftScope ${urls[1]}, ${RUNS} runs, interleaved; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    for (let run = 1; run <= RUNS; run++) {
      for (const [key, profile] of profiles) {
        for (let i = 0; i < sites.length; i++) {
          const l = await coldLoad(browser, profile, sites[i], urls[i]);
          note(`first picture, ${key}`, seconds, sides[i], l.pictureMs);
          note(`bytes before the first picture, ${key}`, kilobytes, sides[i], l.bytes);
          note(`ready to play, ${key}`, seconds, sides[i], l.readyMs);
          last.set(`${sites[i].name}, ${profile.name}`, l);
        }
      }
      if (PLAIN_MS > 0) {
        for (let i = 0; i < sites.length; i++) {
          const v = await plainVisit(browser, sites[i], urls[i], servers[i].served);
          note(`bytes of a plain visit in ${PLAIN_MS / 1000} s (bodies)`, kilobytes, sides[i], v.total);
          note(`a plain visit / its bytes by ready`, factor, sides[i], v.total / v.ready, false);
        }
      }
      if (LIGHTHOUSE) {
        for (const formFactor of /** @type {const} */ (['mobile', 'desktop'])) {
          for (let i = 0; i < sites.length; i++) {
            const s = await lighthouse(urls[i], formFactor);
            if (!s) continue;
            note(`Lighthouse ${formFactor} performance`, score, sides[i], s.performance);
            note(`Lighthouse ${formFactor} CLS`, shift, sides[i], s.cls, false);
            note(`Lighthouse ${formFactor} accessibility`, score, sides[i], s.accessibility);
          }
        }
      }
      console.log(`  run ${run} of ${RUNS} done; load average ${loadavg()[0].toFixed(2)}`);
    }
  } finally {
    await browser.close();
    for (const s of servers) s.stop();
  }
  console.log('');
  for (const line of table()) console.log(line);
  console.log('');
  console.log(
    `median (min-max) over ${RUNS} runs; ours / RaftScope run by run (times and bytes: below 1 is ours ahead; ` +
      `scores: above 1). RaftScope's ready to play is its first picture (it plays at once). ` +
      `Load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}.`,
  );
  if (VERBOSE) for (const [title, l] of last) listRequests(title, l);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
