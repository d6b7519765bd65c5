// @ts-check
/**
 * The page's small DOM helpers, one copy each: finding elements (by id or
 * `data-testid`, failing loudly when the page shell lacks one), making
 * elements (text goes in as text nodes, never as HTML), writing readout
 * text cheaply, the message of anything thrown and the page's error box.
 *
 * Writing readout text cheaply: the readouts (time, counts, hash) are
 * rewritten several times a second while a run plays. Setting
 * `textContent` replaces the element's text node, so the browser makes a
 * new layout object and recalculates its style; changing the data of the
 * text node already there only re-lays out that text (`setText`).
 *
 * Nothing here touches the document when imported, so workers may import
 * `messageOf`.
 * @module shared/dom
 */

/**
 * The page element with id `id`.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function el(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`page element #${id} is missing`);
  return found;
}

/**
 * Finds an element by `data-testid`.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byTestId(id) {
  const found = document.querySelector(`[data-testid="${id}"]`);
  if (!(found instanceof HTMLElement)) throw new Error(`page element [data-testid=${id}] is missing`);
  return found;
}

/**
 * Creates an element with attributes (booleans as present/absent) and
 * children (strings become text).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | undefined>} [attrs]
 * @param {(Node | string)[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? '' : String(v));
  }
  node.append(...children);
  return node;
}

/**
 * Whether any of a box is inside the window (touching its edge is not):
 * what the views ask before drawing while a run plays (cluster/view.js,
 * spacetime/view.js), from the box's place on scrolling and resizing
 * rather than an IntersectionObserver, whose check costs every frame.
 * @param {DOMRect} box
 * @returns {boolean}
 */
export function onScreen(box) {
  return box.height > 0 && box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
}

/**
 * Sets attribute `name` of `node` when it differs: a write of the same
 * value still counts as a change for the browser's style invalidation
 * and for observers (a compare view rewrote its play button's and
 * slider's attributes every frame).
 * @param {Element} node
 * @param {string} name
 * @param {string} value
 */
export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * Sets `node`'s text when it differs: in place when `node` holds exactly
 * one text node, else by `textContent`.
 * @param {HTMLElement} node
 * @param {string} text
 */
export function setText(node, text) {
  const only = node.firstChild;
  if (only && only === node.lastChild && only.nodeType === Node.TEXT_NODE) {
    const t = /** @type {Text} */ (only);
    if (t.data !== text) t.data = text;
    return;
  }
  if (node.textContent !== text) node.textContent = text;
}

/**
 * The message of anything thrown (the core throws `Error`s whose message
 * names the scenario field).
 * @param {unknown} e
 * @returns {string}
 */
export function messageOf(e) {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Shows problems in the page's error box (`[data-testid=error]`), one
 * paragraph each; hidden when there are none.
 * @param {string[]} problems
 */
export function showProblems(problems) {
  const box = byTestId('error');
  box.replaceChildren(...problems.map((p) => h('p', {}, p)));
  box.hidden = problems.length === 0;
}
