// @ts-check
/**
 * The service worker of the built site (dist/sw.js; never registered in
 * development, see offline/register.js): the site keeps working offline
 * after one visit, as far as it was used, without downloading what the
 * visitor did not ask for, and a new version never mixes with the old one.
 *
 * - Install: the shell of this version (the pages, their bundles and
 *   static chunks, the cluster worker; the list and the version are
 *   written in by scripts/build/site/build.mjs as `__SITE__`) into a cache
 *   of its own, named by the scope and the version. It does not take over
 *   by itself: while an older worker serves open pages, this one waits
 *   (the page shows "A new version is available").
 * - Keep: a page tells it what it loaded before the worker served it (its
 *   wasm module, offline/register.js), which goes into the cache too.
 * - Fetch: a GET for one of this version's files is answered from this
 *   version's cache (never another version's), else from the network and
 *   kept (cached on first use: a panel, another family's module, a
 *   worker's wasm); a page address (`index.html?algorithm=raft`, the
 *   folder itself) is answered with the cached page whatever its query.
 *   Anything else goes to the network.
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
 * - *install*: the shell of its version (the pages, their bundles and the
 *   chunks they import statically, the cluster worker) into a cache named
 *   by the scope and the version (two sites on one origin never touch
 *   each other's caches). A file under `assets/` (its name carries its
 *   content's hash) is fetched with `cache: 'force-cache'`: what the page
 *   has just loaded comes from the browser's HTTP cache, not a second
 *   download (issue 30: the worker used to fetch the whole site again,
 *   2.25 MB, 7.8 times the first render); a page with `cache: 'no-cache'`,
 *   so an HTTP-cached page of the last version never lands in it, and
 *   from the address an open window loaded it from (`./?algorithm=raft`
 *   for `index.html`): the HTTP cache has the page under that address, so
 *   a server that sends validators answers 304 and the page is not
 *   downloaded twice (it was, 29 KB, when the worker asked for
 *   `index.html`). It never takes over on its own.
 * - *keep*: once it is active, the page (`register.js`) posts the
 *   addresses it loaded before the worker served it (the player module of
 *   its family, what a panel opened early loaded); those of the site's
 *   files go into the cache the same way. A visit that opens nothing more
 *   downloads nothing more.
 * - *fetch*: a GET for one of its files is answered from its own version's
 *   cache; one not there yet is fetched and kept (cached on first use);
 *   a page address (any query: `?algorithm=raft&nodes=7`, the
 *   folder itself) gets the cached page, which reads the query and the
 *   `#s=` fragment as ever. Anything else goes to the network. So with no
 *   network, after a visit, whatever that visit used works again: the
 *   page and its links for the families it opened, the embed, the
 *   panels opened, their workers and their wasm; dedicated workers are
 *   controlled by the page's worker, so their wasm comes from the cache too.
 * - *update*: the browser checks `sw.js` on navigation (and
 *   `register()` does, `updateViaCache: 'none'`); a new version installs
 *   beside the old one and waits. Meanwhile the old worker keeps serving
 *   the old version's files to every open page (never a mix), and the page
 *   shows "A new version is available. Reload"
 *   (`data-testid=update-notice`, its button `update-reload`; not in an
 *   embed, which takes the new version once no page of the old one is
 *   open). Reload posts `skip-waiting`; the new worker activates, deletes
 *   this site's other caches, claims the pages, and the page reloads on
 *   `controllerchange`; what it loads then is kept as it is first used.
 * @module offline/sw
 */

/** @type {{version: string, files: string[], shell: string[]}} */
// @ts-ignore: defined by the site build (esbuild `define`)
const SITE = __SITE__;

/** @type {any} */
const sw = self;

/** This site's caches start with this (two sites on one origin keep apart). */
const PREFIX = `election-playground ${sw.registration.scope} `;
const CACHE = `${PREFIX}${SITE.version}`;
/** Addresses of this version's files. */
const FILES = new Set(SITE.files.map((f) => new URL(f, sw.registration.scope).href));

