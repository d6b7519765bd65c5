// @ts-check
/**
 * Entry of the page (index.html): the full page, or with `?embed=1` the
 * embed (embed/embed.js, loaded only then), on the one stage
 * (stage/start.js, stage/page.js).
 * @module main
 */

import { startPlayground } from './stage/start.js';

startPlayground({ embed: () => import('./embed/embed.js') });
