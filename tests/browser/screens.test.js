// Screenshot checks of the main layouts, with a tolerance: the single view
// at 1280x800, compare mode, and a 360 px phone screen, each at a fixed
// scenario and moment, compared with the PNGs in tests/browser/screens/.
// A screenshot passes when fewer than 1% of its pixels differ from the
// stored one by more than 48 (of 255) in some channel, so anti-aliasing and
// font hinting do not fail it but a moved panel or a changed colour does.
//
// UPDATE_SCREENS=1 rewrites the stored images (look at them before
// committing); without it a missing image fails the check (it is written
// to target/shots/ to look at).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { baseUrl, collectErrors, launchBrowser } from './helpers.js';
import { ready, settle } from './page.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'screens');
const UPDATE = process.env.UPDATE_SCREENS === '1';
/** A channel difference above this counts the pixel as different. */
const CHANNEL_THRESHOLD = 48;
/** Share of differing pixels a screenshot may have. */
const MAX_DIFFERING = 0.01;

/** @type {[string, string, {width: number, height: number}][]} */
const SCREENS = [
  ['single-1280', '/?algorithm=bully&nodes=8&seed=3&at=40', { width: 1280, height: 800 }],
  ['compare-1280', '/?compare=bully,raft,chang-roberts&nodes=6&seed=3&at=40', { width: 1280, height: 800 }],
  ['single-360', '/?algorithm=raft&nodes=5&seed=3&at=300', { width: 360, height: 740 }],
];

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * The share of pixels that differ by more than the threshold.
 * @param {PNG} a
 * @param {PNG} b
 */
function differing(a, b) {
  let count = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs(a.data[i + c] - b.data[i + c]) > CHANNEL_THRESHOLD) {
        count += 1;
        break;
      }
    }
  }
  return count / (a.width * a.height);
}

/**
 * Writes a screenshot that did not pass to target/shots/NAME.actual.png.
 * @param {string} name
 * @param {PNG} shot
 */
function writeActual(name, shot) {
  const dir = join(DIR, '..', '..', '..', 'target', 'shots');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.actual.png`), PNG.sync.write(shot));
}

for (const [name, path, viewport] of SCREENS) {
  test(`screenshot ${name} matches tests/browser/screens/${name}.png`, async () => {
    const context = await browser.newContext({
      viewport,
      colorScheme: 'light',
      reducedMotion: 'reduce',
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}${path}`);
    await ready(page);
    // Let layout settle (fonts, resize observers; frames drawn, the
    // cluster worker's drawings done) and keep the pointer and the focus
    // out of the picture.
    await page.evaluate(() => document.fonts.ready);
    await page.mouse.move(0, 0);
    await settle(page);
    const shot = PNG.sync.read(await page.screenshot({ animations: 'disabled', caret: 'hide' }));
    const file = join(DIR, `${name}.png`);
    if (UPDATE) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(file, PNG.sync.write(shot));
    } else if (!existsSync(file)) {
      writeActual(name, shot);
      assert.fail(`no stored image ${file}: run with UPDATE_SCREENS=1 to write it (actual in target/shots/${name}.actual.png)`);
    } else {
      const stored = PNG.sync.read(readFileSync(file));
      assert.deepEqual([shot.width, shot.height], [stored.width, stored.height], 'same size');
      const share = differing(shot, stored);
      if (share >= MAX_DIFFERING) writeActual(name, shot);
      assert.ok(share < MAX_DIFFERING, `${(share * 100).toFixed(2)}% of pixels differ (actual in target/shots/${name}.actual.png)`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
