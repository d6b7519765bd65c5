// @ts-check
/**
 * Registers the built site's service worker (offline/sw.js, written to
 * dist/sw.js) once the page is ready, tells it what the page loaded (its
 * wasm module) once it is active, and shows "A new version is
 * available. Reload" when a new version has been fetched and waits.
 * Reload tells the waiting worker to take over, and the page loads again
 * when it has: until then every file still comes from the old version.
 *
 * Only the site build loads this module (scripts/build/site/build.mjs adds
 * it to the page's bundle): the development page, served from the
 * repository, never registers a worker, and neither does a page opened
 * from file://. An embed (`?embed=1`) registers it too (so it works
 * offline) but shows no notice: it takes the new version when no page of
 * the old one is open. www/offline/sw.js, top comment.
 * @module offline/register
 */

import { isEmbed } from '../shared/url.js';
import { pageReady } from '../shared/lazy-panel.js';

/**
 * Shows the notice (once) with its Reload button.
 * @param {ServiceWorker} waiting the new version's worker
 */
function showNotice(waiting) {
  if (isEmbed(window.location.search) || document.querySelector('[data-testid="update-notice"]')) return;
  const notice = document.createElement('div');
  notice.className = 'update-notice';
  notice.dataset.testid = 'update-notice';
  notice.setAttribute('role', 'status');
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.testid = 'update-reload';
  button.textContent = 'Reload';
  button.addEventListener('click', () => {
    button.disabled = true;
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload());
    waiting.postMessage({ type: 'skip-waiting' });
  });
  notice.append('A new version is available. ', button);
  document.body.append(notice);
}

/**
 * Watches `registration` for a new version that has finished installing
 * while an older one controls this page.
 * @param {ServiceWorkerRegistration} registration
 */
function watch(registration) {
  const offer = () => {
    if (registration.waiting && navigator.serviceWorker.controller) showNotice(registration.waiting);
  };
  offer();
  registration.addEventListener('updatefound', () => {
    const next = registration.installing;
    next?.addEventListener('statechange', () => {
      if (next.state === 'installed') offer();
    });
  });
}

/**
 * Tells the active worker what this page loaded before the worker served
 * it (the player module of its family, a panel opened early), for its
 * cache (offline/sw.js, keep): it keeps the site's files among them.
 * @param {ServiceWorkerRegistration} registration
 */
function keepLoaded(registration) {
  const urls = performance.getEntriesByType('resource').map((e) => e.name);
  registration.active?.postMessage({ type: 'keep', urls });
}

if ('serviceWorker' in navigator && /^https?:$/.test(window.location.protocol)) {
  pageReady()
    .then(() => navigator.serviceWorker.register(new URL('sw.js', document.baseURI), { updateViaCache: 'none' }))
    .then((registration) => {
      watch(registration);
      navigator.serviceWorker.ready.then(keepLoaded, () => {});
    })
    .catch((e) => console.warn(`election playground: offline use is not available (${e instanceof Error ? e.message : e})`));
}
