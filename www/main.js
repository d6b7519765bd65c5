// @ts-check
/**
 * Entry of the page (index.html): the full page, or with `?embed=1` the
 * embed (embed/embed.js, loaded only then), on the one stage
 * (stage/start.js, stage/page.js); compare mode (compare/compare.js) loads
 * on first use.
 * @module main
 */

import { startPlayground } from './stage/start.js';
import { wireStandaloneDownload } from './standalone/control.js';

startPlayground({
  embed: () => import('./embed/embed.js'),
  compare: () => import('./compare/compare.js'),
  download: wireStandaloneDownload,
});
