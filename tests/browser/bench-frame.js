// Per-frame figures in headless Chromium: simulation step plus drawing of
// one animation frame while the page plays, p50/p95/max over a few hundred
// frames, for a busy run (256 nodes, about 2,000 messages in flight) and a
// pathological one (1024 nodes, Bully, every node starting an election at
// once); plus the first render of the page (navigation start to the first
// canvas draw, the `playground-first-draw` performance mark).
//
// The page times its frames only when `window.__frameStats` is an array
// before it loads (this script sets it); otherwise nothing is measured.
//
// Not a test (no timed assertions); run it by hand against a served repo:
//   python3 -m http.server 8000 --bind 127.0.0.1 &
//   BASE_URL=http://127.0.0.1:8000 node tests/browser/bench-frame.js
import { baseUrl, launchBrowser } from './helpers.js';
import { ready } from './page.js';

/** Frames measured per run. */
const FRAMES = Number(process.env.FRAMES || 300);

/** @type {[string, string, number][]} label, path, log10 of the play speed */
const RUNS = [
  [
    'Raft, 256 nodes, 12 ms heartbeats, 20-80 ms latency, 1x',
    '/?algorithm=raft&nodes=256&seed=1&heartbeat_ms=12&latency_ms=20-80&until_ms=60000&at=3000',
    0,
  ],
  [
    'Bully, 256 nodes, all start, lossy (drop 0.05), 0.01x',
    '/?algorithm=bully&nodes=256&seed=1&start=all&drop=0.05&latency_ms=5-10&at=0',
    -2,
  ],
  ['Bully, 1024 nodes, all start, 1x (pathological)', '/?algorithm=bully&nodes=1024&seed=1&start=all&at=0', 0],
];

/**
 * @param {number[]} xs sorted
 * @param {number} q
 */
function quantile(xs, q) {
  return xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
}

/** @param {number} x */
const ms = (x) => (x === undefined ? "n/a" : x.toFixed(2)).padStart(8);

const browser = await launchBrowser();
try {
  const rows = [];
  for (const [label, path, speed] of RUNS) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(() => {
      /** @type {any} */ (window).__frameStats = [];
    });
    await page.goto(`${baseUrl()}${path}`);
    await ready(page, 120000);
    await page.evaluate((v) => {
      const input = /** @type {HTMLInputElement} */ (document.getElementById('speed'));
      input.value = String(v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, speed);
    await page.click('#play');
    const started = Date.now();
    /** @type {number[]} */
    const flying = [];
    while (Date.now() - started < Number(process.env.RUN_MS || 60000)) {
      const n = await page.evaluate(() => /** @type {any} */ (window).__frameStats.length);
      const f = Number(await page.textContent('[data-testid="metric-in-flight"]').catch(() => 'NaN'));
      if (Number.isFinite(f)) flying.push(f);
      const playing = (await page.getAttribute('#play', 'aria-pressed')) === 'true';
      if (n >= FRAMES || !playing) break;
      await page.waitForTimeout(100);
    }
    const frames = /** @type {number[]} */ (await page.evaluate(() => /** @type {any} */ (window).__frameStats.slice()));
    const sorted = frames.slice(0, FRAMES).sort((a, b) => a - b);
    const inFlight = flying.sort((x, y) => x - y)[Math.floor(flying.length / 2)] ?? NaN;
    rows.push({ label, frames: sorted.length, inFlight, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted[sorted.length - 1] });
    await page.close();
  }
  console.log(`frame work (simulation + drawing) in ms, ${FRAMES} frames per run`);
  console.log(`${'run'.padEnd(62)} frames  in-flight(med)      p50      p95      max`);
  for (const r of rows) {
    console.log(`${r.label.padEnd(62)} ${String(r.frames).padStart(6)}  ${String(r.inFlight).padStart(14)} ${ms(r.p50)} ${ms(r.p95)} ${ms(r.max)}`);
  }

  // First render: a fresh page, default scenario, 7 loads.
  const firsts = [];
  for (let i = 0; i < 7; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl()}/`);
    await ready(page);
    firsts.push(await page.evaluate(() => performance.getEntriesByName('playground-first-draw')[0]?.startTime ?? NaN));
    await page.close();
  }
  firsts.sort((a, b) => a - b);
  console.log(`first render (navigation start to first canvas draw), ms over ${firsts.length} loads: median ${ms(quantile(firsts, 0.5))}, max ${ms(firsts[firsts.length - 1])}`);
} finally {
  await browser.close();
}
