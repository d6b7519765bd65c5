// @ts-check
/**
 * The first picture (issue 30): the page's look before any module or the
 * wasm has loaded. The site build inlines this file, bundled with what it
 * imports and the table it wrote from the wasm (`__FIRST__`, a
 * first/scenario.js `FirstTable`), at the end of the built index.html's
 * body (scripts/build/site/first-picture.mjs; allowed by its hash in the
 * page's CSP), so it runs as soon as the style sheet is in, before the
 * first paint. It
 *
 * - puts the theme the user picked on the page and names it on the theme
 *   button (shared/appearance.js), fills the role legend
 *   (cluster/legend.js) and puts the speed slider where the page opens
 *   (player/speed.js): the first paint has them as they stay;
 * - draws the address's scenario at time 0 (first/scenario.js) with the
 *   cluster's own drawing code (cluster/draw.js `drawStill`, the canvas
 *   size, the theme's colours), on a canvas laid over the cluster's
 *   (`.cluster-first`): the canvas's first frame, so when the cluster's
 *   layers have drawn it (cluster/layers.js, the worker) the picture is
 *   taken away (first/handoff.js) and nothing changes on the screen; with
 *   the caption the build knows for `/` and the presets, the opening
 *   prompt, the algorithm's summary and its rows of "Messages by kind";
 * - keeps a press of Play (or Space) made before the page is ready: the
 *   page plays once it is (first/handoff.js `playAskedEarly`).
 *
 * An address it cannot draw (first/scenario.js) is left to the wasm; the
 * cluster's box says meanwhile that the run (or the comparison) loads.
 * In development (`DEV=1`) nothing inlines it: the page draws once the
 * wasm is in.
 * @module first/picture
 */

import { applyStoredTheme, labelThemeButton, readColours } from '../shared/appearance.js';
import { drawLabels, drawStill, layoutNodes } from '../cluster/draw.js';
import { decodeNodes } from '../cluster/node-rows.js';
import { roleLegend } from '../cluster/legend.js';
import { firstScenario, stateAtZero } from './scenario.js';
import { EARLY_PLAY, LOADING_CLASS } from './handoff.js';
import { compareParam, isEmbed } from '../shared/url.js';
import { kindRows } from '../panels/kind-rows.js';
import { DEFAULT_SPEED, formatSpeed, placeSpeedSlider } from '../player/speed.js';

/** @type {import('./scenario.js').FirstTable} */
// @ts-ignore: defined by the site build (esbuild `define`)
const TABLE = __FIRST__;

/**
 * Draws `s` at time 0 over the cluster canvas, with the opening prompt
 * and the caption the build knows.
 * @param {import('./scenario.js').FirstScenario} s
 */
function draw(s) {
  const cluster = document.getElementById('cluster');
  // The page has started drawing meanwhile (a link inflated late).
  if (!(cluster instanceof HTMLCanvasElement) || document.body.dataset.ready === 'true') return;
  const width = cluster.clientWidth;
  const height = cluster.clientHeight;
  if (width === 0 || height === 0) return;
  const state = stateAtZero(TABLE, s);
  const dpr = window.devicePixelRatio || 1;
  // The cluster canvas's own box (fractional px, as its backing is
  // stretched to it), so the picture is scaled as the canvas will be.
  const box = cluster.getBoundingClientRect();
  // Two canvases, as the page layers them (cluster/layers.js): the nodes,
  // and their words over them, so the two are blended as the page's are.
  // The nodes' layer is stretched to the cluster canvas's box as that
  // canvas is; the words' layer, as the page's, is its whole CSS px
  // (cluster/layers.js `resize`).
  const layer = (/** @type {{width: number, height: number}} */ css) => {
    const c = document.createElement('canvas');
    c.className = 'cluster-first';
    c.setAttribute('aria-hidden', 'true');
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
    c.style.setProperty('width', `${css.width}px`);
    c.style.setProperty('height', `${css.height}px`);
    const ctx = c.getContext('2d');
    ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { c, ctx };
  };
  const still = layer(box);
  const words = layer({ width: Math.round(width * dpr) / dpr, height: Math.round(height * dpr) / dpr });
  if (!still.ctx || !words.ctx) return;
  const nodes = decodeNodes({ rows: state.rows, col: state.col, roles: TABLE.roles });
  const g = layoutNodes(width, height, nodes.length, state.layout, state.ring, state.participants);
  const scene = /** @type {any} */ ({ nodes, cuts: [], leader: undefined });
  drawStill(still.ctx, g, scene);
  drawLabels(words.ctx, g, scene);
  showRoles?.(/** @type {any} */ ({ nodes }));
  cluster.after(still.c, words.c);
  // The algorithm's words beside it, as the page writes them.
  const algorithm = TABLE.algorithms[s.algorithm];
  const kinds = document.getElementById('kinds');
  if (kinds) kindRows(kinds, algorithm.kinds);
  const summary = document.getElementById('algorithm-summary');
  if (summary) summary.textContent = algorithm.summary;
  // As the cluster view marks its box (nodes in the middle move the prompt).
  cluster.parentElement?.classList.toggle('centre-taken', nodes.length > state.participants);
  const prompt = document.getElementById('start-prompt');
  if (prompt) prompt.hidden = false;
  // For the benchmarks (scripts/bench/browser/bench-anchor.js).
  performance.mark('playground-first-picture');
}

