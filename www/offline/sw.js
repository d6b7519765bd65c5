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
 * The site build that writes sw.js: scripts/build/site/build.mjs; the detail:
 *
 * ## The service worker
 *
 * **The service worker** (`www/offline/sw.js`, registered by
 * `offline/register.js` once the page is ready, only in the built site and
 * only over http(s); the development page never loads `register.js`):
 *
 * - *install*: every file of its version into a cache named by the scope
 *   and the version (two sites on one origin never touch each other's
 *   caches), fetched with `cache: 'no-cache'` so an HTTP-cached page of
 *   the last version never lands in it. It never takes over on its own.
 * - *fetch*: a GET for one of its files is answered from its own version's
 *   cache only; a page address (any query: `?algorithm=raft&nodes=7`, the
 *   folder itself) gets the cached page, which reads the query and the
 *   `#s=` fragment as ever. Anything else goes to the network. So with no
 *   network, after one visit, the page, links, the embed, the lazy panels,
 *   their workers and the wasm all load; dedicated workers are controlled
 *   by the page's worker, so their wasm comes from the cache too.
 * - *update*: the browser checks `sw.js` on navigation (and
 *   `register()` does, `updateViaCache: 'none'`); a new version installs
 *   beside the old one and waits. Meanwhile the old worker keeps serving
 *   the old version's files to every open page (never a mix), and the page
 *   shows "A new version is available. Reload"
 *   (`data-testid=update-notice`, its button `update-reload`; not in an
 *   embed, which takes the new version once no page of the old one is
 *   open). Reload posts `skip-waiting`; the new worker activates, deletes
 *   this site's other caches, claims the pages, and the page reloads on
 *   `controllerchange`.
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
