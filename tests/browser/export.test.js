// Export and import: the scenario file the page saves (with a fault made
// by clicking) runs in the CLI to the page's trace hash; a good file
// imports (by the file input and by drag and drop) and a broken one is
// refused naming the field with the run kept; the topology PNG is a PNG of
// the canvas at twice its CSS size (or the screen pixel ratio); the space-time SVG parses and has one group per node
// and one path per message drawn; the trace, summary JSON and summary CSV
// are exactly what the CLI prints for the same scenario at the same time.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, pageAddress, readouts, testId, toEnd } from './page.js';
import { REPO_ROOT, cliRun, cliRunScenario } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * Clicks an export button and returns the downloaded file's name and bytes.
 * @param {import('playwright-core').Page} page
 * @param {string} id data-testid of the button
 * @returns {Promise<{name: string, bytes: Buffer}>}
 */
async function download(page, id) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${id}"]`)]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: readFileSync(path) };
}

/**
 * A file in a new temporary directory.
 * @param {string} name
 * @param {string | Buffer} content
 */
function tempFile(name, content) {
  const file = join(mkdtempSync(join(tmpdir(), 'election-export-')), name);
  writeFileSync(file, content);
  return file;
}

/** `election <args>` as text (the binary reference.js builds). */
function cli(args) {
  cliRun(['--nodes', '1']); // builds the CLI once if needed
  return execFileSync(join(REPO_ROOT, 'target', 'debug', 'election'), args, { cwd: REPO_ROOT, encoding: 'utf8' });
}

test('the exported scenario, with a crash made by clicking, runs in the CLI to the page trace hash', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&at=300');
  await page.click('[data-testid="node-5"]');
  const { name, bytes } = await download(page, 'export-scenario');
  assert.equal(name, 'election-bully-n6-seed3.scenario.json');
  const scenario = JSON.parse(bytes.toString('utf8'));
  // n5 leads: a click on the one leader is a crash of "leader".
  assert.deepEqual(scenario.faults, [{ at_ms: 300, crash: 'leader' }]);
  await toEnd(page);
  const cliSummary = cli(['run', '--scenario', tempFile(name, bytes), '--json']);
  const summary = JSON.parse(cliSummary);
  assert.equal(await testId(page, 'trace-hash'), summary.trace_hash);
  assert.equal(await testId(page, 'leader'), String(summary.leader));
  assert.equal(summary.leader, 4);
  assert.deepEqual(errors, []);
  await page.close();
});

