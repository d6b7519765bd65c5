// Per-frame figures in headless Chromium while the page plays, for a busy
// run (256 nodes, about 2,000 messages in flight), a lossy one and a
// pathological one (1024 nodes, Bully, every node starting an election at
// once), compare mode with four 64-node views, and embeds (a 256-node run
// and a four-view comparison in `embed=1`); plus the first render of the page (navigation start to the first
// canvas draw, the `playground-first-draw` performance mark).
//
// Figures per frame, p50/p95/max, timed by the page itself when
// `window.__frameStats` is an array before it loads (this script sets it;
// otherwise nothing is measured):
// - script: the page's own work in the animation frame (every view's
//   drawing calls);
// - frame: the whole frame on the main thread: from the animation frame
//   callback until the first task after the browser's style, layout,
//   paint and commit of that frame (where the canvases are rasterized);
// - sim task: the simulation's own task, which runs between frames (see
//   www/player/player.js), and "sim + frame": that task plus the frame drawing
//   what it did, the main thread's work per frame shown, which the 10 ms
//   budget is about.
// Also the longest gap between two animation frames, timed when their
// callbacks run (a frame blocked by anything, a timer for instance: no
// frame may block longer than 16 ms, so no gap should pass about 33 ms),
// and how many gaps pass LATE_GAP_MS (late frames) and the speed the run actually
// played at against the speed asked for.
//
// Not a test (no timed assertions); run it by hand against a served repo:
//   python3 -m http.server 8000 --bind 127.0.0.1 &
//   BASE_URL=http://127.0.0.1:8000 node scripts/bench/browser/bench-frame.js
// Then the opening of the pathological run (OPENINGS=0 skips it): the
// longest tasks and frame gaps from navigation until a second after the
// page is ready, at=0, at=19 and playing from the start.
// FRAMES (default 300) sets the frames per run, RUN_MS (default 60000)
// the longest a run may take, ONLY (a regular expression) picks the runs
// by label, FIRST=0 skips the first-render loads, and WORST=1 prints the
// three frames with the longest script of each run, split into the
// simulation and the views' drawing. DUMP (a path) writes each run's
// frames ([script, frame, simulation, views] ms, in order) to
// DUMP.<run>.json, to see which frames are the long ones.
import { baseUrl, launchBrowser } from '../../../tests/browser/helpers.js';
import { openAtSpeed, pressPlay, ready, scrollToDiagram } from '../../../tests/browser/page.js';

/**
 * How to drive each kind of page: the speed slider (log10; null: the
 * address sets `speed=`), the play button and where the simulated time
 * and the in-flight count are read.
 * @type {Record<string, {speed: string | null, play: string, time: (page: import('playwright-core').Page) => Promise<number>, inFlight: boolean}>}
 */
const DRIVERS = {
  single: {
    speed: '#speed',
    play: '#play',
    time: async (page) => Number(await page.textContent('[data-testid="sim-time"]')),
    inFlight: true,
  },
  compare: {
    speed: '#compare-speed',
    play: '#compare-play',
    time: async (page) => Number(await page.textContent('[data-testid="compare-time"]')),
    inFlight: false,
  },
  embed: {
    speed: null,
    play: '[data-testid="embed-play"]',
    time: async (page) => Number(await page.getAttribute('[data-testid="embed-time"]', 'data-ms')),
    inFlight: false,
  },
};

/**
 * Opens `path` at 1280x900 with the frame timing on, at `log10Speed`.
 * @param {import('playwright-core').Browser} browser
 * @param {string} kind a key of DRIVERS
 * @param {string} path
 * @param {number} log10Speed
 */
async function openRun(browser, kind, path, log10Speed) {
  const timing = (/** @type {import('playwright-core').Page} */ p) =>
    p.addInitScript(() => {
      /** @type {any} */ (window).__frameStats = [];
    });
  if (kind === 'single') return openAtSpeed(browser, path, log10Speed, timing);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await timing(page);
  await page.goto(`${baseUrl()}${path}`);
  await ready(page, 120000);
  const slider = DRIVERS[kind].speed;
  if (slider) {
    await page.$eval(
      slider,
      (input, v) => {
        const range = /** @type {HTMLInputElement} */ (input);
        range.value = String(v);
        range.dispatchEvent(new Event('input', { bubbles: true }));
      },
      log10Speed,
    );
  }
  return page;
}

