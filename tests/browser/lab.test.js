// The lab (www/lab/): write an election algorithm as a script, run it in
// the page's views and check it against the CLI, which runs the same
// core. The Chang-Roberts template gives `election run --script`'s exact
// counts; a syntax error is shown at its line and the page keeps working;
// an endless loop ends with the named error; a shared link and a
// teacher's exercise link reopen the script; the first render loads none
// of the lab's code; "Find a failure" shrinks a broken script's failure
// to a counterexample whose link reopens the script.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { baseUrl, collectErrors, launchBrowser } from './helpers.js';
import { openPlayground, pageAddress, readouts, ready, settle, testId, waitFrames } from './page.js';
import { readFileSync } from 'node:fs';
import { REPO_ROOT, cliCheck, cliRun } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/** The Chang-Roberts template as the CLI reads it. */
const CHANG_ROBERTS = join(REPO_ROOT, 'core', 'algorithms', 'src', 'script', 'templates', 'chang-roberts.rhai');

/** A script whose every node leads when its timer fires: broken on purpose. */
const BROKEN = `// Broken on purpose: every node declares itself leader on a timeout.
fn on_start(ctx) {
    ctx.become_follower();
    ctx.set_timer("election", ctx.random(100, 300));
}

fn on_timer(ctx, name) {
    ctx.become_leader();
}
`;

/**
 * Writes `text` into a temporary file and returns its path.
 * @param {string} text
 * @returns {string}
 */
function scriptFile(text) {
  const file = join(mkdtempSync(join(tmpdir(), 'election-lab-')), 'script.rhai');
  writeFileSync(file, text);
  return file;
}

/**
 * Opens the lab on an open page and waits for its editor.
 * @param {import('playwright-core').Page} page
 */
async function openLab(page) {
  await page.click('[data-testid=lab-open]');
  await page.waitForSelector('[data-testid=lab-code]');
}

/**
 * The editor's whole text (it draws only the lines in view; while a test
 * holds the clock its box offers `__script()`, www/lab/editor.js).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string>}
 */
async function editorText(page) {
  return page.$eval('[data-testid=lab-editor]', (box) => /** @type {any} */ (box).__script());
}

/**
 * Replaces the editor's text as a user would: Ctrl+A (the editor's own
 * select-all, the whole text even where it draws only some lines), then
 * the new text typed in one go.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 */
async function setScript(page, text) {
  await page.click('[data-testid=lab-code]');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  assert.equal(await editorText(page), text);
}

/**
 * The lines (from 1) the editor underlines as errors.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<number[]>}
 */
async function errorLines(page) {
  return page.$eval('[data-testid=lab-code]', (content) => {
    const lines = [...content.querySelectorAll('.cm-line')];
    return lines.flatMap((line, i) => (line.querySelector('.cm-lintRange-error') ? [i + 1] : []));
  });
}

/**
 * Presses Run and waits until the single view runs the script.
 * @param {import('playwright-core').Page} page
 */
async function run(page) {
  await page.click('[data-testid=lab-run]');
  await page.waitForFunction(() => /** @type {HTMLSelectElement} */ (document.getElementById('algorithm')).value === 'script');
}

/**
 * The lab's error once it is shown. Run checks the script and builds its
 * playground asynchronously (the wasm module that runs scripts may still
 * be loading), so the message appears after the click returns: wait for
 * it rather than read the box at once.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string>}
 */
async function labError(page) {
  await page.waitForFunction(() => {
    const box = document.querySelector('[data-testid=lab-error]');
    return box instanceof HTMLElement && !box.hidden && (box.textContent ?? '').trim() !== '';
  });
  return testId(page, 'lab-error');
}

/**
 * To end, drawn.
 * @param {import('playwright-core').Page} page
 */
async function toEnd(page) {
  await page.click('#to-end');
  await settle(page);
}

