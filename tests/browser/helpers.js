// Shared helpers for the browser tests (run with `node --test tests/browser/`;
// scripts/test.sh serves the built site, dist/, under a sub-path and sets
// BASE_URL, and serves the repository root for DEV_URL) and for the page
// tools in scripts/bench/browser/.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** The test fixtures (host pages), served from disk by `fixtureUrl`. */
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** Debian's Chromium, installed by scripts/setup.sh. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Flags for headless Chromium on these machines (run as root, no network
 * but loopback). Playwright adds --headless and its own temporary
 * --user-data-dir.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Local Network Access checks take a page Playwright serves from disk
  // (`fixtureUrl`: the embed tests' host page) for a public one and refuse
  // its iframe of the loopback server; every page here is on loopback.
  '--disable-features=LocalNetworkAccessChecks',
];

/**
 * Launches headless Chromium through playwright-core. Close it with
 * `await browser.close()` (e.g. in an `after` hook).
 *
 * With `handClock`, every page (and frame) of the browser opens with the
 * page's clock in the test's hand (www/shared/play-clock.js, see `holdClocks`):
 * a run then plays only as far as the test hands it time (page.js
 * `playFor`), however fast or slow the machine draws frames. The tests
 * all ask for it; the frame-timing tools, which measure the page playing
 * on its own, do not.
 * @param {import('playwright-core').LaunchOptions & {handClock?: boolean}} [options] extra options
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchBrowser(options = {}) {
  const { handClock = false, ...launch } = options;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...launch,
    args: [...CHROMIUM_ARGS, ...(launch.args ?? [])],
  });
  if (handClock) holdClocks(browser);
  return browser;
}

/**
 * Sets `window.__playClock` (www/shared/play-clock.js) before any script of a
 * page or frame runs, keeping what a script registered before it set
 * (e.g. `tasks`).
 */
function handOnClock() {
  const w = /** @type {any} */ (window);
  w.__playClock = { budget: 0, frames: 0, posted: 0, painted: 0, ...w.__playClock };
}

/**
 * Makes every context of `browser`, and so every page, start with the
 * page's clock in the test's hand: `newContext` adds the init script,
 * and `newPage` opens its page in such a context of its own, closed with
 * the page (as `Browser.newPage` does).
 *
 * Service workers are blocked unless the context asks for them
 * (`serviceWorkers: 'allow'`, as offline.test.js does): every test opens
 * a fresh context, where the built site's worker would only download
 * the whole site for its cache beside the test.
 * @param {import('playwright-core').Browser} browser
 */
function holdClocks(browser) {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext({ serviceWorkers: 'block', ...options });
    await context.addInitScript(handOnClock);
    return context;
  };
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.once('close', () => {
      context.close().catch(() => {});
    });
    return page;
  };
}

/**
 * Base URL of the page under test, without a trailing slash (BASE_URL,
 * default http://127.0.0.1:8000): the built site, dist/, served alone
 * under a sub-path (scripts/test.sh), or the repository root served as
 * is (the development page).
 * @returns {string}
 */
export function baseUrl() {
  return (process.env.BASE_URL || 'http://127.0.0.1:8000').replace(/\/+$/, '');
}

/**
 * Base URL of the repository root served as is (DEV_URL; default
 * `baseUrl()`, for a run against a development server), for the few
 * tests that import the page's unbundled modules (`/www/...`), which the
 * built site does not have.
 * @returns {string}
 */
export function devUrl() {
  return (process.env.DEV_URL || baseUrl()).replace(/\/+$/, '');
}

/**
 * The address of the test fixture `name` (tests/browser/fixtures/) on
 * the origin of `base` (default `baseUrl()`), served to `page` from disk
 * by Playwright (`page.route`), so a host page is on the embed's own
 * origin without the fixture being part of the site under test.
 * @param {import('playwright-core').Page} page
 * @param {string} name e.g. `embed-host.html`
 * @param {string} [base]
 * @returns {Promise<string>}
 */
export async function fixtureUrl(page, name, base = baseUrl()) {
  const prefix = `${new URL(base).origin}/__test-fixtures__/`;
  await page.route(`${prefix}**`, (route) => {
    const file = new URL(route.request().url()).pathname.slice('/__test-fixtures__/'.length);
    return route.fulfill({ path: join(FIXTURES, file) });
  });
  return `${prefix}${name}`;
}

/**
 * Collects uncaught page errors, console errors and failed HTTP responses
 * (status >= 400, or no response) of a page, so a test can assert that none
 * happened: `const errors = collectErrors(page); ...;
 * assert.deepEqual(errors, [])`. The browser's automatic /favicon.ico
 * request is ignored (a page can avoid it with `<link rel="icon" href="data:,">`).
 * @param {import('playwright-core').Page} page
 * @returns {string[]} live array, filled as errors happen
 */
export function collectErrors(page) {
  const errors = [];
  const isFavicon = (url) => new URL(url).pathname === '/favicon.ico';
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // "Failed to load resource" carries no URL; the response handlers below
    // report those with their URL instead.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
      errors.push(`console.error: ${msg.text()}`);
    }
  });
  page.on('response', (res) => {
    if (res.status() >= 400 && !isFavicon(res.url())) {
      errors.push(`HTTP ${res.status()}: ${res.url()}`);
    }
  });
  page.on('requestfailed', (req) => {
    if (!isFavicon(req.url())) {
      errors.push(`request failed: ${req.url()} (${req.failure()?.errorText})`);
    }
  });
  return errors;
}
