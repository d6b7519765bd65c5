// @ts-check
/**
 * A tiny element builder for the Experiments panel: text goes in as text
 * nodes, never as HTML.
 * @module experiments/dom
 */

/**
 * Creates an element with attributes (`dataset.x` as `data-x`, booleans
 * as present/absent) and children (strings become text).
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
 * Offers `text` as a file download.
 * @param {string} name file name
 * @param {string} type MIME type
 * @param {string} text
 */
export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
