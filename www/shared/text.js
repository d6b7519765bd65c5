// @ts-check
/**
 * Writing readout text cheaply: the readouts (time, counts, hash) are
 * rewritten several times a second while a run plays. Setting
 * `textContent` replaces the element's text node, so the browser makes a
 * new layout object and recalculates its style; changing the data of the
 * text node already there only re-lays out that text.
 * @module text
 */

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
