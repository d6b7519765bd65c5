// @ts-check
// A cold first visit under emulated network and CPU, for the load
// benchmarks (bench-load.js: the page alone; bench-anchor.js: the page
// against RaftScope): the two link profiles, the emulation of one of
// them on a new browser context, and the record of what crossed the wire.
//
// Each load is a cold one (a new browser context: empty cache, no
// compiled-code cache) with the DevTools protocol's network and CPU
// emulation set before navigating. Bytes are `encodedDataLength` of
// `Network.loadingFinished` (headers included, compressed as sent), the
// page's workers included (their requests share the page's emulated
// link; their CPU is not slowed).

/** @typedef {{name: string, down: number, up: number, rttMs: number, cpu: number}} Profile */
/** @typedef {{url: string, bytes: number, startMs: number, endMs: number}} Request */

/**
 * The link profiles, by the key a PROFILES list names them with.
 * - slow: Lighthouse's mobile throttling: 1.6 Mbps down (200,000 B/s),
 *   750 kbps up, 150 ms round trip, CPU slowed 4x;
 * - fast: 5 Mbps down and up (625,000 B/s), 28 ms round trip, CPU 1x.
 * @type {Record<string, Profile>}
 */
export const PROFILES = {
  slow: { name: 'slow (1.6 Mbps, 150 ms, CPU 4x)', down: 200_000, up: 93_750, rttMs: 150, cpu: 4 },
  fast: { name: 'fast (5 Mbps, 28 ms, CPU 1x)', down: 625_000, up: 625_000, rttMs: 28, cpu: 1 },
};

/**
 * The profiles a comma list names (e.g. the PROFILES variable), in its
 * order; an unknown name is an error that lists the known ones.
 * @param {string} list
 * @returns {[string, Profile][]}
 */
export function profilesNamed(list) {
  return list.split(',').map((key) => {
    const profile = PROFILES[key];
    if (!profile) throw new Error(`unknown profile ${key} (${Object.keys(PROFILES).join(', ')})`);
    return [key, profile];
  });
}

/**
 * In the page before any script: the time (ms from navigation start)
 * the body first says data-ready=true, as `window.__readyAt`.
 */
export function stampReady() {
  const w = /** @type {any} */ (window);
  const check = () => {
    if (w.__readyAt === undefined && document.body?.dataset.ready === 'true') {
      w.__readyAt = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

/**
 * Records one session's requests into `requests`.
 * @param {(method: string, handler: (e: any) => void) => void} on
 *   subscribes to the session's events
 * @param {Map<string, Request>} requests
 *   by request id; times on the monotonic clock of CDP, in ms
 * @param {string} prefix keeps ids of different sessions apart
 */
export function record(on, requests, prefix) {
  on('Network.requestWillBeSent', (e) => {
    requests.set(prefix + e.requestId, { url: e.request.url, bytes: 0, startMs: e.timestamp * 1000, endMs: Infinity });
  });
  on('Network.loadingFinished', (e) => {
    const r = requests.get(prefix + e.requestId);
    if (r) {
      r.bytes = e.encodedDataLength;
      r.endMs = e.timestamp * 1000;
    }
  });
}

/**
 * Emulates `profile` on the page and records the requests of the page
 * and of its workers. Chromium applies the page's network conditions to
 * its dedicated workers' requests too (checked: a page latency of 1 s
 * delays the cluster worker's imports by 1 s) but does not report them
 * on the page's session, nor can it slow a worker's CPU ("Operation is
 * only supported for pages"): each worker is attached (paused at start
 * until then) only to see its requests.
 * @param {import('playwright-core').CDPSession} cdp
 * @param {Profile} profile
 * @param {Map<string, Request>} requests
 */
export async function emulate(cdp, profile, requests) {
  record((m, h) => cdp.on(/** @type {any} */ (m), h), requests, 'page:');
  /** @type {Map<string, Map<string, (e: any) => void>>} */
  const children = new Map();
  let id = 1;
  /**
   * @param {string} sessionId
   * @param {string} method
   * @param {object} [params]
   */
  const sendTo = (sessionId, method, params = {}) =>
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: id++, method, params }) });
  cdp.on('Target.attachedToTarget', async (e) => {
    /** @type {Map<string, (e: any) => void>} */
    const handlers = new Map();
    children.set(e.sessionId, handlers);
    record((m, h) => handlers.set(m, h), requests, `${e.sessionId}:`);
    try {
      await sendTo(e.sessionId, 'Network.enable');
      await sendTo(e.sessionId, 'Runtime.runIfWaitingForDebugger');
    } catch {
      // a worker gone before it was attached
    }
  });
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const m = JSON.parse(e.message);
    if (m.method) children.get(e.sessionId ?? '')?.get(m.method)?.(m.params);
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.rttMs,
    downloadThroughput: profile.down,
    uploadThroughput: profile.up,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
}

/**
 * Opens `url` cold under `profile`: a new context (a phone-sized
 * viewport) with the `init` scripts added before any of the page's,
 * the emulation and the record on, navigated as far as the response's
 * commit. Close `context` when done.
 * @param {import('playwright-core').Browser} browser
 * @param {Profile} profile
 * @param {string} url
 * @param {(() => void)[]} init scripts run in the page before its own
 * @param {{serviceWorkers?: 'allow' | 'block'}} [options] `block`: no
 *   service worker (whose requests the page's emulated link does not
 *   slow: a page it controls would load on a fast link)
 */
export async function openCold(browser, profile, url, init, options = {}) {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, deviceScaleFactor: 1, ...options });
  for (const script of init) await context.addInitScript(script);
  const page = await context.newPage();
  /** @type {Map<string, Request>} */
  const requests = new Map();
  const cdp = await context.newCDPSession(page);
  await emulate(cdp, profile, requests);
  await page.goto(url, { waitUntil: 'commit' });
  return { context, page, requests };
}

/**
 * The recorded requests split at `ms` after the navigation request
 * (`url`) started: those finished by then and the rest.
 * @param {Map<string, Request>} requests
 * @param {string} url
 * @param {number} ms from navigation start, as the page's `performance.now()`
 */
export function splitAt(requests, url, ms) {
  const all = [...requests.values()];
  const nav = all.find((r) => r.url === url) ?? all[0];
  const start = nav.startMs;
  const before = all.filter((r) => r.endMs - start <= ms + 1);
  const after = all.filter((r) => !(r.endMs - start <= ms + 1));
  return { start, before, after };
}

/** @param {number[]} xs */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** @param {string} url a request's address, short: path and the start of the query */
export function short(url) {
  const u = new URL(url);
  return u.pathname + (u.search.length > 40 ? `${u.search.slice(0, 40)}…` : u.search);
}
