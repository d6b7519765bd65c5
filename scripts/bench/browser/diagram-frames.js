// @ts-check
/**
 * Times the space-time diagram's own drawing, frame by frame, while a run
 * plays with the diagram in view: each call of the view's `render` (its
 * part of the page's script, trace reading included) and, inside it, of
 * the live plot's `draw`, with what that frame did (a rebuild of the
 * layer or the end of its bake, whether the bake is still behind now,
 * rows of the window cache, messages on the wire drawn). Prints
 * p50 / p95 / max, the frames over a threshold and the costliest ones. A
 * tool for finding what makes the diagram's frames long, not a test.
 *
 * Usage: BASE_URL=http://127.0.0.1:8115 node scripts/bench/browser/diagram-frames.js
 * (PATH_Q: the page's query, default the 1024-node Bully burst; FRAMES,
 * default 300; OVER: ms, default 4; SLOWEST: how many to list, default 8;
 * DUMP: a file to write every frame's figures to, as JSON).
 */
import { launchBrowser } from '../../../tests/browser/helpers.js';
import { openAtSpeed, pressPlay, scrollToDiagram } from '../../../tests/browser/page.js';

const PATH_Q = process.env.PATH_Q || '/?algorithm=bully&nodes=1024&seed=1&start=all&at=0';
const FRAMES = Number(process.env.FRAMES || 300);
const OVER = Number(process.env.OVER || 4);
const SLOWEST = Number(process.env.SLOWEST || 8);

const browser = await launchBrowser();
try {
  const page = await openAtSpeed(browser, PATH_Q, 0);
  await scrollToDiagram(page);
  await page.waitForTimeout(300);
  await page.evaluate(async () => {
    const w = /** @type {any} */ (window);
    // The page's own module instances (same URLs), so wrapping their
    // prototypes times the page's objects.
    const st = await import('/www/spacetime/view.js');
    const live = await import('/www/spacetime/live.js');
    w.__diagram = [];
    /** @type {any} */
    let current = null;
    const view = st.SpaceTimeView.prototype;
    const render = view.render;
    view.render = function (...args) {
      const outer = current === null;
      const t0 = performance.now();
      if (outer) current = { render: 0, draw: 0, rebuilt: false, behind: false, rows: 0, wire: 0, now: 0 };
      try {
        return render.apply(this, args);
      } finally {
        if (outer) {
          current.render = performance.now() - t0;
          current.rows = this.store.window.length;
          current.now = this.store.nowMs;
          if (this.model.playing) w.__diagram.push(current);
          current = null;
        }
      }
    };
    const plot = live.LivePlot.prototype;
    const draw = plot.draw;
    plot.draw = function (...args) {
      const t0 = performance.now();
      const key = this.key;
      const built = this.builtAtMs;
      try {
        return draw.apply(this, args);
      } finally {
        if (current) {
          current.draw += performance.now() - t0;
          current.rebuilt = current.rebuilt || this.key !== key || this.builtAtMs !== built;
          current.wire = this.live.length;
          current.behind = this.behind === true;
        }
      }
    };
  });
  await pressPlay(page);
  const started = Date.now();
  while (Date.now() - started < 60000) {
    const n = await page.evaluate(() => /** @type {any} */ (window).__diagram.length);
    if (n >= FRAMES) break;
    await page.waitForTimeout(100);
  }
  await pressPlay(page);
  /** @type {{render: number, draw: number, rebuilt: boolean, behind: boolean, rows: number, wire: number, now: number}[]} */
  const got = await page.evaluate(() => /** @type {any} */ (window).__diagram.slice());
  if (process.env.DUMP) (await import('node:fs')).writeFileSync(process.env.DUMP, JSON.stringify(got));
  const sorted = got.map((e) => e.render).sort((a, b) => a - b);
  const q = (/** @type {number} */ p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  const f = (/** @type {number} */ x) => x.toFixed(2);
  console.log(`${PATH_Q}: the diagram's render per frame while playing, ${got.length} frames`);
  console.log(`  p50 ${f(q(0.5))} ms, p95 ${f(q(0.95))} ms, max ${f(sorted[sorted.length - 1] ?? NaN)} ms; over ${OVER} ms: ${sorted.filter((x) => x > OVER).length}; layer rebuilds: ${got.filter((e) => e.rebuilt).length}`);
  const worst = got
    .map((e, i) => ({ ...e, i }))
    .sort((a, b) => b.render - a.render)
    .slice(0, SLOWEST);
  for (const e of worst) {
    console.log(
      `  frame ${String(e.i).padStart(4)}: render ${f(e.render)} ms (live draw ${f(e.draw)}${e.rebuilt ? ', rebuilt' : ''}), now ${e.now.toFixed(3)} ms, ${e.rows} cached rows, ${e.wire} on the wire drawn${e.behind ? ', bake behind now' : ''}`,
    );
  }
} finally {
  await browser.close();
}