test('importing a good file runs it; a broken one names the field and keeps the run', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&at=200');
  const before = { ...(await readouts(page)), hash: await testId(page, 'trace-hash') };

  const broken = { algorithm: 'raft', nodes: 5, network: { drop: 1.5 } };
  await page.setInputFiles('[data-testid="import-scenario"]', tempFile('broken.json', JSON.stringify(broken)));
  await page.waitForSelector('[data-testid="error"]:not([hidden])');
  const message = await testId(page, 'error');
  assert.match(message, /broken\.json/);
  assert.match(message, /network\.drop/);
  assert.match(message, /1\.5/);
  assert.deepEqual({ ...(await readouts(page)), hash: await testId(page, 'trace-hash') }, before);
  assert.equal(await page.inputValue('#algorithm'), 'bully');

  const good = { algorithm: 'raft', nodes: 5, seed: 7, faults: [{ at_ms: 800, crash: 'leader' }] };
  await page.setInputFiles('[data-testid="import-scenario"]', tempFile('good.json', JSON.stringify(good)));
  await page.waitForFunction(() => document.querySelector('#algorithm')?.value === 'raft');
  assert.equal(await page.isHidden('[data-testid="error"]'), true);
  assert.equal((await readouts(page)).time, 0);
  await toEnd(page);
  const expected = cliRunScenario(good);
  assert.equal(await testId(page, 'trace-hash'), expected.trace_hash);
  assert.equal(await testId(page, 'leader'), String(expected.leader));
  // The address holds the imported scenario.
  assert.match(await pageAddress(page), /#s=1\./);

  // Dropped on the page: the same as choosing it.
  const dropped = { algorithm: 'chang-roberts', nodes: 7, ring: 'descending' };
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
    document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, JSON.stringify(dropped));
  await page.waitForFunction(() => document.querySelector('#algorithm')?.value === 'chang-roberts');
  await toEnd(page);
  const ring = cliRunScenario(dropped);
  assert.equal(await testId(page, 'trace-hash'), ring.trace_hash);
  assert.equal(Number(await testId(page, 'messages-total')), ring.messages.sent);

  // Importing does not lose the run it replaced: Back brings it back, at
  // the moment it was left.
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#algorithm')?.value === 'raft');
  assert.equal(await testId(page, 'trace-hash'), expected.trace_hash);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#algorithm')?.value === 'bully');
  assert.deepEqual({ ...(await readouts(page)), hash: await testId(page, 'trace-hash') }, before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scenario with 1000 faults exports within the 64 KiB a scenario file may have', async () => {
  const faults = Array.from({ length: 1000 }, (_, i) => ({ at_ms: 1000 + i * 7, pause: i % 5, for_ms: 3 }));
  const many = { algorithm: 'bully', nodes: 5, seed: 9, faults };
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=5');
  await page.setInputFiles('[data-testid="import-scenario"]', tempFile('many.json', JSON.stringify(many)));
  await page.waitForFunction(() => document.querySelector('#algorithm')?.value === 'bully' && location.hash.startsWith('#s='));
  const { name, bytes } = await download(page, 'export-scenario');
  assert.ok(bytes.length <= 64 * 1024, `${bytes.length} bytes`);
  assert.deepEqual(JSON.parse(bytes.toString('utf8')).faults, faults);
  const summary = JSON.parse(cli(['run', '--scenario', tempFile(name, bytes), '--json']));
  await toEnd(page);
  assert.equal(await testId(page, 'trace-hash'), summary.trace_hash);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the topology PNG is a PNG of the canvas at the screen pixel ratio or 2x, whichever is larger', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=3&at=300');
  // The screen here has one device px per CSS px: the PNG has two.
  assert.equal(await page.evaluate(() => window.devicePixelRatio), 1);
  const size = await page.$eval('#cluster', (c) => [2 * c.clientWidth, 2 * c.clientHeight]);
  const { name, bytes } = await download(page, 'export-png');
  assert.equal(name, 'election-raft-n5-seed3-at300ms.topology.png');
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], size);
  assert.ok(size[0] > 100 && size[1] > 100, `canvas ${size}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the space-time SVG parses, with one line per node and an arrow per message drawn', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=6&seed=3&at=end');
  const { name, bytes } = await download(page, 'export-svg');
  assert.match(name, /^election-bully-n6-seed3-at[\d.]+ms\.spacetime\.svg$/);
  const drawn = await page.$eval('#spacetime', (c) => ({
    arrows: Number(/** @type {HTMLElement} */ (c).dataset.arrowsDrawn),
    roles: Number(/** @type {HTMLElement} */ (c).dataset.roles),
  }));
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      root: root.localName,
      error: doc.getElementsByTagName('parsererror').length,
      nodes: [...root.querySelectorAll('g.node')].map((g) => ({
        id: g.getAttribute('data-node'),
        lines: g.querySelectorAll('line.segment').length,
        label: g.querySelector('text')?.textContent,
      })),
      messages: root.querySelectorAll('path.message').length,
      kinds: [...new Set([...root.querySelectorAll('path.message')].map((p) => p.getAttribute('data-kind')))].sort(),
      roles: root.querySelectorAll('circle.role:not([opacity="0.28"])').length,
    };
  }, bytes.toString('utf8'));
  assert.equal(parsed.root, 'svg');
  assert.equal(parsed.error, 0);
  assert.deepEqual(
    parsed.nodes.map((n) => n.id),
    ['0', '1', '2', '3', '4', '5'],
  );
  for (const n of parsed.nodes) {
    assert.ok(n.lines >= 1, `node ${n.id} has a line`);
    assert.equal(n.label, `n${n.id}`);
  }
  assert.ok(drawn.arrows > 10, `arrows drawn: ${drawn.arrows}`);
  assert.equal(parsed.messages, drawn.arrows);
  // The election settles before the first heartbeat round.
  assert.deepEqual(parsed.kinds, ['COORDINATOR', 'ELECTION', 'OK']);
  assert.equal(parsed.roles, drawn.roles);
  assert.deepEqual(errors, []);
  await page.close();
});

test('trace, summary JSON and CSV are what the CLI prints for the same scenario and time', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=4&at=450');
  await page.click('[data-testid="node-1"]');
  const { time } = await readouts(page);
  assert.equal(time, 450);
  const scenarioFile = await download(page, 'export-scenario');
  const file = tempFile('scenario.json', scenarioFile.bytes);

  const trace = await download(page, 'export-trace');
  assert.equal(trace.name, 'election-raft-n5-seed4-at450ms.trace.json');
  const traceJson = JSON.parse(trace.bytes.toString('utf8'));
  assert.equal(traceJson.trace_hash, await testId(page, 'trace-hash'));
  assert.ok(traceJson.trace.length > 20, `${traceJson.trace.length} events`);
  const cliTrace = cli(['run', '--scenario', file, '--until-ms', '450', '--json', '--trace']);
  assert.deepEqual(traceJson, JSON.parse(cliTrace));

  const summary = await download(page, 'export-summary');
  const cliSummary = cli(['run', '--scenario', file, '--until-ms', '450', '--json']);
  assert.deepEqual(JSON.parse(summary.bytes.toString('utf8')), JSON.parse(cliSummary));
  assert.equal(JSON.parse(cliSummary).messages.sent, Number(await testId(page, 'messages-total')));

  const csv = await download(page, 'export-csv');
  assert.equal(csv.name, 'election-raft-n5-seed4-at450ms.summary.csv');
  const cliCsv = cli(['sweep', '--scenario', file, '--until-ms', '450', '--seeds', '4', '--csv']);
  assert.equal(csv.bytes.toString('utf8'), cliCsv);
  assert.match(await testId(page, 'files-status'), /election sweep --scenario SCENARIO\.json --until-ms 450 --seeds 4 --csv/);
  assert.deepEqual(errors, []);
  await page.close();
});
