// Where a playing page's frames spend their time outside the page's own
// script: records a Chromium trace (the devtools timeline categories) of a
// few seconds of play and sums, per event name, the time of the renderer's
// main thread and of its compositor, raster and worker threads (style,
// layout, paint, commit, raster, the cluster worker's drawing...), plus
// which DOM elements the frames changed
// (a MutationObserver count per target). A tool for finding what to speed
// up, not a test; run it by hand against a served repo:
//   BASE_URL=http://127.0.0.1:8000 node scripts/bench/browser/trace-frame.js '/?algorithm=raft&nodes=256&seed=1&heartbeat_ms=12&latency_ms=20-80&until_ms=60000&at=3000' 0
// (the path to open, then log10 of the play speed; TRACE_MS sets how long,
// SCROLL=1 scrolls the space-time diagram into view first). It also prints
// the main thread's time per frame (wall time, and time on a CPU: on a
// shared machine the difference is waiting for one) and the costliest
// frames one by one (SLOWEST, default 8): each frame is the main thread's
// work from one BeginMainFrame to the next, with its costliest trace
// events (self time on a CPU). INVALIDATIONS=1 also records why style,
// layout and paint had to be redone: the elements most often invalidated,
// with the attribute or reason (a `title` rewritten on 1,024 buttons was
// found this way), and the Paint events' spread. HIDE (a CSS selector)
// hides those elements first, to see what a part of the page costs;
// STYLE (CSS rules) adds a style sheet first (through the CSSOM, which the
// page's CSP allows), to try a rule before writing it.
// TASKS=1 lists the main thread's tasks by what they ran.
// STAMP=1 marks each frame's diagram drawing in the trace (a
// console.timeStamp with the run's time, the messages on the wire drawn
// and whether the layer's bake is behind) and prints the marks of the
// costliest frames, to tell which moment of the run they drew.
import { launchBrowser } from '../../../tests/browser/helpers.js';
import { openAtSpeed, pressPlay, scrollToDiagram } from '../../../tests/browser/page.js';

