// Where a playing page spends its main-thread time: runs one scenario for a
// few seconds under the Chromium CPU profiler and prints the functions with
// the most self time (and the files they are in). A tool for finding what
// to speed up, not a test; run it by hand against a served repo:
//   BASE_URL=http://127.0.0.1:8000 node scripts/bench/browser/profile-frame.js '/?algorithm=raft&nodes=256&seed=1&heartbeat_ms=12&latency_ms=20-80&until_ms=60000&at=3000' 0
// (the path to open, then log10 of the play speed; PROFILE_MS sets how long,
// SCROLL=1 scrolls the space-time diagram into view first).
import { launchBrowser } from '../../../tests/browser/helpers.js';
import { openAtSpeed, pressPlay, scrollToDiagram } from '../../../tests/browser/page.js';

const path = process.argv[2] || '/?algorithm=raft&nodes=256&seed=1&heartbeat_ms=12&latency_ms=20-80&until_ms=60000&at=3000';
const speed = Number(process.argv[3] || 0);
const browser = await launchBrowser();
try {
  const page = await openAtSpeed(browser, path, speed);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  // SCROLL=1: with the space-time diagram scrolled into view (page.click
  // would scroll the Play button back into view, so it is pressed in the page).
  if (process.env.SCROLL) await scrollToDiagram(page);
  await pressPlay(page);
  await cdp.send('Profiler.start');
  await page.waitForTimeout(Number(process.env.PROFILE_MS || 5000));
  const { profile } = await cdp.send('Profiler.stop');
  /** @type {Map<number, any>} */
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<string, number>} */
  const self = new Map();
  const dts = profile.timeDeltas;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const f = n.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    const dt = (dts[i] ?? 0) / 1000;
    total += dt;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP || 30));
  // CALLERS=name: the call stacks (outermost last) in which `name` ran.
  if (process.env.CALLERS) {
    /** @type {Map<number, number>} */
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    /** @type {Map<string, number>} */
    const stacks = new Map();
    profile.samples.forEach((id, i) => {
      if (!byId.get(id).callFrame.functionName.includes(process.env.CALLERS)) return;
      const names = [];
      for (let at = parent.get(id); at !== undefined && names.length < 12; at = parent.get(at)) {
        const f = byId.get(at).callFrame;
        names.push(f.functionName.slice(0, 60) || '(anon)');
      }
      const key = names.join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + (dts[i] ?? 0) / 1000);
    });
    for (const [k, v] of [...stacks.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`${v.toFixed(1)} ms: ${k}`);
  }
  console.log(`self time over ${total.toFixed(0)} ms of profile`);
  for (const [k, v] of rows) console.log(`${v.toFixed(1).padStart(9)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
} finally {
  await browser.close();
}
