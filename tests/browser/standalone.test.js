// The standalone page (scripts/build/standalone.mjs, top comment): the
// template built by scripts/build/standalone.mjs, filled by `election html`
// or by the page's "Download as a standalone page", opens from file:// in a
// browser context with the network off, fetches nothing, and shows the
// CLI's messages-total, leader, time and trace hash for its scenario.
// The template is built here, fresh, into a temporary directory (a second
// or two), so the test never opens a stale one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { collectErrors, launchBrowser } from './helpers.js';
import { openPlayground, readouts, ready } from './page.js';
import { REPO_ROOT, cliRun } from './reference.js';

const DIR = mkdtempSync(join(tmpdir(), 'election-standalone-'));
const TEMPLATE = join(DIR, 'standalone.html');
/** A scenario from scenarios/: Raft, its leader crashed at 400 ms. */
const SCENARIO = 'scenarios/raft-leader-crash.json';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  execFileSync('node', ['scripts/build/standalone.mjs', '--out', TEMPLATE], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * `election <args>` as text (cliRun builds the binary once if needed).
 * @param {string[]} args
 * @returns {string}
 */
function cli(args) {
  cliRun(['--nodes', '1']);
  return execFileSync(join(REPO_ROOT, 'target', 'debug', 'election'), args, { cwd: REPO_ROOT, encoding: 'utf8' });
}

/**
 * Opens `file` from file:// in a context of its own with the network off
 * (offline, and every http(s) request aborted), recording every request.
 * @param {string} file
 */
async function openOffline(file) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.setOffline(true);
  await context.route(/^(https?|wss?):/, (route) => route.abort());
  const page = await context.newPage();
  const errors = collectErrors(page);
  /** @type {string[]} */
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const url = pathToFileURL(file).href;
  await page.goto(url);
  await ready(page, 30000);
  return { page, errors, requests, url, close: () => context.close() };
}

/**
 * Checks the page's readouts against an `election run --json` summary.
 * @param {import('playwright-core').Page} page
 * @param {any} expected
 * @param {string} what
 */
async function assertShows(page, expected, what) {
  const shown = await readouts(page);
  assert.equal(shown.messages, expected.messages.sent, `messages-total of ${what}`);
  assert.equal(shown.leader, expected.leader === null ? 'none' : String(expected.leader), `leader of ${what}`);
  assert.equal(shown.time, expected.end_ms, `sim-time of ${what}`);
  assert.equal(await page.textContent('[data-testid=trace-hash]'), expected.trace_hash, `trace hash of ${what}`);
}

test('the template: one file, a CSP that allows its one script by hash and no eval', () => {
  const html = readFileSync(TEMPLATE, 'utf8');
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
  assert.match(policy, /script-src 'sha256-[A-Za-z0-9+/]+=*' 'wasm-unsafe-eval';/);
  assert.doesNotMatch(policy, /'unsafe-eval'|'unsafe-inline'|\*|'self'|https?:/);
  assert.match(policy, /default-src 'none'/);
  // Everything inline: no src or href that loads anything.
  assert.doesNotMatch(html, /<script[^>]*\ssrc=|<link rel="stylesheet"/);
  // The script elements, their texts left out (the bundle has "<script" in strings).
  const elements = html.replace(/(<script[^>]*>)[^]*?<\/script>/g, '$1</script>');
  const executable = [...elements.matchAll(/<script(?![^>]*type="application\/(json|octet-stream)")[^>]*>/g)];
  assert.deepEqual(
    executable.map((m) => m[0]),
    ['<script type="module">'],
    'one script runs; the others are data blocks',
  );
  assert.match(html, /<script type="application\/json" id="standalone-scenario" data-at="" data-preset=""><\/script>\s*<\/body>/);
});

