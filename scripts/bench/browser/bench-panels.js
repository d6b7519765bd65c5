// @ts-check
// Every panel's first use, cold (issue 30, item 4; docs/PERFORMANCE.md,
// Panels): the built site served by the gzip server, a cold browser
// context (cold-load.js: an empty cache, no service worker) on a link
// profile (default the fast one, 5 Mbps / 28 ms), the page loaded to
// ready, then one panel used for the first time, timed from the click to
// the moment it can be used:
//
// - compare: Raft ticked beside the page's Bully, Compare clicked (which
//   loads the comparison's address), until both rows of the cost table
//   are shown;
// - experiments: its button, until its Run button is there; and Run
//   pressed at once, until the sweep runs (its wasm module is in);
// - trade-offs: its button, until the first algorithm's row is measured;
// - lab: its button, until the editor shows the first template; and Run
//   pressed at once, until the views run the script; and once the views
//   run it, its "Find a failure", with Find pressed at once, until it
//   checks the script;
// - finder: the Faults panel's "Find a failure" opened, until its form
//   is filled (the algorithms listed); and Find pressed at once, until
//   it checks;
// - export: "Summary JSON", until the file is downloaded.
//
// And a cold compare link against the cold `/` (navigation start to
// ready, interleaved), their ratio.
//
// Each use is timed in the page (`watchInPage`): from the first real
// click of the use (the event's own time stamp) to the frame drawn after
// the first DOM change after which its end holds (for the export, after
// the click on the download link), across the navigation compare mode
// makes. The harness's own
// view (from before Playwright's first click, with its checks that the
// target is visible and still, to its polling seeing the end) is printed
// beside it: it adds 0.1 to 0.2 s that are no user's.
//
//   bash scripts/build-site.sh
//   node scripts/bench/browser/bench-panels.js
//
// Options: RUNS (default 3), PROFILE (default fast), ONLY (a regular
// expression on the panels' names; `link` for the compare link), SITE_DIR (default
// dist). Not a test: it prints figures, with the load average at the
// start and the end.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../../../tests/browser/helpers.js';
import { PROFILES, median, openCold, stampReady } from './cold-load.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const RUNS = Number(process.env.RUNS || 3);
const PROFILE = PROFILES[process.env.PROFILE || 'fast'];
if (!PROFILE) throw new Error(`unknown PROFILE ${process.env.PROFILE} (${Object.keys(PROFILES).join(', ')})`);
const ONLY = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
const TIMEOUT_MS = 60_000;

/**
 * When a use has ended, as `watchInPage` reads it: `selector` matches
 * (at least `count` elements; with `text`, the first one's text matches
 * that regular expression; with `shown`, the element of that id is not
 * hidden), or (`download`) a link with a `download` attribute is clicked.
 * @typedef {{selector?: string, count?: number, text?: string, shown?: string, download?: boolean}} Until
 */

/**
 * A panel's first use: what to do, and when it can be used (`until`,
 * timed in the page; `use` also waits for it, as the harness sees it);
 * `before`, untimed, what the user did first.
 * @typedef {{name: string, until: Until, use: (page: import('playwright-core').Page) => Promise<void>,
 *   before?: (page: import('playwright-core').Page) => Promise<void>}} Panel
 */

/**
 * In the page before any script, in every document of the context (an
 * init script): times a use from its first real click to the first DOM
 * change after which `window.__bench.until` holds, both on the epoch's
 * clock, kept in sessionStorage across the navigation compare mode
 * makes; the end is stamped once the next frame is drawn (-1 until
 * then). `window.__bench.doneAt - clickAt` is the figure.
 */
