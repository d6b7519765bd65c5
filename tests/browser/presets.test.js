// Guided scenarios: `preset=<name>` opens each preset with its narration,
// equal to the CLI on the preset's file; the steps jump to their moments.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, readouts, ready } from './page.js';
import { REPO_ROOT, cliRun, cliRunScenario, encodeShare } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
/** @type {{name: string, title: string, file: string, related: string | null, steps: {at_ms: number, text: string}[]}[]} */
let presets;
before(async () => {
  browser = await launchBrowser({ handClock: true });
  cliRun(['--preset', 'bully-partition']); // builds the CLI
  const out = execFileSync(join(REPO_ROOT, 'target', 'debug', 'election'), ['presets', '--json'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  presets = JSON.parse(out);
});
after(async () => {
  await browser?.close();
});

/**
 * The narration as shown.
 * @param {import('playwright-core').Page} page
 */
async function narration(page) {
  return {
    visible: await page.isVisible('#narration'),
    title: ((await page.textContent('#narration-title')) ?? '').trim(),
    steps: await page.$$eval('[data-testid=narration] li', (items) =>
      items.map((li) => ({
        time: (li.querySelector('.step-time')?.textContent ?? '').trim(),
        text: (li.querySelector('.step-text')?.textContent ?? '').trim(),
        current: li.getAttribute('aria-current') === 'step',
      })),
    ),
  };
}

test('there are at least eight presets, each a file the CLI runs', () => {
  assert.ok(presets.length >= 8, `${presets.length} presets`);
  for (const p of presets) assert.equal(p.file, `scenarios/presets/${p.name}.json`);
});

test('each preset loads from preset=<name> with its narration, as the CLI runs its file', async () => {
  for (const preset of presets) {
    const expected = cliRun(['--scenario', join(REPO_ROOT, preset.file)]);
    const { page, errors } = await openPlayground(browser, `/?preset=${preset.name}&at=end`);
    const shown = await narration(page);
    assert.equal(shown.visible, true, preset.name);
    assert.equal(shown.title, preset.title);
    assert.deepEqual(
      shown.steps.map((s) => s.text),
      preset.steps.map((s) => s.text),
      `${preset.name}: every step of the walkthrough`,
    );
    assert.equal(await page.isVisible('[data-testid=error]'), false, preset.name);
    const end = await readouts(page);
    assert.equal(end.messages, expected.messages.sent, `${preset.name}: messages at the end`);
    assert.equal(end.time, expected.end_ms, `${preset.name}: end time`);
    assert.equal(await page.textContent('[data-testid=trace-hash]'), expected.trace_hash, preset.name);
    // At the end, the last step is the current one.
    assert.equal(shown.steps.findIndex((s) => s.current), preset.steps.length - 1, preset.name);

    // A step's button jumps to its moment, paused.
    const middle = Math.floor(preset.steps.length / 2);
    await page.click(`[data-testid=narration] li[data-step="${middle}"] .step-time`);
    const there = await readouts(page);
    assert.equal(there.time, preset.steps[middle].at_ms, `${preset.name}: jump to step ${middle}`);
    assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
    const atStep = cliRun(['--scenario', join(REPO_ROOT, preset.file), '--until-ms', String(preset.steps[middle].at_ms)]);
    assert.equal(there.messages, atStep.messages.sent, `${preset.name}: messages at step ${middle}`);
    const now = await narration(page);
    assert.equal(now.steps.findIndex((s) => s.current), middle, `${preset.name}: the step shown is marked`);
    assert.deepEqual(errors, [], preset.name);
    await page.close();
  }
});

test('what a walkthrough says happens, happens at its step', async () => {
  // Bully under a partition: two leaders at the step that says so.
  const { page, errors } = await openPlayground(browser, '/?preset=bully-partition&at=793.832');
  assert.equal(await page.textContent('[data-testid=leaders]'), '2, 5');
  assert.match(await page.textContent('[data-testid=alerts]') ?? '', /split_brain/);
  const shown = await narration(page);
  assert.equal(shown.steps.findIndex((s) => s.current), 3);
  assert.match(shown.steps[3].text, /split brain/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('scenario parameters apply over a preset; a #s= link wins and keeps the narration', async () => {
  const { page, errors } = await openPlayground(
    browser,
    '/?preset=raft-split-votes&election_timeout_ms=150-300&at=end',
  );
  const file = join(REPO_ROOT, 'scenarios/presets/raft-split-votes.json');
  const narrow = cliRun(['--scenario', file]);
  const shown = await readouts(page);
  assert.ok(shown.time < 2000, `with 150-300 ms the crash costs one term, not ${narrow.end_ms} ms`);
  assert.equal((await narration(page)).visible, true);
  assert.deepEqual(errors, []);

  // Changing a setting leaves the walkthrough: its narration goes away.
  await page.selectOption('#algorithm', 'zab');
  await page.waitForFunction(() => document.querySelector('#narration')?.hasAttribute('hidden'));
  await page.close();

  // A shared, changed preset: the link's scenario, the preset's narration.
  const changed = { version: 1, algorithm: 'bully', nodes: 6, seed: 9, faults: [{ at_ms: 500, partition: [[0, 1]] }] };
  const shared = await openPlayground(browser, `/?preset=bully-partition&at=end#s=${encodeShare(changed)}`);
  const expected = cliRunScenario(changed);
  assert.equal((await readouts(shared.page)).messages, expected.messages.sent);
  assert.equal((await narration(shared.page)).visible, true);
  assert.deepEqual(shared.errors, []);
  await shared.page.close();
});

test('a bad preset= shows an error naming the parameter', async () => {
  const { page, errors } = await openPlayground(browser, '/?preset=bully-partiton');
  const message = (await page.textContent('[data-testid=error]')) ?? '';
  assert.match(message, /URL parameter `preset`/);
  assert.match(message, /bully-partition/, 'the message lists the presets');
  assert.equal(await page.isVisible('#narration'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the picker opens a preset; a related preset is a link away', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&at=0');
  assert.equal(await page.isVisible('#narration'), false);
  await page.selectOption('#preset-pick', 'chang-roberts-best');
  await Promise.all([page.waitForURL(/preset=chang-roberts-best/, { waitUntil: 'commit' }), page.click('#preset-open')]);
  await ready(page);
  const best = presets.find((p) => p.name === 'chang-roberts-best');
  assert.equal((await narration(page)).title, best?.title);
  await Promise.all([page.waitForURL(/preset=chang-roberts-worst/, { waitUntil: 'commit' }), page.click('#narration-related a')]);
  await ready(page);
  const worst = presets.find((p) => p.name === 'chang-roberts-worst');
  assert.equal((await narration(page)).title, worst?.title);
  assert.equal(await page.inputValue('#ring'), 'descending');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a preset opens in compare mode too', async () => {
  const { page, errors } = await openPlayground(browser, '/?preset=raft-minority&compare=raft,zab,bully&at=end');
  const algorithms = await page.$$eval('[data-testid=compare-table] tbody tr', (trs) =>
    trs.map((tr) => /** @type {HTMLElement} */ (tr).dataset.algorithm),
  );
  assert.deepEqual(algorithms, ['raft', 'zab', 'bully']);
  const t = Number(await page.textContent('[data-testid=compare-time]'));
  const file = join(REPO_ROOT, 'scenarios/presets/raft-minority.json');
  for (const a of algorithms) {
    const expected = cliRun(['--scenario', file, '--algorithm', String(a), '--until-ms', String(t)]);
    const cell = await page.textContent(`[data-testid=compare-table] tr[data-algorithm="${a}"] [data-testid=messages-total]`);
    assert.equal(Number(cell), expected.messages.sent, String(a));
  }
  assert.deepEqual(errors, []);
  await page.close();
});
