// @ts-check
/**
 * The embed's control bar, laid out the same way for a single run and a
 * comparison: the controls `controls=` asks for, in a fixed order, the
 * scrubber on its own between the buttons and the readouts.
 * @module embed/bar
 */

import { h } from '../shared/dom.js';

/**
 * Fills `bar` with the controls named in `shows` and then `tail`.
 * @param {HTMLElement} bar
 * @param {Set<string>} shows the `controls=` names
 * @param {Record<'play' | 'step' | 'reset' | 'scrubber' | 'speed' | 'faults', HTMLElement>} controls
 * @param {HTMLElement[]} tail what follows the controls (time, status, open link)
 */
export function layoutBar(bar, shows, controls, tail) {
  const buttons = h('span', { class: 'embed-controls' });
  for (const name of /** @type {const} */ (['play', 'step', 'reset', 'scrubber', 'speed', 'faults'])) {
    if (!shows.has(name)) continue;
    if (name === 'scrubber') bar.append(buttons, controls[name]);
    else buttons.append(controls[name]);
  }
  if (!shows.has('scrubber')) bar.append(buttons);
  bar.append(...tail);
}
