// @ts-check
/**
 * The service worker of the built site (dist/sw.js; never registered in
 * development, see offline/register.js): the site keeps working offline
 * after one visit, and a new version never mixes with the old one.
 *
 * - Install: fetch every file of this version (the list and the version
 *   are written in by scripts/build/site/build.mjs as `__SITE__`) into a
 *   cache of its own, named by the scope and the version. It does not
 *   take over by itself: while an older worker serves open pages, this
 *   one waits (the page shows "A new version is available").
 * - Fetch: a GET for one of this version's files is answered from this
 *   version's cache only (never another version's); a page address
 *   (`index.html?algorithm=raft`, the folder itself) is answered with
 *   the cached page whatever its query. Anything else goes to the network.
 * - Activate (the first install, or after the page's Reload button sent
 *   `skip-waiting`): delete this site's caches of other versions, and
 *   control the open pages.
 * docs/ARCHITECTURE.md, The site build.
 * @module offline/sw
 */

/** @type {{version: string, files: string[]}} */
// @ts-ignore: defined by the site build (esbuild `define`)
const SITE = __SITE__;

/** @type {any} */
const sw = self;

/** This site's caches start with this (two sites on one origin keep apart). */
const PREFIX = `election-playground ${sw.registration.scope} `;
const CACHE = `${PREFIX}${SITE.version}`;

sw.addEventListener('install', (/** @type {any} */ event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // no-cache: revalidate with the server, so an HTTP-cached page of
      // the previous version never lands in this version's cache.
      cache.addAll(SITE.files.map((f) => new Request(f, { cache: 'no-cache' }))),
    ),
  );
});

sw.addEventListener('activate', (/** @type {any} */ event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener('message', (/** @type {MessageEvent} */ event) => {
  if (event.data?.type === 'skip-waiting') sw.skipWaiting();
});

sw.addEventListener('fetch', (/** @type {any} */ event) => {
  /** @type {Request} */
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!url.href.startsWith(sw.registration.scope)) return;
  let key = request;
  if (request.mode === 'navigate') {
    // A page address: its query is the scenario, which the page reads.
    const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
    key = new Request(new URL(path, url.origin).href);
  }
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(key))
      .then((hit) => hit ?? fetch(request)),
  );
});