function watchInPage() {
  const w = /** @type {any} */ (window);
  const KEY = 'bench-panels';
  w.__bench = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') ?? { until: null, clickAt: null, doneAt: null };
  const save = () => sessionStorage.setItem(KEY, JSON.stringify(w.__bench));
  // When the frame that shows it is drawn: the task after the next
  // animation frame's callbacks and rendering.
  const stamp = () => {
    w.__bench.doneAt = -1;
    requestAnimationFrame(() => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => {
        w.__bench.doneAt = performance.timeOrigin + performance.now();
        save();
      };
      port2.postMessage(null);
    });
  };
  /**
   * Every match of `selector`, in open shadow roots too (the lab's editor
   * is in one), as Playwright's selectors find them.
   * @param {string} selector
   */
  const deep = (selector) => {
    /** @type {Element[]} */
    const found = [];
    /** @param {Document | ShadowRoot} root */
    const visit = (root) => {
      found.push(...root.querySelectorAll(selector));
      for (const e of root.querySelectorAll('*')) if (e.shadowRoot) visit(e.shadowRoot);
    };
    visit(document);
    return found;
  };
  /** @param {Until} u */
  const holds = (u) => {
    if (!u.selector) return false;
    const all = deep(u.selector);
    if (all.length < (u.count ?? 1)) return false;
    if (u.text && !new RegExp(u.text).test(all[0].textContent ?? '')) return false;
    if (u.shown && (document.getElementById(u.shown)?.hidden ?? true)) return false;
    return true;
  };
  const pending = () => w.__bench.until && w.__bench.clickAt !== null && w.__bench.doneAt === null;
  addEventListener(
    'click',
    (e) => {
      if (e.isTrusted && w.__bench.until && w.__bench.clickAt === null) {
        w.__bench.clickAt = performance.timeOrigin + e.timeStamp;
        save();
      }
    },
    true,
  );
  // A download is a click on a link the page may never attach.
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (pending() && w.__bench.until.download && this.hasAttribute('download')) stamp();
    return click.call(this);
  };
  const check = () => {
    if (pending() && holds(w.__bench.until)) stamp();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  // And once a frame: a shadow root's changes are not the document's.
  const poll = () => {
    check();
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

/** The finder checking: its state once a search runs (or is done). */
const FINDER_CHECKS = '[data-testid=finder][data-state=running], [data-testid=finder][data-state=done]';

/**
 * Opens the lab and presses Run at once; resolves when the views run
 * the script.
 * @param {import('playwright-core').Page} page
 */
async function labRunAtOnce(page) {
  await page.click('[data-testid=lab-open]');
  await page.click('[data-testid=lab-run]', { timeout: TIMEOUT_MS });
  await page.waitForFunction(() => /^Running in the views/.test(document.querySelector('[data-testid=lab-status]')?.textContent ?? ''), null, {
    timeout: TIMEOUT_MS,
    polling: 'raf',
  });
}

/**
 * Once the finder's form is shown (by `open`), presses Find at once;
 * resolves when it checks. (Its form is in the page's markup: pressed
 * before the finder's code is in, it would submit the page.)
 * @param {import('playwright-core').Page} page
 * @param {string} open what opens it
 */
async function findAtOnce(page, open) {
  await page.click(open);
  await page.waitForSelector('#finder[data-loaded=true]', { timeout: TIMEOUT_MS });
  await page.click('[data-testid=finder-run]', { timeout: TIMEOUT_MS });
  await page.waitForSelector(FINDER_CHECKS, { timeout: TIMEOUT_MS });
}

/** @type {Panel[]} */
const PANELS = [
  {
    name: 'compare',
    until: { selector: '#compare-rows tr', count: 2, shown: 'compare' },
    async use(page) {
      await page.check('#compare-picker input[value=raft]');
      await page.click('#compare-open');
      await page.waitForFunction(() => document.querySelectorAll('#compare-rows tr').length >= 2 && !document.getElementById('compare')?.hidden, null, {
        timeout: TIMEOUT_MS,
        polling: 'raf',
      });
    },
  },
  {
    name: 'experiments',
    until: { selector: '[data-testid=exp-run]' },
    async use(page) {
      await page.click('[data-testid=experiments-open]');
      await page.waitForSelector('[data-testid=exp-run]', { timeout: TIMEOUT_MS });
    },
  },
  {
    name: 'experiments, Run at once until it runs',
    until: { selector: '[data-testid=experiments-panel][data-state=running], [data-testid=experiments-panel][data-state=done]' },
    async use(page) {
      await page.click('[data-testid=experiments-open]');
      await page.click('[data-testid=exp-run]', { timeout: TIMEOUT_MS });
      await page.waitForSelector('[data-testid=experiments-panel][data-state=running], [data-testid=experiments-panel][data-state=done]', {
        timeout: TIMEOUT_MS,
      });
    },
  },
  {
    name: 'trade-offs',
    until: { selector: '[data-testid=tradeoffs-table] tbody tr:not(.pending)' },
    async use(page) {
      await page.click('[data-testid=tradeoffs-open]');
      await page.waitForSelector('[data-testid=tradeoffs-table] tbody tr:not(.pending)', { timeout: TIMEOUT_MS });
    },
  },
  {
    name: 'lab',
    until: { selector: '[data-testid=lab-code]' },
    async use(page) {
      await page.click('[data-testid=lab-open]');
      await page.waitForSelector('[data-testid=lab-code]', { timeout: TIMEOUT_MS });
    },
  },
  {
    name: 'lab, Run at once until the views run it',
    until: { selector: '[data-testid=lab-status]', text: '^Running in the views' },
    use: labRunAtOnce,
  },
  {
    name: 'lab, after a Run: Find a failure, Find at once until it checks',
    before: labRunAtOnce,
    until: { selector: FINDER_CHECKS },
    use: (page) => findAtOnce(page, '[data-testid=lab-find-failure]'),
  },
  {
    name: 'finder',
    until: { selector: '#finder[data-loaded=true]' },
    async use(page) {
      await page.click('[data-testid=finder-open-section]');
      await page.waitForSelector('#finder[data-loaded=true]', { timeout: TIMEOUT_MS });
    },
  },
  {
    name: 'finder, Find at once until it checks',
    until: { selector: FINDER_CHECKS },
    use: (page) => findAtOnce(page, '[data-testid=finder-open-section]'),
  },
  {
    name: 'export',
    until: { download: true },
    async use(page) {
      await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT_MS }), page.click('[data-testid=export-summary]')]);
    },
  },
];

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
 */