test('the Chang-Roberts template on an ascending ring gives the counts of election run --script', async () => {
  const n = 7;
  const { page, errors } = await openPlayground(browser, `/?algorithm=chang-roberts&nodes=${n}&ring=ascending&seed=3`);
  await openLab(page);
  await page.selectOption('[data-testid=lab-template]', 'chang-roberts');
  assert.match(await testId(page, 'lab-description'), /2n-1 ELECTION on an ascending ring/);
  await run(page);
  await toEnd(page);
  const expected = cliRun(['--script', CHANG_ROBERTS, '--nodes', String(n), '--ring', 'ascending', '--seed', '3']);
  // 2n-1 ELECTION and n ELECTED, as the built-in (and the leader's heartbeats).
  assert.equal(expected.messages.by_kind.ELECTION, 2 * n - 1);
  assert.equal(expected.messages.by_kind.ELECTED, n);
  const shown = await readouts(page);
  assert.equal(shown.messages, expected.messages.sent);
  assert.equal(shown.leader, String(expected.leader));
  assert.equal(shown.leader, String(n - 1));
  assert.equal(await testId(page, 'trace-hash'), expected.trace_hash);
  assert.equal(await testId(page, 'sent-ELECTION'), String(2 * n - 1));
  // The views draw the script's kinds as any algorithm's.
  const kinds = await page.$$eval('[data-testid=cluster-kinds] li', (items) => items.map((li) => li.textContent ?? ''));
  assert.ok(kinds.some((k) => k.includes('ELECTION')) && kinds.some((k) => k.includes('ELECTED')), kinds.join(' | '));
  // The address carries the script.
  assert.match(new URL(await pageAddress(page)).hash, /^#s=1\./);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a syntax error is shown at its line, nothing else changes, and a reload keeps the text', async () => {
  const { page, errors } = await openPlayground(browser, '/?lab=1&algorithm=bully&nodes=4');
  await page.waitForSelector('[data-testid=lab-code]');
  const broken = 'fn on_start(ctx) {\n    ctx.become_follower();\n    let x = ;\n}\n';
  await setScript(page, broken);
  await page.click('[data-testid=lab-run]');
  assert.match(await labError(page), /^Not run: line 3, column \d+: /);
  await page.waitForSelector('[data-testid=lab-code] .cm-lintRange-error');
  assert.deepEqual(await errorLines(page), [3]);
  // The page still runs what it ran before, and plays.
  assert.equal(await page.$eval('#algorithm', (s) => /** @type {HTMLSelectElement} */ (s).value), 'bully');
  await toEnd(page);
  assert.equal((await readouts(page)).leader, '3');
  // A reload opens the lab again with the same text.
  await page.reload();
  await ready(page);
  await page.waitForSelector('[data-testid=lab-code]');
  assert.equal(await editorText(page), broken);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an endless loop stops the run with an error naming the node, the handler and the time', async () => {
  const { page, errors } = await openPlayground(browser, '/?lab=1&nodes=3');
  await page.waitForSelector('[data-testid=lab-code]');
  const loop = 'fn on_start(ctx) {\n    ctx.set_timer("tick", 5);\n}\n\nfn on_timer(ctx, name) {\n    loop { }\n}\n';
  await setScript(page, loop);
  await run(page);
  await toEnd(page);
  const message = await labError(page);
  // The loop's own line (issue 29, item 15), not the handler's.
  assert.match(message, /^This script stops at 5 ms: n0's on_timer, line 6: ran past the operation budget/);
  assert.equal(Number(await testId(page, 'sim-time')), 5);
  await page.waitForSelector('[data-testid=lab-code] .cm-lintRange-error');
  assert.deepEqual(await errorLines(page), [6]);
  // The page keeps working: Restart, then a built-in algorithm again.
  await page.click('#restart');
  await page.selectOption('#algorithm', 'chang-roberts');
  // Its run is made in the ring family's module, loaded first: the
  // address says so once it is the page's run.
  await page.waitForFunction(() => new URL(location.href).searchParams.get('algorithm') === 'chang-roberts');
  await toEnd(page);
  assert.equal((await readouts(page)).leader, '2');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a shared link reopens the script in the lab, and a teacher\'s link opens an exercise', async () => {
  const { page, errors } = await openPlayground(browser, '/?lab=1&nodes=5&ring=descending&seed=9');
  await page.waitForSelector('[data-testid=lab-code]');
  await page.selectOption('[data-testid=lab-template]', 'chang-roberts');
  const script = (await editorText(page)).replace('// Chang-Roberts ring election', '// My Chang-Roberts');
  await setScript(page, script);
  await run(page);
  await toEnd(page);
  const first = await readouts(page);
  const hash = await testId(page, 'trace-hash');
  // 5(5+1)/2 ELECTION on a descending ring, plus 5 ELECTED.
  assert.equal(await testId(page, 'sent-ELECTION'), '15');
  assert.equal(await testId(page, 'sent-ELECTED'), '5');
  const link = await pageAddress(page);
  await page.close();

  // Another browser context (no drafts): the link alone brings the script.
  const other = await openPlayground(browser, link);
  await other.page.waitForSelector('[data-testid=lab-code]');
  assert.equal(await editorText(other.page), script);
  assert.equal(await other.page.$eval('[data-testid=lab-template]', (s) => /** @type {HTMLSelectElement} */ (s).value), 'link');
  await toEnd(other.page);
  assert.deepEqual(await readouts(other.page), first);
  assert.equal(await testId(other.page, 'trace-hash'), hash);
  await other.page.close();

  // A teacher hands out the ring exercise.
  const exercise = await openPlayground(browser, '/?template=ring-exercise&nodes=8');
  await exercise.page.waitForSelector('[data-testid=lab-code]');
  assert.equal(await exercise.page.$eval('[data-testid=lab-template]', (s) => /** @type {HTMLSelectElement} */ (s).value), 'ring-exercise');
  assert.match(await editorText(exercise.page), /TODO/);
  assert.match(await testId(exercise.page, 'lab-description'), /A correct solution/);
  // A script too long for a link is refused, naming `script`.
  // Under the size limit of a script (32 KiB), but comments of
  // pseudo-random characters, which deflate cannot shrink much, make its
  // link longer than a link may be.
  const random = Array.from({ length: 1000 }, (_, i) => [...createHash('sha256').update(String(i)).digest()]).flat();
  const letter = (/** @type {number} */ i) => String.fromCharCode(40 + (random[i % random.length] % 52) + (random[(i * 7) % random.length] % 2) * 35);
  const noise = Array.from({ length: 400 }, (_, line) => `// ${Array.from({ length: 76 }, (_, c) => letter(line * 76 + c)).join('')}`).join('\n');
  await setScript(exercise.page, `${noise}\nfn on_start(ctx) { }\n`);
  await exercise.page.click('[data-testid=lab-run]');
  assert.match(await labError(exercise.page), /^Not run: scenario field `script`: makes the scenario's share link \d+ characters long; the limit is \d+: shorten the script$/);
  assert.deepEqual([...errors, ...other.errors, ...exercise.errors], []);
  await exercise.page.close();
});

test('the first render loads none of the lab\'s code; opening the lab does', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  /** @type {{url: string, body: string}[]} */
  const loaded = [];
  page.on('response', async (res) => {
    const url = res.url();
    if (!/\.(m?js|css)(\?|$)/.test(url)) return;
    loaded.push({ url, body: await res.text().catch(() => '') });
  });
  await page.goto(`${baseUrl()}/?algorithm=bully`);
  await ready(page);
  await waitFrames(page, 3);
  const first = [...loaded];
  assert.ok(first.length > 0);
  for (const { url, body } of first) {
    assert.doesNotMatch(url, /codemirror|\/lab\/(panel|editor|rhai-mode|drafts)\.js|election_(web|lab|compare|sweeps)\.js/, url);
    // CodeMirror's own class names appear in no file the first render loads.
    assert.ok(!body.includes('cm-lintRange'), `${url} holds CodeMirror`);
  }
  await openLab(page);
  const added = loaded.slice(first.length);
  assert.ok(added.some(({ body }) => body.includes('cm-lintRange')), `opening the lab loads the editor: ${added.map((a) => a.url).join(', ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('until the lab\'s module is in, the status line says it loads, and a Run pressed meanwhile runs once it is', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  // The lab's wasm is held back until the test has read the status line
  // (no timing: the response waits for the test).
  /** @type {() => void} */
  let release = () => {};
  const held = new Promise((resolve) => {
    release = () => resolve(undefined);
  });
  await page.route(/election_(lab|web)_bg[^/]*\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${baseUrl()}/?algorithm=bully`);
  await ready(page);
  await openLab(page);
  assert.equal(await testId(page, 'lab-status'), 'Loading the script interpreter…');
  await page.click('[data-testid=lab-run]');
  await page.waitForFunction(() => /^Loading the script interpreter: your script runs as soon as it is in/.test(document.querySelector('[data-testid=lab-status]')?.textContent ?? ''));
  release();
  await page.waitForFunction(() => /^Running in the views below: /.test(document.querySelector('[data-testid=lab-status]')?.textContent ?? ''));
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Find a failure" shrinks a broken script\'s failure to a counterexample whose link reopens the script', async () => {
  const expected = cliCheck(['--script', scriptFile(BROKEN), '--seeds', '1..20']).counterexample;
  assert.equal(expected.property, 'one_leader_per_component');
  const { page, errors } = await openPlayground(browser, '/?lab=1&nodes=4');
  /** @type {string[]} */
  const modules = [];
  page.on('request', (r) => {
    if (/\.wasm(\?|$)/.test(r.url())) modules.push(r.url());
  });
  await page.waitForSelector('[data-testid=lab-code]');
  await setScript(page, BROKEN);
  await page.click('[data-testid=lab-find-failure]');
  await page.waitForSelector('[data-testid=finder][data-loaded=true]');
  assert.equal(await page.$eval('[data-testid=finder-algorithm]', (s) => /** @type {HTMLSelectElement} */ (s).value), 'script');
  await page.fill('[data-testid=finder-seeds]', '1..20');
  await page.click('[data-testid=finder-run]');
  await page.waitForSelector('[data-testid=finder][data-state=done]', { timeout: 60000 });
  const found = await page.$eval('[data-testid=finder]', (d) => /** @type {HTMLElement} */ (d).dataset);
  assert.equal(found.property, expected.property);
  assert.deepEqual(JSON.parse(found.scenario ?? ''), expected.scenario);
  assert.equal(found.link, expected.link);
  assert.equal(JSON.parse(found.scenario ?? '').script, BROKEN);
  // The search ran in the lab's own module: no other (the tools module,
  // 900 KB, was loaded for it before).
  assert.deepEqual(modules.filter((u) => !/election_lab_bg/.test(u)), [], `wasm loaded for the search: ${modules}`);
  // The page shows the counterexample at the violation, still the script.
  await page.waitForFunction((link) => `${location.search}${location.hash}` === link, expected.link);
  await page.waitForFunction(() => document.querySelector('[data-testid=violations]')?.textContent?.trim() === '1');
  assert.equal(await editorText(page), BROKEN);
  await page.close();

  // Its link, opened afresh, reopens the script in the lab at the violation.
  const again = await openPlayground(browser, `/${expected.link}`);
  await again.page.waitForSelector('[data-testid=lab-code]');
  assert.equal(await editorText(again.page), BROKEN);
  assert.equal(Number(await testId(again.page, 'sim-time')), expected.at_ms);
  assert.equal(await testId(again.page, 'violations'), '1');
  assert.deepEqual([...errors, ...again.errors], []);
  await again.page.close();
});

/** The Raft exercise solved with a double vote (tests/scripts/). */
const DOUBLE_VOTE = join(REPO_ROOT, 'tests', 'scripts', 'raft-double-vote.rhai');

/** A script that calls a function it misspelt, on n0's first timer. */
const MISSPELT = `fn on_start(ctx) {
    ctx.set_timer("tick", 150);
}

fn on_timer(ctx, name) {
    ctx.brodcast(#{ kind: "PING" });
}
`;

/** The same, spelt right. */
const SPELT = MISSPELT.replace('brodcast', 'broadcast');

test('a runtime error is said at Run, and a good run clears it, through To end and Restart (issue 29, items 11 to 13)', async () => {
  const { page, errors } = await openPlayground(browser, '/?lab=1&nodes=3&seed=4');
  await page.waitForSelector('[data-testid=lab-code]');
  await setScript(page, MISSPELT);
  await run(page);
  // Said at Run, before playback reaches it: the run is deterministic.
  assert.equal(Number(await testId(page, 'sim-time')), 0);
  assert.match(await labError(page), /^This script stops at 150 ms: n0's on_timer, line 6, column 9: Function not found: brodcast/);
  await page.waitForSelector('[data-testid=lab-code] .cm-lintRange-error');
  assert.deepEqual(await errorLines(page), [6]);
  // The status line says this run, and that it stops.
  assert.match(await testId(page, 'lab-status'), /^Running in the views below: 3 nodes, [^.]*seed 4, no faults\. It stops at 150 ms on the error above\.$/);
  await toEnd(page);
  assert.equal(Number(await testId(page, 'sim-time')), 150);
  assert.match(await testId(page, 'lab-error'), /^This script stops at 150 ms/);

  // A correct script: the old error goes, and stays gone.
  await setScript(page, SPELT);
  await run(page);
  await page.waitForFunction(() => /** @type {HTMLElement} */ (document.querySelector('[data-testid=lab-error]')).hidden);
  await toEnd(page);
  assert.equal(await page.$eval('[data-testid=lab-error]', (b) => /** @type {HTMLElement} */ (b).hidden), true);
  await page.click('#restart');
  await settle(page);
  assert.equal(await page.$eval('[data-testid=lab-error]', (b) => /** @type {HTMLElement} */ (b).hidden), true);
  assert.match(await testId(page, 'lab-status'), /^Running in the views below: 3 nodes, [^.]*seed 4, no faults\. Press Play, Step or To end\.$/);
  // No error underlined either.
  assert.deepEqual(await errorLines(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Find a failure on a double vote gives election check\'s counterexample of at most 3 nodes and 1 fault, and the status line follows it (items 12, 19)', async () => {
  const source = readFileSync(DOUBLE_VOTE, 'utf8');
  const expected = cliCheck(['--script', DOUBLE_VOTE, '--seeds', '3001..3100']).counterexample;
  assert.ok(expected.scenario.nodes <= 3 && expected.scenario.faults.length <= 1, JSON.stringify(expected.scenario));
  const { page, errors } = await openPlayground(browser, '/?lab=1&nodes=8');
  await page.waitForSelector('[data-testid=lab-code]');
  await setScript(page, source);
  await page.click('[data-testid=lab-find-failure]');
  await page.waitForSelector('[data-testid=finder][data-loaded=true]');
  assert.match(await testId(page, 'lab-status'), /^Running in the views below: 8 nodes, /);
  await page.fill('[data-testid=finder-seeds]', '3001..3100');
  await page.click('[data-testid=finder-run]');
  await page.waitForSelector('[data-testid=finder][data-state=done]', { timeout: 120000 });
  const found = await page.$eval('[data-testid=finder]', (d) => /** @type {HTMLElement} */ (d).dataset);
  assert.equal(found.property, expected.property);
  assert.deepEqual(JSON.parse(found.scenario ?? ''), expected.scenario);
  assert.equal(found.link, expected.link);
  assert.match(await testId(page, 'finder-status'), new RegExp(`\\(the scenario's seed ${expected.scenario.seed}; shrunk in \\d+ runs; tried 1\\.\\.2 nodes, 40 seeds`));
  // The lab's status line now describes the counterexample the page opened.
  const nodes = expected.scenario.nodes;
  await page.waitForFunction((n) => (document.querySelector('[data-testid=lab-status]')?.textContent ?? '').startsWith(`Running in the views below: ${n} nodes, `), nodes);
  assert.match(await testId(page, 'lab-status'), new RegExp(`, seed ${expected.scenario.seed}, no faults\\. Press Play, Step or To end\\.$`));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Raft exercise says the times it runs with, and the Now panel says no fault without a unit (item 16)', async () => {
  const { page, errors } = await openPlayground(browser, '/?template=raft-exercise');
  await page.waitForSelector('[data-testid=lab-code]');
  assert.equal(await testId(page, 'lab-meant'), 'Meant to run with: 5 nodes, nobody starting (a timeout starts it), crash the leader at 800 ms.');
  assert.match(await editorText(page), /"crash": "leader" at 800 ms/);
  assert.doesNotMatch(await editorText(page), /500 ms/);
  await run(page);
  await settle(page);
  const last = await page.$eval('[data-testid=metric-last-fault-ms]', (el) => /** @type {HTMLElement} */ (el.parentElement).textContent?.trim());
  assert.equal(last, 'no fault (from the start)');
  assert.deepEqual(errors, []);
  await page.close();
});