/** Shows the caption the build knows for this address (`/`, a preset). */
function caption() {
  const params = new URLSearchParams(window.location.search);
  const only = [...params.keys()];
  const key =
    window.location.hash !== '' ? null : only.length === 0 ? '' : only.length === 1 && only[0] === 'preset' ? `preset=${params.get('preset')}` : null;
  const text = key === null ? undefined : TABLE.captions[key];
  const shown = document.querySelector('#story > [data-testid=caption]');
  if (text && shown instanceof HTMLElement) {
    shown.textContent = text;
    shown.hidden = false;
  }
}

/**
 * Says, in the cluster's box, that the run is on its way, where the first
 * picture cannot draw it (a comparison, `at=`, a random ring...): the
 * box would otherwise stay empty until the wasm is in, seconds on a
 * phone's link. The note is a `.cluster-first` too, so the cluster's
 * first drawing takes it away (first/handoff.js); a failure to start
 * does as well (stage/start.js). Not in an embed, which builds its own
 * page.
 */
function sayLoading() {
  const cluster = document.getElementById('cluster');
  const search = window.location.search;
  if (!(cluster instanceof HTMLCanvasElement) || document.body.dataset.ready === 'true' || isEmbed(search)) return;
  const note = document.createElement('p');
  note.className = `cluster-first ${LOADING_CLASS}`;
  note.textContent = compareParam(search) !== null ? 'Loading the comparison…' : 'Loading the run…';
  cluster.after(note);
}

/** Keeps a press of Play or Space made before the page is ready. */
function keepEarlyPlay() {
  const play = document.getElementById('play');
  if (!play) return;
  const ask = () => {
    if (document.body.dataset.ready === 'true') return;
    const asked = play.dataset[EARLY_PLAY] !== 'true';
    play.dataset[EARLY_PLAY] = String(asked);
    play.setAttribute('aria-pressed', String(asked));
    play.textContent = asked ? 'Pause' : 'Play';
  };
  play.addEventListener('click', ask);
  document.addEventListener('keydown', (e) => {
    if (document.body.dataset.ready === 'true') return;
    const t = e.target;
    const typing = t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName));
    if (e.key !== ' ' || typing || e.ctrlKey || e.metaKey || e.altKey || t instanceof HTMLButtonElement) return;
    e.preventDefault();
    ask();
  });
}

applyStoredTheme();
const button = document.getElementById('theme-toggle');
if (button) labelThemeButton(button);
readColours();
const roles = document.getElementById('roles');
// The legend's occasional entries (service, observer) follow the nodes
// drawn, as the page's do (an extra node is a service from time 0).
const showRoles = roles ? roleLegend(roles) : null;
caption();
// The speed the page opens at, on its slider.
const speed = document.getElementById('speed');
if (speed instanceof HTMLInputElement) placeSpeedSlider(speed);
const speedOut = document.getElementById('speed-out');
if (speedOut) speedOut.textContent = formatSpeed(DEFAULT_SPEED);
keepEarlyPlay();
const asked = firstScenario(TABLE, window.location.search, window.location.hash);
if (asked instanceof Promise) asked.then((s) => (s ? draw(s) : sayLoading()));
else if (asked) draw(asked);
else sayLoading();
// Its work done (a link's drawing aside), it takes itself out of the
// document, which then holds no inline script (tests/browser/hostile.test.js).
document.currentScript?.remove();