async function serve(dir) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'bench', 'gzip-server.mjs'), dir, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((listening, fail) => {
    child.stdout?.once('data', listening);
    child.once('exit', (code) => fail(new Error(`gzip-server for ${dir} exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/**
 * A cold load of `url` to ready.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
async function coldReady(browser, url) {
  // No service worker: once it controls the page, the panel's requests
  // would go through it, on no emulated link.
  const opened = await openCold(browser, PROFILE, url, [stampReady, watchInPage], { serviceWorkers: 'block' });
  await opened.page.waitForFunction(() => /** @type {any} */ (window).__readyAt !== undefined, null, { timeout: TIMEOUT_MS, polling: 50 });
  const readyMs = /** @type {number} */ (await opened.page.evaluate(() => /** @type {any} */ (window).__readyAt));
  return { ...opened, readyMs };
}

async function main() {
  const site = resolve(ROOT, process.env.SITE_DIR || 'dist');
  if (!existsSync(join(site, 'index.html'))) throw new Error(`no built site in ${site}: run bash scripts/build-site.sh first`);
  const server = await serve(site);
  const browser = await launchBrowser();
  /** @type {Map<string, number[]>} */
  const figures = new Map();
  /** The harness's view of each use (from before its first click to its polling seeing the end). @type {Map<string, number[]>} */
  const harness = new Map();
  /**
   * @param {Map<string, number[]>} into
   * @param {string} name
   * @param {number} ms
   */
  const add = (into, name, ms) => into.set(name, [...(into.get(name) ?? []), ms]);
  const note = (/** @type {string} */ name, /** @type {number} */ ms) => add(figures, name, ms);
  try {
    console.log(`bench-panels: ${server.url}/, ${RUNS} runs, ${PROFILE.name}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    for (let run = 1; run <= RUNS; run++) {
      for (const panel of PANELS) {
        if (ONLY && !ONLY.test(panel.name)) continue;
        const { context, page } = await coldReady(browser, `${server.url}/`);
        try {
          // Times since the epoch: opening compare mode loads its address.
          const now = () => page.evaluate(() => performance.timeOrigin + performance.now());
          await panel.before?.(page);
          await page.evaluate((until) => {
            const w = /** @type {any} */ (window);
            w.__bench.until = until;
            sessionStorage.setItem('bench-panels', JSON.stringify(w.__bench));
          }, panel.until);
          const t0 = await now();
          await panel.use(page);
          add(harness, panel.name, (await now()) - t0);
          const bench = await page.waitForFunction(() => {
            const b = /** @type {any} */ (window).__bench;
            return b.doneAt !== null && b.doneAt > 0 && b.clickAt !== null && b;
          }, null, { timeout: TIMEOUT_MS });
          const { clickAt, doneAt } = /** @type {{clickAt: number, doneAt: number}} */ (await bench.jsonValue());
          note(panel.name, doneAt - clickAt);
        } finally {
          await context.close();
        }
      }
      if (!ONLY || ONLY.test('link')) {
        // Interleaved: the cold `/`, then the cold compare link.
        for (const [name, path] of [
          ['cold /', '/'],
          ['cold /?compare=bully,raft', '/?compare=bully,raft'],
        ]) {
          const { context, readyMs } = await coldReady(browser, `${server.url}${path}`);
          note(name, readyMs);
          await context.close();
        }
      }
      console.log(`  run ${run} of ${RUNS} done; load average ${loadavg()[0].toFixed(2)}`);
    }
  } finally {
    await browser.close();
    server.stop();
  }
  console.log('');
  console.log('| first use, cold | median, in the page | min-max | median, as the harness saw it |');
  console.log('|---|---|---|---|');
  const s = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;
  for (const [name, xs] of figures) {
    const seen = harness.get(name);
    console.log(`| ${name} | ${s(median(xs))} | ${s(Math.min(...xs))}-${s(Math.max(...xs))} | ${seen ? s(median(seen)) : '-'} |`);
  }
  const home = figures.get('cold /');
  const link = figures.get('cold /?compare=bully,raft');
  if (home && link) {
    const ratios = home.map((h, i) => link[i] / h);
    console.log(`| compare link / \`/\`, run by run | ${median(ratios).toFixed(2)} | ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)} |`);
  }
  console.log('');
  console.log(`${PROFILE.name}; each panel's use timed in the page from its first click, after a cold load to ready. Load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}.`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
