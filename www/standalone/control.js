// @ts-check
/**
 * The "Download as a standalone page" button (Share): the run shown, at
 * its moment, as one html file that opens with no network. The code that
 * makes it (standalone/make.js) loads on the first click.
 * @module standalone/control
 */

import { messageOf } from '../shared/dom.js';

/**
 * @param {{button: HTMLElement, status: HTMLElement}} parts
 * @param {() => import('./fill.js').Lesson & {algorithm: string, seed: string}} current
 *   the run shown now (called on each click)
 */
export function wireStandaloneDownload(parts, current) {
  const { button, status } = parts;
  button.addEventListener('click', async () => {
    status.textContent = 'Making the standalone page…';
    try {
      const lesson = current();
      const { makeStandalone } = await import('./make.js');
      const name = await makeStandalone(lesson);
      const what = lesson.lesson ? 'this lesson, step by step,' : 'this run at this moment';
      status.textContent = `Saved ${name}: one file that opens ${what} with no network (attach it to an e-mail or a course page).`;
    } catch (e) {
      status.textContent = messageOf(e);
    }
  });
}
