// @ts-check
/**
 * Entry of the standalone page's one bundle (scripts/build/standalone.mjs):
 * the standalone start first (boot.js: the page's text kept, the wasm
 * taken from the inline block), then the page on the one stage
 * (stage/start.js), opening the inline scenario (standalone/inlined.js).
 * The site's lazily loaded panels are left out: they need workers (see
 * boot.js).
 * @module standalone/entry
 */

import './boot.js';
import { startPlayground } from '../stage/start.js';
import { wireStandaloneDownload } from './control.js';
import { standaloneRequest } from './inlined.js';

startPlayground({
  embed: () => import('../embed/embed.js'),
  compare: () => import('../compare/compare.js'),
  download: wireStandaloneDownload,
  request: standaloneRequest,
});