/**
 * The page file an address shows: the folder is its `index.html`; the
 * query (the scenario, which the page reads) and the fragment are not
 * part of it.
 * @param {URL} url
 * @returns {string}
 */
function pageFile(url) {
  const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
  return new URL(path, url.origin).href;
}

/**
 * The address each open window of this site loaded its page from, by the
 * page file (`index.html` for `./?algorithm=raft`): the browser's HTTP
 * cache holds the page under that address, not under `index.html`.
 * @returns {Promise<Map<string, string>>}
 */
async function pagesLoadedFrom() {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  /** @type {Map<string, string>} */
  const from = new Map();
  for (const w of windows) {
    const url = new URL(w.url);
    url.hash = '';
    if (url.href.startsWith(sw.registration.scope)) from.set(pageFile(url), url.href);
  }
  return from;
}

/**
 * Whether `href` is one of the site's files under `assets/` (its name
 * carries its content's hash), not a page.
 * @param {string} href
 */
const isAsset = (href) => new URL(href).pathname.includes('/assets/');

/**
 * How to fetch one of the site's files for the cache. A file under
 * `assets/` has its content's hash in its name, so any copy is this one:
 * from the browser's HTTP cache if there (what the page has just loaded;
 * no second download), else the network. A page keeps its name from
 * version to version: revalidated (an HTTP-cached page of the last version
 * never lands in this version's cache), at the address a window loaded it
 * from when one did (`loadedFrom`): with the server's validators that is
 * a 304 and the copy the page just loaded, not a second download of it.
 * @param {string} href
 * @param {Map<string, string>} loadedFrom page file -> the address a window loaded it from
 * @returns {Request}
 */
function forCache(href, loadedFrom) {
  if (isAsset(href)) return new Request(href, { cache: 'force-cache' });
  return new Request(loadedFrom.get(href) ?? href, { cache: 'no-cache' });
}

/**
 * Puts the site's files among `hrefs` that this version's cache does not
 * have yet into it.
 * @param {string[]} hrefs
 */
async function keep(hrefs) {
  const cache = await caches.open(CACHE);
  const wanted = [...new Set(hrefs)].filter((h) => FILES.has(h));
  const missing = [];
  for (const h of wanted) if (!(await cache.match(h))) missing.push(h);
  // Only a page is fetched at the address a window loaded it from.
  const loadedFrom = missing.every(isAsset) ? new Map() : await pagesLoadedFrom();
  await Promise.all(
    missing.map(async (h) => {
      const response = await fetch(forCache(h, loadedFrom));
      if (response.ok) await cache.put(h, response);
    }),
  );
}

sw.addEventListener('install', (/** @type {any} */ event) => {
  event.waitUntil(keep(SITE.shell.map((f) => new URL(f, sw.registration.scope).href)));
});

sw.addEventListener('activate', (/** @type {any} */ event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener('message', (/** @type {any} */ event) => {
  if (event.data?.type === 'skip-waiting') sw.skipWaiting();
  // What a page loaded before this worker served it (its wasm module).
  if (event.data?.type === 'keep' && Array.isArray(event.data.urls)) {
    event.waitUntil(keep(event.data.urls.filter((/** @type {unknown} */ u) => typeof u === 'string')));
  }
});

sw.addEventListener('fetch', (/** @type {any} */ event) => {
  /** @type {Request} */
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!url.href.startsWith(sw.registration.scope)) return;
  let key = request;
  // A page address: its query is the scenario, which the page reads.
  if (request.mode === 'navigate') key = new Request(pageFile(url));
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const hit = await cache.match(key);
      if (hit) return hit;
      const response = await fetch(request);
      // One of this version's files, first used: kept for next time
      // (offline too).
      const href = new URL(key.url).href.replace(/[?#].*$/, '');
      if (response.ok && FILES.has(href)) event.waitUntil(cache.put(href, response.clone()));
      return response;
    }),
  );
});
