// Seek-time figures in headless Chromium: opens 60 s runs at their end (so
// the whole run is explored and checkpointed), then seeks to random
// moments, and prints p50/p95/max of
// - the core's seek alone (Playground.seek_ms in wasm, on a second
//   playground of the same address), and
// - a seek by moving the time scrubber, as a user does: from its input
//   event to the page drawn again (canvas, readouts, log);
// plus the first seek of a fresh page from 0 to 60 s (every event
// simulated once, checkpoints taken on the way) and seeks while the run
// is still being explored.
//
// Not a test (no timed assertions); run it by hand against a served repo:
//   python3 -m http.server 8000 --bind 127.0.0.1 &
//   BASE_URL=http://127.0.0.1:8000 node scripts/bench/browser/bench-seek.js
import { baseUrl, launchBrowser } from '../../../tests/browser/helpers.js';
import { openPlayground } from '../../../tests/browser/page.js';
import { encodeShare } from '../../../tests/browser/reference.js';

/** Seeks per scenario. */
const SEEKS = Number(process.env.SEEKS || 200);

/** The runs measured: a path (query or share link) each. */
const RUNS = [
  ['Raft, 5 nodes, heartbeats, 60 s', '/?algorithm=raft&nodes=5&seed=1&until_ms=60000'],
  ['Bully, 32 nodes, 60 s', '/?algorithm=bully&nodes=32&seed=1&until_ms=60000'],
  [
    'Raft, 5 nodes, leader crashes, partition, lossy, 60 s',
    `/#s=${encodeShare({
      version: 1,
      algorithm: 'raft',
      nodes: 5,
      seed: 3,
      network: { latency_ms: [2, 12], drop: 0.02, duplicate: 0.01 },
      faults: [
        { at_ms: 10000, crash: 'leader' },
        { at_ms: 20000, partition: [[0, 1]] },
        { at_ms: 30000, heal: true },
        { at_ms: 40000, crash: 'leader' },
        { at_ms: 45000, pause: 2, for_ms: 800 },
      ],
      until_ms: 60000,
    })}`,
  ],
  [
    'Bully, 32 nodes, leader crashes and a partition, 60 s',
    `/#s=${encodeShare({
      version: 1,
      algorithm: 'bully',
      nodes: 32,
      seed: 3,
      faults: [
        { at_ms: 10000, crash: 'leader' },
        { at_ms: 20000, crash: 'leader' },
        { at_ms: 30000, partition: [[0, 1, 2, 3, 4, 5, 6, 7]] },
        { at_ms: 40000, heal: true },
        { at_ms: 50000, recover: 31 },
      ],
      until_ms: 60000,
    })}`,
  ],
  ['Raft, 64 nodes, heartbeats, 60 s', '/?algorithm=raft&nodes=64&seed=1&until_ms=60000'],
];

/**
 * `path` with `at=<at>` added to its query.
 * @param {string} path
 * @param {string} at
 */
function withAt(path, at) {
  const [head, hash] = path.split('#');
  const url = new URL(head, 'http://x');
  url.searchParams.set('at', at);
  return `${url.pathname}${url.search}${hash ? `#${hash}` : ''}`;
}

/**
 * @param {number[]} xs
 * @param {number} q
 */
function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** @param {number} ms */
const fmt = (ms) => `${ms.toFixed(1).padStart(6)} ms`;

/**
 * Moves the scrubber to each target in turn and returns the milliseconds
 * each move took until the readouts were drawn.
 * @param {import('playwright-core').Page} page
 * @param {number[]} targets
 * @returns {Promise<number[]>}
 */
async function seekTimes(page, targets) {
  return page.evaluate((ts) => {
    const scrubber = /** @type {HTMLInputElement} */ (document.getElementById('timeline'));
    const shown = document.querySelector('[data-testid="sim-time"]');
    const out = [];
    for (const t of ts) {
      const t0 = performance.now();
      scrubber.value = String(t);
      scrubber.dispatchEvent(new Event('input', { bubbles: true }));
      // The page draws on every change, synchronously; reading the
      // readout checks it did.
      if (Number(shown?.textContent) < 0) throw new Error('no readout');
      out.push(performance.now() - t0);
    }
    return out;
  }, targets);
}

/**
 * Seek times of the core alone: a second Playground of the same address,
 * made from the page's own wasm module, run to 60 s (exploring the run),
 * then seeking to each target. Returns [first run to 60 s, ...seeks] in ms.
 * @param {import('playwright-core').Page} page
 * @param {number[]} targets
 * @returns {Promise<{explore: number, seeks: number[], checkpoints: number}>}
 */
async function coreSeekTimes(page, targets) {
  return page.evaluate(async (ts) => {
    const wasm = await import(`${location.origin}/www/pkg/election_web.js`);
    const pg = wasm.Playground.from_url(location.search, location.hash);
    const t0 = performance.now();
    pg.seek_ms(60000);
    const explore = performance.now() - t0;
    const seeks = [];
    for (const t of ts) {
      const s0 = performance.now();
      pg.seek_ms(t);
      seeks.push(performance.now() - s0);
    }
    const checkpoints = pg.checkpoint_count();
    pg.free();
    return { explore, seeks, checkpoints };
  }, targets);
}

const browser = await launchBrowser();
try {
  console.log(`seek + render times, ${SEEKS} random seeks per run, ${baseUrl()}`);
  for (const [name, path] of RUNS) {
    // Cold: a fresh page at 0 seeks straight to the end (every event
    // simulated once, checkpoints taken on the way).
    const { page: cold, errors: coldErrors } = await openPlayground(browser, withAt(path, '0'));
    const [first] = await seekTimes(cold, [60000]);
    // While exploring: seeks back and forth inside the explored part.
    const exploring = await seekTimes(
      cold,
      Array.from({ length: 20 }, (_, i) => (i % 2 ? 30000 : 0) + ((i * 7919) % 30000)),
    );
    await cold.close();

    const { page, errors } = await openPlayground(browser, withAt(path, 'end'));
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const targets = Array.from({ length: SEEKS }, () => Math.round(random() * 60000 * 1000) / 1000);
    // One warm-up pass so the JIT and the wasm tier-up do not count.
    await seekTimes(page, targets.slice(0, 10));
    const times = await seekTimes(page, targets);
    const core = await coreSeekTimes(page, targets);
    const hash = await page.textContent('[data-testid="trace-hash"]');
    await page.close();
    const problems = [...coldErrors, ...errors];
    const line = (label, xs) =>
      `  ${label}: p50 ${fmt(quantile(xs, 0.5))}  p95 ${fmt(quantile(xs, 0.95))}  max ${fmt(Math.max(...xs))}`;
    console.log(
      [
        name,
        `${line('core seek_ms alone', core.seeks)}  (${core.checkpoints} checkpoints; exploring 0 -> 60 s took ${fmt(core.explore)})`,
        line('scrubber seek + page render', times),
        `  first seek 0 -> 60 s on a fresh page: ${fmt(first)}`,
        `  seeks while exploring: max ${fmt(Math.max(...exploring))}  (last hash ${hash})`,
        ...(problems.length ? [`  ERRORS: ${problems.join('; ')}`] : []),
      ].join('\n'),
    );
  }
} finally {
  await browser.close();
}