test('election html: the lesson opens from file:// with the network off and shows what election run reports', async () => {
  const lesson = join(DIR, 'lesson.html');
  const said = cli(['html', '--scenario', SCENARIO, '--at', 'end', '-o', lesson, '--template', TEMPLATE]);
  assert.match(said, /^wrote .*lesson\.html/);
  const { page, errors, requests, url, close } = await openOffline(lesson);
  const expected = cliRun(['--scenario', SCENARIO]);
  await assertShows(page, expected, 'the lesson at its end');
  // Nothing fetched but the file itself: the wasm and scenario are inline.
  assert.deepEqual(requests, [url]);
  assert.deepEqual(errors, []);
  // The cluster is drawn on the page (no worker from a file).
  assert.equal(await page.isVisible('[data-testid=node-0]'), true);
  // What needs a site is hidden with a note; the player and faults are there.
  assert.match(await page.textContent('[data-testid=standalone-note]') ?? '', /no network/);
  for (const id of ['experiments-open', 'tradeoffs-open', 'finder', 'share', 'copy-embed']) {
    assert.equal(await page.isVisible(`#${id}`), false, `${id} hidden`);
  }
  for (const id of ['play', 'download-standalone', 'export-scenario']) {
    assert.equal(await page.isVisible(`[data-testid=${id}]`), true, `${id} shown`);
  }
  // An export runs on the wasm's tools module: inline too, nothing fetched.
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-summary]')]);
  const summary = JSON.parse(readFileSync(await file.path() ?? '', 'utf8'));
  assert.equal(summary.trace_hash, expected.trace_hash, 'the exported summary');
  assert.deepEqual(requests, [url]);
  assert.deepEqual(errors, []);
  await close();
});

test('election html --at MS opens at that moment; --preset keeps its narration', async () => {
  const lesson = join(DIR, 'moment.html');
  cli(['html', '--scenario', SCENARIO, '--at', '600', '-o', lesson, '--template', TEMPLATE]);
  const at = await openOffline(lesson);
  await assertShows(at.page, cliRun(['--scenario', SCENARIO, '--at', '600']), 'the lesson at 600 ms');
  assert.deepEqual(at.errors, []);
  await at.close();

  const guided = join(DIR, 'guided.html');
  cli(['html', '--preset', 'raft-minority', '-o', guided, '--template', TEMPLATE]);
  const preset = await openOffline(guided);
  assert.equal(await preset.page.isVisible('#narration'), true, 'the narration is shown');
  const steps = await preset.page.$$('[data-testid=narration] li');
  assert.ok(steps.length > 0, 'the narration has its steps');
  assert.deepEqual(preset.requests, [preset.url]);
  assert.deepEqual(preset.errors, []);
  await preset.close();
});

/**
 * Clicks "Download as a standalone page" and saves the file in DIR.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{name: string, path: string}>}
 */
async function downloadStandalone(page) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-standalone]')]);
  const name = file.suggestedFilename();
  const path = join(mkdtempSync(join(DIR, 'download-')), name);
  await file.saveAs(path);
  return { name, path };
}

test('Download as a standalone page: the file opens offline at the same moment, and downloads itself again', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=5&at=end');
  // The built site has standalone.html beside the page; here the test's.
  await page.route(/\/standalone\.html$/, (route) => route.fulfill({ path: TEMPLATE, contentType: 'text/html' }));
  const first = await downloadStandalone(page);
  assert.equal(first.name, 'bully-5.html');
  assert.match(await page.textContent('[data-testid=standalone-status]') ?? '', /^Saved bully-5\.html/);
  assert.deepEqual(errors, []);
  await page.close();

  const expected = cliRun(['--algorithm', 'bully', '--nodes', '6', '--seed', '5']);
  const opened = await openOffline(first.path);
  await assertShows(opened.page, expected, 'the downloaded page');
  // From the standalone page itself: its own text is the template.
  const second = await downloadStandalone(opened.page);
  assert.equal(second.name, 'bully-5.html');
  assert.deepEqual(opened.requests, [opened.url]);
  assert.deepEqual(opened.errors, []);
  await opened.close();

  const again = await openOffline(second.path);
  await assertShows(again.page, expected, 'the page downloaded from the standalone page');
  assert.deepEqual(again.errors, []);
  await again.close();
});

test('Download as a standalone page without a template says how to build one', async () => {
  const { page } = await openPlayground(browser, '/?algorithm=bully&nodes=4&seed=2');
  await page.route(/\/standalone\.html$/, (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.click('[data-testid=download-standalone]');
  await page.waitForFunction(() => /not on this server/.test(document.querySelector('[data-testid=standalone-status]')?.textContent ?? ''));
  assert.match(await page.textContent('[data-testid=standalone-status]') ?? '', /node scripts\/build\/standalone\.mjs/);
  await page.close();
});