const path = process.argv[2] || '/?algorithm=raft&nodes=256&seed=1&heartbeat_ms=12&latency_ms=20-80&until_ms=60000&at=3000';
const speed = Number(process.argv[3] || 0);
const browser = await launchBrowser();
try {
  const page = await openAtSpeed(browser, path, speed);
  if (process.env.SCROLL === '1') {
    await scrollToDiagram(page);
  }
  if (process.env.STYLE) {
    await page.evaluate((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }, process.env.STYLE);
  }
  if (process.env.HIDE) {
    await page.evaluate((sel) => {
      for (const e of document.querySelectorAll(sel)) /** @type {HTMLElement} */ (e).style.display = 'none';
    }, process.env.HIDE);
  }
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__mutations = new Map();
    w.__frames = 0;
    const count = () => {
      w.__frames += 1;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    /** @param {Node | null} n */
    const name = (n) => {
      if (!(n instanceof Element)) return n?.parentElement ? name(n.parentElement) : '?';
      const id = n.id || n.getAttribute('data-testid') || '';
      return `${n.tagName.toLowerCase()}${id ? `#${id}` : n.className ? `.${String(n.className).split(' ')[0]}` : ''}`;
    };
    new MutationObserver((list) => {
      for (const m of list) {
        const key = `${m.type}${m.attributeName ? `[${m.attributeName}]` : ''} ${name(m.target)}`;
        w.__mutations.set(key, (w.__mutations.get(key) ?? 0) + 1);
      }
    }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  if (process.env.STAMP === '1') {
    await page.evaluate(async () => {
      // The page's own module instance (same URL).
      const live = await import('/www/spacetime/live.js');
      const plot = live.LivePlot.prototype;
      const draw = plot.draw;
      plot.draw = function (...args) {
        try {
          return draw.apply(this, args);
        } finally {
          const store = /** @type {any} */ (args[1]);
          const win = /** @type {any} */ (args[2]);
          console.timeStamp(
            `diagram now ${store.nowMs.toFixed(1)} ms, window ${win.t0.toFixed(1)} + ${win.span} ms, ` +
              `${this.live.length} on the wire${this.behind ? ', behind' : ''}`,
          );
        }
      };
    });
  }
  const cdp = await page.context().newCDPSession(page);
  /** @type {any[]} */
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await pressPlay(page);
  await page.waitForTimeout(500);
  const frames0 = await page.evaluate(() => /** @type {any} */ (window).__frames);
  await page.evaluate(() => /** @type {any} */ (window).__mutations.clear());
  await cdp.send('Tracing.start', {
    categories:
      'devtools.timeline,disabled-by-default-devtools.timeline,cc,viz,blink' +
      (process.env.INVALIDATIONS === '1' ? ',disabled-by-default-devtools.timeline.invalidationTracking' : ''),
    transferMode: 'ReportEvents',
  });
  await page.waitForTimeout(Number(process.env.TRACE_MS || 4000));
  await cdp.send('Tracing.end');
  await done;
  const frames = (await page.evaluate(() => /** @type {any} */ (window).__frames)) - frames0;
  /** @type {[string, number][]} */
  const mutations = await page.evaluate(() => [.../** @type {any} */ (window).__mutations.entries()]);
  /** @type {Map<string, string>} */
  const threads = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  // Self time per (thread, name) of complete events, nested ones subtracted.
  /** @type {Map<string, any[]>} */
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || typeof e.dur !== 'number') continue;
    const t = threads.get(`${e.pid}:${e.tid}`) ?? '?';
    if (!/CrRendererMain|Compositor|Raster|VizCompositor|CrGpuMain|Worker/.test(t)) continue;
    const list = byThread.get(t) ?? [];
    list.push(e);
    byThread.set(t, list);
  }
  /** @type {{ts: number, busy: number, cpu: number, self: Map<string, number>}[]} */
  const mainFrames = [];
  /** Top-level tasks of the renderer's main thread. @type {any[]} */
  const mainTasks = [];
  for (const [t, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const main = t === 'CrRendererMain';
    /** @type {Map<string, number>} */
    const self = new Map();
    /** @type {any[]} */
    const stack = [];
    // On the main thread, a frame is the work from one BeginMainFrame (the
    // animation frame callbacks, style, layout, paint and commit) to the
    // next; a task that holds a BeginMainFrame belongs to that frame.
    const begins = main ? list.filter((e) => e.name === 'ProxyMain::BeginMainFrame').map((e) => e.ts) : [];
    const mine = begins.map((ts) => ({ ts, busy: 0, cpu: 0, self: new Map() }));
    if (main) mainFrames.push(...mine);
    let k = -1;
    /** @type {{ts: number, busy: number, cpu: number, self: Map<string, number>} | undefined} */
    let frame;
    for (const e of list) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
      const parent = stack[stack.length - 1];
      if (main && !parent) {
        mainTasks.push(e);
        while (k + 1 < begins.length && begins[k + 1] < e.ts + e.dur) k += 1;
        frame = mine[k];
        if (frame) {
          frame.busy += e.dur;
          frame.cpu += e.tdur ?? e.dur;
        }
      }
      if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur);
      self.set(e.name, (self.get(e.name) ?? 0) + e.dur);
      // Per frame, self time on a CPU (thread time): what the work itself
      // cost, without the waits for a CPU of a busy machine.
      if (frame) {
        if (parent) frame.self.set(parent.name, (frame.self.get(parent.name) ?? 0) - (e.tdur ?? e.dur));
        frame.self.set(e.name, (frame.self.get(e.name) ?? 0) + (e.tdur ?? e.dur));
      }
      stack.push(e);
    }
    const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP || 12));
    console.log(`${t}: self time per frame (${frames} frames), ms`);
    for (const [name, us] of top) console.log(`  ${(us / 1000 / frames).toFixed(2).padStart(7)}  ${name}`);
  }
  const slowest = mainFrames
    .slice(0, -1)
    .sort((a, b) => b.cpu - a.cpu)
    .slice(0, Number(process.env.SLOWEST ?? 8));
  // Wall time (with any wait for a CPU) and the thread's CPU time.
  for (const [what, pick] of /** @type {const} */ ([
    ['busy (wall)', (/** @type {any} */ f) => f.busy],
    ['on a CPU', (/** @type {any} */ f) => f.cpu],
  ])) {
    const xs = mainFrames.slice(0, -1).map((f) => pick(f) / 1000).sort((a, b) => a - b);
    if (xs.length === 0) continue;
    const q = (/** @type {number} */ p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(1);
    console.log(
      `main thread ${what} per frame (${xs.length} frames), ms: p50 ${q(0.5)}, p95 ${q(0.95)}, max ${q(1)}; ` +
        `over 16 ms: ${xs.filter((b) => b > 16).length}`,
    );
  }
  // Each task on the main thread on its own (the simulation's task and a
  // frame's drawing are separate tasks): what "no frame blocks longer
  // than 16 ms" is about.
  for (const [what, pick] of /** @type {const} */ ([
    ['wall', (/** @type {any} */ e) => e.dur],
    ['on a CPU', (/** @type {any} */ e) => e.tdur ?? e.dur],
  ])) {
    const xs = mainTasks.map((e) => pick(e) / 1000).sort((a, b) => b - a);
    if (xs.length === 0) continue;
    console.log(
      `main-thread tasks (${xs.length}), ${what}: longest ${xs.slice(0, 5).map((x) => x.toFixed(1)).join(', ')} ms; ` +
        `over 16 ms: ${xs.filter((x) => x > 16).length}`,
    );
  }
  // TASKS=1: the main thread's top-level tasks by what they ran (the
  // first event inside each, with a function call's script and function),
  // to tell where more tasks than expected come from.
  if (process.env.TASKS === '1') {
    const main = (byThread.get('CrRendererMain') ?? []).slice().sort((a, b) => a.ts - b.ts);
    /** @type {Map<string, {n: number, cpu: number}>} */
    const kinds = new Map();
    let i = 0;
    for (const task of mainTasks) {
      while (i < main.length && main[i].ts <= task.ts) i += 1;
      const inner = main[i] && main[i].ts < task.ts + task.dur ? main[i] : null;
      const d = inner?.args?.data ?? {};
      const where = d.url ? ` ${String(d.url).split('/').slice(-2).join('/')}:${d.functionName ?? ''}` : '';
      const key = `${task.name} > ${inner ? inner.name : '-'}${where}`;
      const k = kinds.get(key) ?? { n: 0, cpu: 0 };
      k.n += 1;
      k.cpu += (task.tdur ?? task.dur) / 1000;
      kinds.set(key, k);
    }
    console.log(`main-thread tasks by what they ran (${frames} frames): count per frame, ms on a CPU per frame`);
    for (const [k, v] of [...kinds.entries()].sort((a, b) => b[1].n - a[1].n).slice(0, 20)) {
      console.log(`  ${(v.n / frames).toFixed(2).padStart(6)} ${(v.cpu / frames).toFixed(2).padStart(6)}  ${k}`);
    }
  }
  const stamps = events.filter((e) => e.name === 'TimeStamp').sort((a, b) => a.ts - b.ts);
  const begins = mainFrames.map((f) => f.ts).sort((a, b) => a - b);
  for (const f of slowest) {
    const top = [...f.self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
    const next = begins.find((ts) => ts > f.ts) ?? Infinity;
    const marks = stamps.filter((e) => e.ts >= f.ts && e.ts < next).map((e) => e.args?.data?.message ?? '');
    console.log(
      `  frame at ${((f.ts - mainFrames[0].ts) / 1000).toFixed(0)} ms: busy ${(f.busy / 1000).toFixed(1)} ms ` +
        `(${(f.cpu / 1000).toFixed(1)} on a CPU): ` +
        top.map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`).join(', ') +
        (marks.length > 0 ? `; ${marks.join('; ')}` : ''),
    );
  }
  if (process.env.INVALIDATIONS === '1') {
    /** @type {Map<string, number>} */
    const why = new Map();
    for (const e of events) {
      if (!/InvalidationTracking$/.test(e.name)) continue;
      const d = e.args?.data ?? {};
      const key = `${e.name} ${d.nodeName ?? ''} ${d.changedAttribute ? `[${d.changedAttribute}]` : ''} ${d.reason ?? ''}`;
      why.set(key, (why.get(key) ?? 0) + 1);
    }
    console.log(`invalidations per frame (${frames} frames)`);
    for (const [k, v] of [...why.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
      console.log(`  ${(v / frames).toFixed(2).padStart(7)}  ${k}`);
    }
    const paints = events
      .filter((e) => e.name === 'Paint' && e.ph === 'X')
      .map((e) => e.dur / 1000)
      .sort((a, b) => a - b);
    if (paints.length > 0) {
      const at = (/** @type {number} */ p) => paints[Math.min(paints.length - 1, Math.floor(p * paints.length))].toFixed(1);
      console.log(`Paint: ${paints.length} events, p50 ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)} ms`);
    }
  }
  console.log(`DOM changes per frame (${frames} frames)`);
  for (const [k, v] of mutations.sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(`  ${(v / frames).toFixed(2).padStart(7)}  ${k}`);
} finally {
  await browser.close();
}
