// @ts-check
// Every layout shift of a first visit, with what moved (issue 30, item 1;
// docs/PERFORMANCE.md, Against RaftScope): the page loaded cold in a phone
// viewport (Lighthouse's mobile, 412x823) and a desktop one (1350x940),
// each shift printed with its time, its score and its sources (the node,
// its box before and after), then the sum as Lighthouse's cumulative
// layout shift counts it (the largest session window: shifts less than
// 1 s apart, at most 5 s long). Also the page's first layout task (from
// a Chromium trace, CPU 1x unless PROFILE=slow): its duration and the
// layout objects it laid out. A tool for finding what moves, not a
// test: the figure to hold is Lighthouse's (bench-anchor.js).
//
//   node scripts/gzip-server ... ; BASE_URL=http://127.0.0.1:8230 node scripts/bench/browser/layout-shifts.js [PATH]
//
// PATH defaults to `/`. WAIT_MS (default 4000): how long after ready it
// keeps watching. PROFILE=slow|fast emulates that link (cold-load.js;
// default none). VIEWPORTS=mobile,desktop.
import { baseUrl, launchBrowser } from '../../../tests/browser/helpers.js';
import { emulate, PROFILES } from './cold-load.js';

const PATH = process.argv[2] || '/';
const WAIT_MS = Number(process.env.WAIT_MS || 4000);
/** @type {Record<string, {width: number, height: number, mobile: boolean}>} */
const VIEWPORTS = {
  mobile: { width: 412, height: 823, mobile: true },
  desktop: { width: 1350, height: 940, mobile: false },
};

/** In the page before any script: every layout shift with its sources, as `window.__shifts`. */
function watchShifts() {
  const w = /** @type {any} */ (window);
  w.__shifts = [];
  /** @param {Node | null} n */
  const describe = (n) => {
    if (!n) return '(gone)';
    if (!(n instanceof Element)) return n.nodeName;
    const id = n.id ? `#${n.id}` : '';
    const cls = n.classList.length ? `.${[...n.classList].join('.')}` : '';
    const test = n.getAttribute('data-testid') ? `[${n.getAttribute('data-testid')}]` : '';
    return `${n.localName}${id}${cls}${test}`;
  };
  /** @param {DOMRectReadOnly} r */
  const box = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
  new PerformanceObserver((list) => {
    for (const e of /** @type {any[]} */ (list.getEntries())) {
      w.__shifts.push({
        at: Math.round(e.startTime),
        value: e.value,
        input: e.hadRecentInput,
        sources: (e.sources ?? []).map((/** @type {any} */ s) => `${describe(s.node)} ${box(s.previousRect)} -> ${box(s.currentRect)}`),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * Lighthouse's CLS: the largest sum over session windows (gaps under
 * 1 s, windows at most 5 s), inputs excluded.
 * @param {{at: number, value: number, input: boolean}[]} shifts
 */
function cls(shifts) {
  let best = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const s of shifts) {
    if (s.input) continue;
    if (s.at - last > 1000 || s.at - first > 5000) {
      sum = 0;
      first = s.at;
    }
    sum += s.value;
    last = s.at;
    best = Math.max(best, sum);
  }
  return best;
}

async function main() {
  const url = new URL(PATH, `${baseUrl()}/`).href;
  const browser = await launchBrowser();
  try {
    for (const key of (process.env.VIEWPORTS || 'mobile,desktop').split(',')) {
      const v = VIEWPORTS[key];
      if (!v) throw new Error(`unknown viewport ${key} (${Object.keys(VIEWPORTS).join(', ')})`);
      const context = await browser.newContext({
        viewport: { width: v.width, height: v.height },
        isMobile: v.mobile,
        hasTouch: v.mobile,
        deviceScaleFactor: v.mobile ? 1.75 : 1,
      });
      await context.addInitScript(watchShifts);
      const page = await context.newPage();
      if (process.env.PROFILE) {
        const profile = PROFILES[process.env.PROFILE];
        if (!profile) throw new Error(`unknown PROFILE ${process.env.PROFILE}`);
        await emulate(await context.newCDPSession(page), profile, new Map());
      }
      await browser.startTracing(page, { categories: ['devtools.timeline'] });
      await page.goto(url);
      await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
      const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
      // The page's layouts (not about:blank's), by start; `tdur` is the
      // time on a CPU, which the machine's load does not inflate.
      const layouts = trace.traceEvents
        .filter((/** @type {any} */ e) => e.name === 'Layout' && e.ph === 'X' && (e.args?.beginData?.totalObjects ?? 0) > 10)
        .sort((/** @type {any} */ a, /** @type {any} */ b) => a.ts - b.ts);
      const first = layouts[0];
      if (first) {
        const ms = (/** @type {number} */ us) => (us / 1000).toFixed(1);
        console.log(
          `${key}: first layout ${ms(first.tdur ?? first.dur)} ms on a CPU (${ms(first.dur)} ms wall), ` +
            `${first.args.beginData.totalObjects} layout objects; ${layouts.length} layouts to ready, ` +
            `${ms(layouts.reduce((a, e) => a + (e.tdur ?? e.dur), 0))} ms on a CPU in all`,
        );
      }
      await page.waitForTimeout(WAIT_MS);
      const shifts = /** @type {{at: number, value: number, input: boolean, sources: string[]}[]} */ (await page.evaluate(() => /** @type {any} */ (window).__shifts));
      console.log(`${key} ${v.width}x${v.height}: ${shifts.length} shifts, CLS ${cls(shifts).toFixed(4)}`);
      for (const s of shifts) {
        console.log(`  ${String(s.at).padStart(6)} ms  ${s.value.toFixed(4)}${s.input ? ' (after input)' : ''}`);
        for (const src of s.sources) console.log(`      ${src}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
