// The built site offline (issue 17, item 6; issue 30, item 3;
// www/offline/sw.js, top comment): a plain visit keeps the shell and its
// family's wasm module and downloads nothing else, and nothing twice; what a visit used
// (other families' links, a #s= link, the embed, the Experiments panel
// with its workers and uPlot) is kept as first used, so with the network
// gone a reload still opens the page and runs it, and all of that works
// again.
// A new build served at the same address shows "A new version is
// available. Reload" while the old version keeps serving the old files,
// and Reload runs the new version and drops the old cache.
//
// Only the built site has a service worker: against the development page
// (BASE_URL serving the repository root) these tests are skipped.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { baseUrl, collectErrors, launchBrowser } from './helpers.js';
import { ready, readouts } from './page.js';
import { REPO_ROOT, cliRun, encodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
/** Whether BASE_URL serves the built site (it has sw.js). */
let built = false;
before(async () => {
  browser = await launchBrowser({ handClock: true });
  built = (await fetch(`${baseUrl()}/sw.js`).catch(() => null))?.ok ?? false;
});
after(async () => {
  await browser?.close();
});

const SKIP = 'the development page has no service worker (run against dist/: scripts/test.sh)';

/**
 * A context with service workers allowed (helpers.js blocks them by
 * default) and one page in it, opened at `url` once the worker of the
 * site has installed (its cache is full) and controls the page.
 * @param {string} url
 */
async function visit(url) {
  const context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(url);
  await ready(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
  });
  return { context, page, errors };
}

/**
 * Goes to the run's end and checks the readouts against the CLI's run.
 * @param {import('playwright-core').Page} page
 * @param {string[]} args the CLI's scenario flags
 */
async function runsAsCli(page, args) {
  const expected = cliRun(args);
  await page.click('#to-end');
  await page.waitForFunction((hash) => document.querySelector('[data-testid="trace-hash"]')?.textContent === hash, expected.trace_hash);
  const shown = await readouts(page);
  assert.equal(shown.messages, expected.messages.sent);
  assert.equal(shown.time, expected.end_ms);
}

/**
 * The files in the site's cache, as paths below the site.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
async function cachedFiles(page) {
  return page.evaluate(async () => {
    const names = await caches.keys();
    const files = [];
    for (const name of names) for (const r of await (await caches.open(name)).keys()) files.push(new URL(r.url).pathname);
    return files;
  });
}

/**
 * Waits until the site's cache has a file whose path matches `pattern`.
 * @param {import('playwright-core').Page} page
 * @param {RegExp} pattern
 */
async function waitCached(page, pattern) {
  await page.waitForFunction(
    async (source) => {
      const re = new RegExp(source);
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) if (re.test(r.url)) return true;
      return false;
    },
    pattern.source,
    { polling: 100 },
  );
}

/**
 * Runs a sweep of 20 seeds in the Experiments panel (a chunk loaded on
 * first use, its workers, which load the wasm, and uPlot).
 * @param {import('playwright-core').Page} page
 */
async function runExperiment(page) {
  await page.click('[data-testid=experiments-open]');
  await page.waitForSelector('[data-testid=exp-run]');
  await page.fill('[data-testid=exp-seeds]', '1..20');
  await page.fill('[data-testid=exp-workers]', '2');
  await page.click('[data-testid=exp-run]');
  await page.waitForSelector('[data-testid=experiments-panel][data-state=done]', { timeout: 120_000 });
  await page.waitForSelector('[data-testid=exp-charts] figure canvas');
}