/**
 * Presses the kind's play button without scrolling the page.
 * @param {import('playwright-core').Page} page
 * @param {string} kind
 */
async function pressPlayOf(page, kind) {
  if (kind === 'single') return pressPlay(page);
  await page.$eval(DRIVERS[kind].play, (b) => /** @type {HTMLElement} */ (b).click());
}

/** A gap between two animation frames longer than this (ms) is a late
 * frame: at 60 Hz they come every 16.7 ms, give or take a millisecond. */
const LATE_GAP_MS = 20;

/** Frames measured per run. */
const FRAMES = Number(process.env.FRAMES || 300);

const RAFT = '/?algorithm=raft&nodes=256&seed=1&heartbeat_ms=12&latency_ms=20-80&until_ms=60000&at=3000';
const PATHOLOGICAL = '/?algorithm=bully&nodes=1024&seed=1&start=all&at=0';

/** Four algorithms on 64 nodes with 12 ms heartbeats: compare mode's heaviest. */
const COMPARE64 = 'compare=bully,raft,chang-roberts,lelann&nodes=64&seed=1&heartbeat_ms=12&latency_ms=20-80&until_ms=60000&at=0';

/**
 * label, path, log10 of the play speed (in the address for an embed),
 * whether the page is scrolled to the space-time diagram (at 1280x900 the
 * page opens with the cluster in view and the diagram below it, where it
 * is not drawn while playing), and the kind of page (DRIVERS; single when
 * absent).
 * @type {([string, string, number, boolean] | [string, string, number, boolean, string])[]}
 */
const RUNS = [
  ['Raft, 256 nodes, 12 ms heartbeats, 20-80 ms latency, 1x', RAFT, 0, false],
  ['  same, scrolled to the space-time diagram', RAFT, 0, true],
  [
    'Bully, 256 nodes, all start, lossy (drop 0.05), 0.01x',
    '/?algorithm=bully&nodes=256&seed=1&start=all&drop=0.05&latency_ms=5-10&at=0',
    -2,
    false,
  ],
  ['Bully, 1024 nodes, all start, 1x (pathological)', PATHOLOGICAL, 0, false],
  ['  same, scrolled to the space-time diagram', PATHOLOGICAL, 0, true],
  ['Compare, 4 views x 64 nodes, 12 ms heartbeats, 1x', `/?${COMPARE64}`, 0, false, 'compare'],
  ['Embed, Raft, 256 nodes, 12 ms heartbeats, 1x', `${RAFT.replace('/?', '/?embed=1&speed=1&')}`, 0, false, 'embed'],
  ['Embed, compare, 4 views x 64 nodes, 1x', `/?embed=1&speed=1&${COMPARE64}`, 0, false, 'embed'],
];

/**
 * @param {number[]} xs sorted
 * @param {number} q
 */
function quantile(xs, q) {
  return xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
}

/** @param {number | undefined} x */
const ms = (x) => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(1)).padStart(7);

/** @param {number[]} xs */
const stats = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: s[s.length - 1] };
};

