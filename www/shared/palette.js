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
  crashed: '#999999', // grey
});

/**
 * Message kind colours, by the kind's index in the algorithm's kinds as
 * the wasm lists them (`algorithms()[i].kinds`, `Playground.kinds`, the
 * `kind` column of the flight and trace rows). This is the only copy:
 * every view colours a kind through `kindColour`. The roles' colours come last so a
 * message rarely shares a colour with a node.
 */
const KIND_COLOURS = Object.freeze([
  '#0072B2', // blue
  '#CC79A7', // reddish purple
  '#D55E00', // vermillion
  '#000000', // black
  '#F0E442', // yellow
  '#56B4E9', // sky blue
  '#009E73', // bluish green
  '#E69F00', // orange
]);

/**
 * The colour of message kind `index`.
 * @param {number} index
 * @returns {string}
 */
export function kindColour(index) {
  return KIND_COLOURS[index % KIND_COLOURS.length];
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
  swatch.style.setProperty('background-color', kindColour(index));
  const name = document.createElement('span');
  name.className = 'kind-name';
  name.textContent = kind;
  return [swatch, name];
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
