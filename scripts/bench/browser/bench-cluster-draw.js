// What drawing the cluster's moving layer costs where the cluster worker
// draws it (an OffscreenCanvas), which bench-frame.js does not see (it
// times the page's main thread): the messages on the wire (and, where the
// page has them, the nodes' timer arcs, apart) for 64 to 4,000 messages
// among 256 nodes on a 1000x750 canvas, drawn with the page's own modules
// and rasterized (a one-pixel read forces it): the least of three medians of
// 40 drawings each (other work on a shared machine only adds to them).
//
// Not a test; run it by hand against a served repo:
//   BASE_URL=http://127.0.0.1:8000 node scripts/bench/browser/bench-cluster-draw.js
import { baseUrl, launchBrowser } from '../../../tests/browser/helpers.js';

const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  // A plain page of the same origin (the server's listing of www/cluster/).
  await page.goto(`${baseUrl()}/www/cluster/`);
  const rows = await page.evaluate(async () => {
    const dots = await import('/www/cluster/flight-dots.js');
    const draw = await import('/www/cluster/draw.js');
    const arcs = await import('/www/cluster/timer-arcs.js').catch(() => null);
    const nodes = 256;
    const width = 1000;
    const height = 750;
    const g = draw.layoutNodes(width, height, nodes, 'cluster', []);
    const canvas = new OffscreenCanvas(width, height);
    const ctx = /** @type {OffscreenCanvasRenderingContext2D} */ (canvas.getContext('2d'));
    // A fixed pseudo-random wire (no Math.random: the same every run).
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const col = { id: 0, from: 1, to: 2, kind: 3, sent_ms: 4, arrive_ms: 5, lost: 6 };
    const timers = new Float64Array(4 * nodes);
    for (let id = 0; id < nodes; id++) timers.set([id, id % 3, 0, 100 + id], 4 * id);
    /** @type {{n: number, messages: number, arcs: number}[]} */
    const out = [];
    for (const n of [64, 500, 1000, 2000, 2500, 3500, 4000]) {
      const flightRows = new Float64Array(7 * n);
      for (let i = 0; i < n; i++) {
        const from = Math.floor(rand() * nodes);
        const to = (from + 1 + Math.floor(rand() * (nodes - 1))) % nodes;
        flightRows.set([i, from, to, i % 4, 0, 100, rand() < 0.01 ? 1 : 0], 7 * i);
      }
      const f = { rows: flightRows, width: 7, col };
      const style = { still: false, ink: '#1a1a1a' };
      /** @param {(now: number) => void} drawIt */
      const time = (drawIt) => {
        let best = Infinity;
        // The least of three medians: other work on the machine only adds.
        for (let round = 0; round < 3; round++) {
          const times = [];
          for (let k = 0; k < 50; k++) {
            const now = (k * 100) / 50;
            const t0 = performance.now();
            ctx.clearRect(0, 0, width, height);
            drawIt(now);
            ctx.getImageData(0, 0, 1, 1);
            if (k >= 10) times.push(performance.now() - t0);
          }
          times.sort((a, b) => a - b);
          best = Math.min(best, times[Math.floor(times.length / 2)]);
        }
        return best;
      };
      const old = dots.drawFlightRows.length === 6;
      out.push({
        n,
        messages: time((now) =>
          old
            ? /** @type {any} */ (dots.drawFlightRows)(ctx, g.points, g.radius, f, now, style)
            : /** @type {any} */ (dots.drawFlightRows)(ctx, g, f, now, style),
        ),
        arcs: arcs ? time((now) => arcs.drawTimerArcs(ctx, g, timers, now)) : 0,
      });
    }
    return out;
  });
  console.log('moving layer of 256 nodes on a 1000x750 OffscreenCanvas, drawn and rasterized, ms (least of three medians)');
  console.log('in flight  messages  timer arcs (256)');
  for (const r of rows) console.log(`${String(r.n).padStart(9)} ${r.messages.toFixed(2).padStart(9)} ${r.arcs.toFixed(2).padStart(9)}`);
} finally {
  await browser.close();
}
