// @ts-check
/**
 * The rows of "Messages by kind" (the Now tab): each kind's swatch, name
 * and count of messages sent. Made by the status view (panels/status.js)
 * when the run's kinds change, and first by the first picture
 * (first/picture.js) from the table's kinds of the address's algorithm,
 * which the status view then keeps: the first paint has the rows the page
 * shows.
 * @module panels/kind-rows
 */

import { kindLabel } from '../shared/palette.js';

/**
 * The count of each kind in `list`, its rows made for `kinds` unless it
 * already has them (`data-kinds` says for which).
 * @param {HTMLElement} list the `<ul>` of message kinds
 * @param {string[]} kinds
 * @returns {HTMLElement[]} each kind's count, in order
 */
export function kindRows(list, kinds) {
  const key = kinds.join(',');
  if (list.dataset.kinds === key) return [...list.querySelectorAll(':scope > li > .kind-count')].map((e) => /** @type {HTMLElement} */ (e));
  list.dataset.kinds = key;
  list.replaceChildren();
  return kinds.map((kind, i) => {
    const li = document.createElement('li');
    const [swatch, name] = kindLabel(kind, i);
    const count = document.createElement('span');
    count.className = 'kind-count';
    count.dataset.testid = `sent-${kind}`;
    count.textContent = '0';
    li.append(swatch, name, count);
    list.append(li);
    return count;
  });
}