test('a plain visit keeps the shell and its family\'s module, nothing it did not use', async (t) => {
  if (!built) return t.skip(SKIP);
  const { context, page, errors } = await visit(`${baseUrl()}/?algorithm=bully&nodes=5&seed=2`);
  await waitCached(page, /election_player_bully_bg-[0-9a-f]+\.wasm$/);
  const kept = await cachedFiles(page);
  assert.ok(kept.some((f) => f.endsWith('/index.html')), `the page is kept: ${kept}`);
  const unused = kept.filter((f) => /election_(web|compare|sweeps|lab)_bg-|election_player_(?!bully_bg)|uPlot|codemirror|experiments-worker|finder-worker|tradeoffs-worker/.test(f));
  assert.deepEqual(unused, [], 'nothing the visit did not use is downloaded for the cache');
  assert.deepEqual(errors, []);
  await context.close();
});

test('offline after one visit, what it used works again: a reload, a query link, a #s= link, the embed and an experiment', async (t) => {
  if (!built) return t.skip(SKIP);
  const { context, page, errors } = await visit(`${baseUrl()}/?algorithm=bully&nodes=5&seed=2`);
  await waitCached(page, /election_player_bully_bg-[0-9a-f]+\.wasm$/);
  // The visit goes on, online: another family's link, a share link of a
  // third, an experiment, the embed (each kept as it is first used).
  const raft = `${baseUrl()}/?algorithm=raft&nodes=7`;
  const scenario = { version: 1, algorithm: 'zab', nodes: 4, seed: 9, faults: [{ at_ms: 300, crash: 'leader' }] };
  const zab = `${baseUrl()}/#s=${encodeShare(scenario)}`;
  const embedUrl = `${baseUrl()}/?embed=1&algorithm=bully&nodes=6&seed=3&at=10`;
  for (const url of [raft, zab]) {
    await page.goto(url);
    await ready(page);
  }
  await runExperiment(page);
  const embed = await context.newPage();
  const embedErrors = collectErrors(embed);
  await embed.goto(embedUrl);
  await ready(embed);

  await context.setOffline(true);
  await page.goto(`${baseUrl()}/?algorithm=bully&nodes=5&seed=2`);
  await ready(page);
  await page.reload();
  await ready(page);
  await runsAsCli(page, ['--algorithm', 'bully', '--nodes', '5', '--seed', '2']);

  await page.goto(raft);
  await ready(page);
  assert.equal(await page.inputValue('#algorithm'), 'raft');
  await runsAsCli(page, ['--algorithm', 'raft', '--nodes', '7', '--seed', await page.inputValue('#seed')]);

  await page.goto(zab);
  await ready(page);
  assert.equal(await page.inputValue('#algorithm'), 'zab');
  const file = join(mkdtempSync(join(tmpdir(), 'election-offline-')), 'scenario.json');
  writeFileSync(file, JSON.stringify(scenario));
  await runsAsCli(page, ['--scenario', file]);

  await runExperiment(page);

  await embed.goto(embedUrl);
  await ready(embed);
  assert.equal(await embed.getAttribute('[data-testid=embed-time]', 'data-ms'), '10');

  assert.deepEqual(errors, []);
  assert.deepEqual(embedErrors, []);
  await context.close();
});

/** File types the update test's server names (what the site has). */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain',
};

/** The built site these tests copy, and where under a server's root they put it. */
const SITE = process.env.SITE_DIR ?? join(REPO_ROOT, 'dist');
const SUB_PATH = 'course/playground';

/**
 * Copies the built site under `root` at `SUB_PATH` (a course's web
 * space), as a static server there would serve it.
 * @param {string} root
 */
function copySite(root) {
  cpSync(SITE, join(root, SUB_PATH), { recursive: true });
}

/**
 * A plain static server for `root()` (read at each request, so a test
 * can swap the site under it), on a free loopback port. With
 * `validators` it sends each file's ETag and answers a request that
 * names it with 304, as GitHub Pages and most static hosts do; `sent`
 * lists the paths it sent a body for, in order.
 * @param {() => string} root
 * @param {{validators?: boolean}} [options]
 * @returns {Promise<{url: string, sent: string[], close: () => Promise<void>}>}
 */
