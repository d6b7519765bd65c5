// @ts-check
/**
 * Times every call the page makes into wasm (each method of the
 * `Playground` handle) while the pathological run plays, and prints the
 * long ones with what the core did in them: events of the trace added,
 * messages sent, messages on the wire, checkpoints taken. A tool for
 * finding which single calls make a frame long, not a test.
 *
 * Usage: BASE_URL=http://127.0.0.1:8114 node scripts/bench/browser/sim-calls.js
 * (PATH_Q: the page's query, default the 1024-node Bully burst; FRAMES;
 * SCROLL=1 to scroll to the space-time diagram; OVER: ms, default 4).
 */
import { launchBrowser } from '../../../tests/browser/helpers.js';
import { openAtSpeed, pressPlay, scrollToDiagram } from '../../../tests/browser/page.js';

const PATH_Q = process.env.PATH_Q || '/?algorithm=bully&nodes=1024&seed=1&start=all&at=0';
const FRAMES = Number(process.env.FRAMES || 300);
const OVER = Number(process.env.OVER || 4);

const browser = await launchBrowser();
try {
  const page = await openAtSpeed(browser, PATH_Q, 0);
  if (process.env.SCROLL === '1') {
    await scrollToDiagram(page);
  }
  await page.waitForTimeout(300);
  await page.evaluate(async (over) => {
    const w = /** @type {any} */ (window);
    const mod = await import('/www/pkg/election_web.js');
    const proto = mod.Playground.prototype;
    const orig = {};
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (name === 'constructor' || !d || typeof d.value !== 'function') continue;
      orig[name] = d.value;
    }
    w.__calls = [];
    w.__frames = 0;
    const count = () => {
      w.__frames++;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    for (const [name, f] of Object.entries(orig)) {
      proto[name] = function (...args) {
        const before = {
          sent: orig.messages_sent.call(this),
          trace: orig.event_count.call(this),
          cps: orig.checkpoint_count.call(this),
        };
        const t0 = performance.now();
        const out = f.apply(this, args);
        const took = performance.now() - t0;
        if (took > over) {
          w.__calls.push({
            frame: w.__frames,
            name,
            args: args.map((a) => (typeof a === 'string' ? a.slice(0, 20) : a)),
            took,
            sent: orig.messages_sent.call(this) - before.sent,
            trace: orig.event_count.call(this) - before.trace,
            cps: orig.checkpoint_count.call(this) - before.cps,
            wire: orig.flight_count.call(this),
            now: orig.now_ms.call(this),
          });
        }
        return out;
      };
    }
  }, OVER);
  await pressPlay(page);
  while ((await page.evaluate(() => /** @type {any} */ (window).__frames)) < FRAMES) await page.waitForTimeout(200);
  await pressPlay(page);
  const calls = await page.evaluate(() => /** @type {any} */ (window).__calls);
  console.log(`wasm calls over ${OVER} ms in ${FRAMES} frames: ${calls.length}`);
  for (const c of calls) {
    console.log(
      `frame ${String(c.frame).padStart(4)} ${c.name}(${c.args.join(', ')}) ${c.took.toFixed(1)} ms: ` +
        `+${c.trace} trace rows, +${c.sent} sent, ${c.wire} on the wire, +${c.cps} checkpoints, now ${c.now} ms`,
    );
  }
  await page.close();
} finally {
  await browser.close();
}