const browser = await launchBrowser();
try {
  const rows = [];
  const only = new RegExp(process.env.ONLY || '');
  let previous = '';
  for (const [label, path, speed, scrolled, kindOf] of RUNS) {
    const kind = kindOf ?? 'single';
    const driver = DRIVERS[kind];
    // "  same, ..." rows belong to the row above them.
    const picked = only.test(label.startsWith('  same') ? `${previous} ${label}` : label);
    if (!label.startsWith('  same')) previous = label;
    if (!picked) continue;
    const page = await openRun(browser, kind, path, speed);
    if (scrolled) await scrollToDiagram(page);
    // Let the page settle after loading, then trace the played stretch.
    await page.waitForTimeout(300);
    await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.__frameStats.length = 0;
      if (w.__simTasks) w.__simTasks.length = 0;
      w.__gaps = [];
      let last = performance.now();
      // The time the callback runs, not its argument (the frame's vsync
      // time, which a frame delayed by a long task still gets).
      const tick = () => {
        const t = performance.now();
        w.__gaps.push(t - last);
        last = t;
        if (w.__gaps.length < 100_000) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await pressPlayOf(page, kind);
    const started = Date.now();
    /** @type {number[]} */
    const flying = [];
    let playing = true;
    // The speed played at is taken after the first 30 frames (the first
    // may jump over a stretch where nothing happens).
    let simFrom = NaN;
    let wallFrom = NaN;
    while (Date.now() - started < Number(process.env.RUN_MS || 60000)) {
      const n = await page.evaluate(() => /** @type {any} */ (window).__frameStats.length);
      if (Number.isNaN(simFrom) && n >= 30) {
        simFrom = await driver.time(page);
        wallFrom = Date.now();
      }
      if (driver.inFlight) {
        const f = Number(await page.textContent('[data-testid="metric-in-flight"]').catch(() => 'NaN'));
        if (Number.isFinite(f)) flying.push(f);
      }
      playing = (await page.getAttribute(driver.play, 'aria-pressed')) === 'true';
      if (n >= FRAMES || !playing) break;
      await page.waitForTimeout(100);
    }
    const simTo = await driver.time(page);
    const wallMs = Date.now() - wallFrom;
    if (playing) await pressPlayOf(page, kind);
    /** @type {{stats: number[][], gaps: number[], sims: number[]}} */
    const got = await page.evaluate(() => ({
      stats: /** @type {any} */ (window).__frameStats.slice(),
      gaps: /** @type {any} */ (window).__gaps.slice(1),
      sims: (/** @type {any} */ (window).__simTasks ?? []).slice(),
    }));
    if (process.env.DUMP) {
      const file = `${process.env.DUMP}.${rows.length}.json`;
      (await import('node:fs')).writeFileSync(file, JSON.stringify({ label, stats: got.stats }));
    }
    const inFlight = flying.sort((x, y) => x - y)[Math.floor(flying.length / 2)] ?? NaN;
    rows.push({
      label,
      inFlight,
      script: stats(got.stats.map((e) => e[0])),
      frame: stats(got.stats.map((e) => e[1])),
      frames: got.stats.length,
      over16: got.stats.filter((e) => e[1] > 16).length,
      sim: stats(got.sims),
      both: stats(got.stats.map((e) => e[1] + e[2])),
      sims: got.sims.length,
      simOver16: got.sims.filter((x) => x > 16).length,
      // The frames with the longest script: [script, frame, simulation, drawing].
      worst: got.stats
        .slice()
        .sort((a, b) => b[0] - a[0])
        .slice(0, 3),
      gap: got.gaps.reduce((a, b) => Math.max(a, b), 0),
      lateGaps: got.gaps.filter((g) => g > LATE_GAP_MS).length,
      gaps: got.gaps.length,
      played: (simTo - simFrom) / wallMs / 10 ** speed,
    });
    await page.close();
  }
  console.log(
    `main-thread work per animation frame while playing, ms (script: the page's own drawing; frame: the whole frame; ` +
      `sim task: the simulation's task between frames)`,
  );
  console.log(
    `${'run'.padEnd(56)} in-flight  frames  script p50    p95    max |  frame p50    p95    max | >16ms | sim task p95    max  >16ms | sim + frame p95 | longest gap, > ${LATE_GAP_MS} ms  played at`,
  );
  for (const r of rows) {
    console.log(
      `${r.label.padEnd(56)} ${String(r.inFlight).padStart(9)} ${String(r.frames).padStart(7)}  ` +
        `${ms(r.script.p50)}${ms(r.script.p95)}${ms(r.script.max)} | ` +
        `${ms(r.frame.p50)}${ms(r.frame.p95)}${ms(r.frame.max)} | ${String(r.over16).padStart(5)} | ` +
        `${ms(r.sim.p95)}${ms(r.sim.max)} ${String(r.simOver16).padStart(6)} of ${r.sims} | ${ms(r.both.p95)}        | ` +
        `${ms(r.gap)}, ${r.lateGaps} of ${r.gaps}  ${r.played < 0.1 ? r.played.toPrecision(2) : r.played.toFixed(2)}x of asked`,
    );
    if (process.env.WORST === '1') {
      const f1 = (/** @type {number | undefined} */ x) => (x === undefined ? 'n/a' : x.toFixed(1));
      const parts = r.worst.map((e) => `script ${f1(e[0])} (views ${f1(e[3])}; sim task before ${f1(e[2])}), frame ${f1(e[1])}`);
      console.log(`${''.padEnd(8)}longest scripts: ${parts.join('; ')}`);
    }
  }

  // Opening the pathological run: the load itself (wasm, 1,024 node
  // buttons, the first drawing) is one task; after the first drawing the
  // page goes to the address's moment, looks for the run's end and (with
  // no `at`) plays, all in tasks between frames. Per load: first drawing
  // and ready (navigation start to each), the tasks of 50 ms or more
  // before and after the first drawing (the Long Tasks API sees no
  // shorter ones), and the longest gap between animation frames from the
  // first drawing until a second after ready.
  const openings = process.env.OPENINGS === '0' ? [] : [`${PATHOLOGICAL}`, PATHOLOGICAL.replace('&at=0', '&at=19'), PATHOLOGICAL.replace('&at=0', '')];
  if (openings.length > 0) {
    console.log('opening the pathological run, ms (3 loads each): first drawing, ready | long tasks (>= 50 ms) before / after the first drawing | longest frame gap after it');
  }
  for (const path of openings) {
    const lines = [];
    for (let i = 0; i < 3; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.addInitScript(() => {
        const w = /** @type {any} */ (window);
        w.__long = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__long.push([e.startTime, e.duration]);
        }).observe({ type: 'longtask', buffered: true });
        w.__gaps = [];
        let last = NaN;
        const tick = () => {
          const t = performance.now();
          if (performance.getEntriesByName('playground-first-draw').length > 0) {
            if (!Number.isNaN(last)) w.__gaps.push(t - last);
            last = t;
          }
          if (w.__gaps.length < 100_000) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await page.goto(`${baseUrl()}${path}`);
      await ready(page, 60000);
      const readyAt = await page.evaluate(() => performance.now());
      await page.waitForTimeout(1000);
      /** @type {{first: number, long: number[][], gap: number}} */
      const got = await page.evaluate(() => {
        const w = /** @type {any} */ (window);
        return {
          first: performance.getEntriesByName('playground-first-draw')[0]?.startTime ?? NaN,
          long: w.__long,
          gap: w.__gaps.reduce((/** @type {number} */ a, /** @type {number} */ b) => Math.max(a, b), 0),
        };
      });
      const list = (/** @type {number[][]} */ xs) => (xs.length ? xs.map((e) => e[1].toFixed(0)).join(', ') : 'none');
      const before = got.long.filter((e) => e[0] < got.first);
      const afterFirst = got.long.filter((e) => e[0] >= got.first);
      lines.push(
        `${ms(got.first)}${ms(readyAt)} | ${list(before)} / ${list(afterFirst)} | ${ms(got.gap)}`,
      );
      await page.close();
    }
    console.log(`  ${path}\n    ${lines.join('\n    ')}`);
  }

  // First render: a fresh page, default scenario, 7 loads. The page marks
  // its first drawing calls; when the cluster is drawn by a worker, the
  // worker's first drawing of the nodes is marked when it is done.
  const firsts = [];
  const pixels = [];
  for (let i = 0; i < (process.env.FIRST === '0' ? 0 : 7); i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl()}/`);
    await ready(page);
    firsts.push(await page.evaluate(() => performance.getEntriesByName('playground-first-draw')[0]?.startTime ?? NaN));
    const drawn = await page
      .waitForFunction(() => performance.getEntriesByName('cluster-first-drawn')[0]?.startTime, undefined, { timeout: 5000 })
      .then((h) => h.jsonValue())
      .catch(() => NaN);
    pixels.push(Number(drawn));
    await page.close();
  }
  const f = stats(firsts);
  if (firsts.length > 0) console.log(`first render (navigation start to first canvas draw), ms over ${firsts.length} loads: median ${ms(f.p50)}, max ${ms(f.max)}`);
  const p = stats(pixels.filter((x) => Number.isFinite(x)));
  if (pixels.some((x) => Number.isFinite(x))) {
    console.log(`  nodes drawn by the worker (navigation start to its first drawing done), ms: median ${ms(p.p50)}, max ${ms(p.max)}`);
  }
} finally {
  await browser.close();
}