async function staticServer(root, { validators = false } = {}) {
  /** @type {string[]} */
  const sent = [];
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = join(root(), normalize(path));
    if (!file.startsWith(root()) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const body = readFileSync(file);
    /** @type {Record<string, string>} */
    const headers = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' };
    if (validators) {
      headers.ETag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      if (req.headers['if-none-match'] === headers.ETag) {
        res.writeHead(304, headers).end();
        return;
      }
    }
    sent.push(path);
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    sent,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('a plain visit downloads nothing twice: the worker takes the page and its files from the browser\'s cache', async (t) => {
  if (!built) return t.skip(SKIP);
  const work = mkdtempSync(join(tmpdir(), 'election-twice-'));
  copySite(work);
  const server = await staticServer(() => work, { validators: true });
  t.after(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });
  // The folder with a query: the page's address is not `index.html`.
  const { context, page, errors } = await visit(`${server.url}/${SUB_PATH}/?algorithm=bully&nodes=5&seed=2`);
  await waitCached(page, /election_player_bully_bg-[0-9a-f]+\.wasm$/);
  assert.ok((await cachedFiles(page)).some((f) => f.endsWith(`/${SUB_PATH}/index.html`)), 'the page is kept');
  const twice = server.sent.filter((p, i) => server.sent.indexOf(p) !== i);
  assert.deepEqual(twice, [], `sent in full more than once (all sent: ${server.sent.join(', ')})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a new build at the same address: the old version serves until "Reload", then the new one runs', async (t) => {
  if (!built) return t.skip(SKIP);
  const oldVersion = /<meta name="election-version" content="([0-9a-f]+)">/.exec(readFileSync(join(SITE, 'index.html'), 'utf8'))?.[1];
  assert.ok(oldVersion, `${SITE}/index.html names its version`);
  const newVersion = oldVersion === '0123456789abcdef' ? 'fedcba9876543210' : '0123456789abcdef';

  // Two versions of the site under /course/playground/: the build, and a
  // copy whose pages and service worker carry another version.
  const work = mkdtempSync(join(tmpdir(), 'election-update-'));
  const versions = { old: join(work, 'old'), new: join(work, 'new') };
  copySite(versions.old);
  copySite(versions.new);
  for (const f of ['index.html', 'docs/embed.html', 'sw.js']) {
    const path = join(versions.new, SUB_PATH, f);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll(oldVersion, newVersion));
  }
  let serving = versions.old;
  const server = await staticServer(() => serving);
  const url = `${server.url}/${SUB_PATH}/?algorithm=bully&nodes=5&seed=2`;
  const version = (/** @type {import('playwright-core').Page} */ page) =>
    page.getAttribute('meta[name="election-version"]', 'content');

  const { context, page, errors } = await visit(url);
  assert.equal(await version(page), oldVersion);

  serving = versions.new;
  await page.reload();
  await ready(page);
  assert.equal(await version(page), oldVersion, 'the old version still serves the page');
  const notice = await page.waitForSelector('[data-testid="update-notice"]', { timeout: 30_000 });
  assert.equal((await notice.textContent())?.trim(), 'A new version is available. Reload');
  assert.ok(await notice.isVisible());

  await Promise.all([page.waitForNavigation(), page.click('[data-testid="update-reload"]')]);
  await ready(page);
  assert.equal(await version(page), newVersion, 'Reload runs the new version');
  assert.equal(await page.isVisible('[data-testid="update-notice"]'), false);
  await runsAsCli(page, ['--algorithm', 'bully', '--nodes', '5', '--seed', '2']);
  const caches = await page.evaluate(() => caches.keys());
  assert.equal(caches.length, 1, `one cache left: ${caches}`);
  assert.ok(caches[0].endsWith(newVersion), caches[0]);

  // And the new version works offline.
  await context.setOffline(true);
  await page.reload();
  await ready(page);
  assert.equal(await version(page), newVersion);

  assert.deepEqual(errors, []);
  await context.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
});
