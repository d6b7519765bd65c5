// Scenario links on the page (issue 6): every stored link of every shipped
// format (tests/links/) opens to its scenario and the same run as the CLI;
// oversize, zip-bomb, damaged, tampered and invalid links each show one
// clear message naming the problem in [data-testid=error] and the page
// falls back to the default scenario, working, with no console error.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { launchBrowser } from './helpers.js';
import { openPlayground, readouts } from './page.js';
import { REPO_ROOT, cliRunScenario } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

const LINKS = join(REPO_ROOT, 'tests', 'links');
const stored = readdirSync(LINKS)
  .filter((f) => f.endsWith('.link'))
  .sort()
  .map((f) => ({
    name: f.replace(/\.link$/, ''),
    address: readFileSync(join(LINKS, f), 'utf8').trim(),
    scenario: JSON.parse(readFileSync(join(LINKS, f.replace(/\.link$/, '.json')), 'utf8')),
  }));

test('there is a stored link for each shipped format', () => {
  const names = stored.map((s) => s.name);
  for (const prefix of ['v1-fragment-', 'v1-query-']) {
    assert.ok(names.some((n) => n.startsWith(prefix)), `${prefix}* in ${names}`);
  }
});

for (const { name, address, scenario } of stored) {
  test(`stored link ${name} opens to its scenario and the CLI's run`, async () => {
    const expected = cliRunScenario(scenario);
    const { page, errors } = await openPlayground(browser, address);
    assert.equal(await page.isVisible('[data-testid="error"]'), false, await page.textContent('[data-testid="error"]'));
    assert.equal(await page.inputValue('#algorithm'), scenario.algorithm);
    assert.equal(await page.inputValue('#nodes'), String(scenario.nodes));
    assert.equal(await page.inputValue('#seed'), String(scenario.seed));
    await page.click('#to-end');
    await page.waitForFunction(
      (hash) => document.querySelector('[data-testid="trace-hash"]')?.textContent === hash,
      expected.trace_hash,
    );
    const shown = await readouts(page);
    assert.equal(shown.messages, expected.messages.sent);
    assert.equal(shown.time, expected.end_ms);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

/**
 * A version-1 fragment value carrying `text` (raw DEFLATE + base64url, made
 * here with Node's zlib, independently of the core).
 * @param {string | Buffer} text
 * @returns {string}
 */
function packed(text) {
  return `1.${deflateRawSync(Buffer.from(text)).toString('base64url')}`;
}

const broken = [
  ['too long before decompression', `1.${'A'.repeat(40000)}`, 'the link is 40002 characters long; the limit is 32768'],
  ['a zip bomb (1 MB of spaces)', packed(' '.repeat(1 << 20)), 'does not inflate to at most 65536 bytes'],
  ['bad base64', '1.!!!!~~~~', 'is damaged: the data is not valid base64url'],
  ['a bad version', `7.${packed('{}').slice(2)}`, 'uses link format 7; this build reads format 1'],
  ['no version', 'eJyrVspMUbIy0lEqSsxLSS1SslIqTi0qzszPU6oFAFnpB-8', 'is not a scenario link'],
  ['not JSON', packed('{"nodes": 5,'), 'not valid JSON'],
  ['valid JSON failing validation', packed('{"algorithm": "bully", "nodes": 0}'), '`nodes`: must be a whole number from 1 to 1024, got 0'],
  ['a fault naming a missing node', packed('{"nodes": 4, "faults": [{"at_ms": 5, "crash": 11}]}'), '`faults[0].crash`: names node 11'],
  ['a truncated link', packed(JSON.stringify({ algorithm: 'raft', nodes: 5 })).slice(0, 12), 'is damaged'],
];

for (const [what, value, message] of broken) {
  test(`a link with ${what} shows one clear message and the default scenario`, async () => {
    const { page, errors } = await openPlayground(browser, `/#s=${value}`);
    const box = page.locator('[data-testid="error"]');
    assert.equal(await box.isVisible(), true);
    const text = (await box.textContent()) ?? '';
    assert.ok(text.includes(message), `error says "${message}": ${text}`);
    assert.equal(await box.locator('p').count(), 1, `one message: ${text}`);
    assert.ok(text.includes('Showing the default scenario instead'), text);
    // The default scenario, drawn and working: it steps.
    assert.equal(await page.inputValue('#algorithm'), 'bully');
    assert.equal(await page.inputValue('#nodes'), '8');
    assert.equal(await page.locator('.node-button').count(), 8);
    await page.click('#to-end');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="messages-total"]')?.textContent) > 0);
    assert.deepEqual(errors, [], 'no uncaught exception, no console error');
    await page.close();
  });
}
