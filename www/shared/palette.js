// @ts-check
/**
 * Colours of the page, from the Okabe-Ito palette (distinguishable with
 * the common colour-vision deficiencies). Colour is never the only cue:
 * every role is also written next to its node and every kind is named in
 * the legend.
 * @module palette
 */

/** Role fill colours, keyed by the core's role names (shared/names.js);
 * crashed nodes are grey whatever their role was. */
export const ROLE_COLOURS = Object.freeze({
  leader: '#E69F00', // orange
  candidate: '#56B4E9', // sky blue
  follower: '#009E73', // bluish green
  service: '#CC79A7', // reddish purple: a coordination service or storage, not a participant
  observer: '#A8DCCB', // pale bluish green, drawn as a hexagon: follows the leader, never votes
  crashed: '#999999', // grey
});

/**
 * Message kind colours, by the kind's index in the algorithm's kinds as
 * the wasm lists them (`algorithms()[i].kinds`, `Playground.kinds`, the
 * `kind` column of the flight and trace rows). This is the only copy:
 * every view colours a kind through `kindColour` (and shapes it through
 * `kindMark`). No kind shares a hue with a role (`ROLE_COLOURS`: orange,
 * sky blue, bluish green, reddish purple): the kinds take violet,
 * vermillion, yellow and the theme's ink (the Okabe-Ito colours the roles
 * leave, with violet for Okabe-Ito's blue, whose hue is sky blue's).
 * Algorithms with more kinds than colours go round again with another
 * mark (see `kindMark`); every kind is named in the legends.
 */
const KIND_COLOURS = Object.freeze([
  '#8E6BD1', // violet (hue 261; sky blue is 202)
  '#D55E00', // vermillion
  '#F0E442', // yellow (outlined in dark: it is faint on a light canvas)
  'ink', // the theme's ink: near black, near white in the dark theme
]);

/** The ways a kind's arrow is marked, round by round of the colours. */
export const KIND_MARKS = Object.freeze(/** @type {const} */ (['plain', 'dot', 'bar']));

/**
 * The colour of message kind `index` (the ink one is the theme's `INK`
 * now, for canvases).
 * @param {number} index
 * @returns {string}
 */
export function kindColour(index) {
  const c = KIND_COLOURS[index % KIND_COLOURS.length];
  return c === 'ink' ? INK : c;
}

/**
 * The colour of message kind `index` for CSS: the ink one follows the
 * theme (`var(--ink)`).
 * @param {number} index
 * @returns {string}
 */
export function kindCss(index) {
  const c = KIND_COLOURS[index % KIND_COLOURS.length];
  return c === 'ink' ? 'var(--ink)' : c;
}

/**
 * How kind `index`'s arrow is marked besides its colour: `plain` in the
 * first round of colours, then with a `dot` at its tail, then a `bar`
 * (in the space-time diagram: solid, dashed, dotted; see `kindDash`).
 * @param {number} index
 * @returns {'plain' | 'dot' | 'bar'}
 */
export function kindMark(index) {
  return KIND_MARKS[Math.floor(index / KIND_COLOURS.length) % KIND_MARKS.length];
}

/**
 * The dash of kind `index`'s lines where it has no arrowhead marks (the
 * space-time diagram): by its mark.
 * @param {number} index
 * @returns {number[]}
 */
export function kindDash(index) {
  const mark = kindMark(index);
  return mark === 'dot' ? [6, 3] : mark === 'bar' ? [2, 2.5] : [];
}

/**
 * Whether kind `index`'s colour is so light that shapes in it need a
 * dark outline on a light canvas (yellow).
 * @param {number} index
 * @returns {boolean}
 */
export function kindIsLight(index) {
  return KIND_COLOURS[index % KIND_COLOURS.length] === '#F0E442';
}

/**
 * The start of a message-kind row in a list: its colour swatch and its
 * name (the metrics panel and the status panel both list kinds).
 * @param {string} kind
 * @param {number} index the kind's index in the algorithm's kinds
 * @returns {[HTMLSpanElement, HTMLSpanElement]}
 */
export function kindLabel(kind, index) {
  const swatch = document.createElement('span');
  swatch.className = 'swatch swatch-message';
  swatch.dataset.mark = kindMark(index);
  swatch.style.setProperty('background-color', kindCss(index));
  const name = document.createElement('span');
  name.className = 'kind-name';
  name.textContent = kind;
  return [swatch, name];
}

/**
 * How a node's pending timer is drawn, by timer class code (the node
 * rows' `timer_class`, an index into the wasm's `timer_classes()`): the
 * dash of its countdown arc, in multiples of the arc's width (solid for
 * the election timeout, the one most lessons are about). Not colour:
 * the arc is drawn in the nodes' ink on the node's rim, over every role
 * colour; the legend shows each dash with its label from the wasm.
 */
const TIMER_DASHES = Object.freeze([
  [], // election timeout: solid
  [2.2, 1.4], // heartbeat: dashes
  [0.01, 1.9], // reply wait: dots
  [3.5, 1.3, 0.01, 1.3], // retry or delay: dash-dot
  [5, 2], // lease renewal: long dashes
  [1, 1], // lease expiry: fine dashes
  [3.5, 1.3, 0.01, 1.3, 0.01, 1.3], // resource write: dash-dot-dot
  [0.01, 1.2], // other: dense dots
]);

/**
 * The dash of timer class `code`'s countdown arc, in multiples of the
 * arc's width (round caps: `0.01` is a dot).
 * @param {number} code
 * @returns {readonly number[]}
 */
export function timerDash(code) {
  return TIMER_DASHES[code % TIMER_DASHES.length];
}

/** Ink for text and outlines drawn on the canvas. */
export let INK = '#1a1a1a';
/** Faint ink for tracks and guides. */
export let FAINT = '#b8b8b8';

/** Cut links: vermillion, the palette's red. */
export const CUT = '#D55E00';

/**
 * Partition group colours: a pale fill for the region and a stronger line
 * for its outline and label, by group index (side A, B, ...).
 */
const GROUP_COLOURS = Object.freeze([
  { fill: 'rgba(0, 114, 178, 0.10)', line: '#0072B2' }, // blue
  { fill: 'rgba(230, 159, 0, 0.14)', line: '#A66F00' }, // orange, darkened for the outline
  { fill: 'rgba(204, 121, 167, 0.14)', line: '#A8457E' }, // reddish purple
  { fill: 'rgba(0, 158, 115, 0.12)', line: '#00795A' }, // bluish green
]);

/**
 * The colours of partition group `index`.
 * @param {number} index
 * @returns {{fill: string, line: string}}
 */
export function groupColour(index) {
  return GROUP_COLOURS[index % GROUP_COLOURS.length];
}

/** Ink on a node's own fill and on the white badges: dark in every theme. */
export const NODE_INK = '#1a1a1a';
/** Background of the canvases (the theme's `--canvas`). */
export let CANVAS = '#fcfcfb';
/** Ground of labels and tags drawn on a canvas (the theme's `--paper`). */
export let PAPER = '#ffffff';
/** Secondary canvas text (the theme's `--muted`). */
export let MUTED = '#6b6b6b';

/**
 * Sets the theme colours of the canvases. INK, FAINT, CANVAS, PAPER and
 * MUTED are live bindings, so every drawing module sees the new values on
 * its next draw. Called by appearance.js once per theme change.
 * @param {{ink: string, faint: string, canvas: string, paper: string, muted: string}} t
 */
export function setCanvasTheme(t) {
  INK = t.ink;
  FAINT = t.faint;
  CANVAS = t.canvas;
  PAPER = t.paper;
  MUTED = t.muted;
}
