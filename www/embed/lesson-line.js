// @ts-check
/**
 * What an embed opens (embed.js): a `#l=` lesson's scenario, a preset or
 * the scenario of its address, the default scenario with a message when
 * that fails; and, for a lesson, the line under the view that shows the
 * step of the current moment (`[data-testid=embed-lesson]`) and the full
 * playground's address of the lesson.
 * @module embed/lesson-line
 */

import { openRun } from '../shared/player-wasm.js';
import { presetPlayground } from '../panels/presets.js';
import { isLessonLink, lessonWasm, shownLesson } from '../panels/lessons.js';
import { h, messageOf, setText } from '../shared/dom.js';

/**
 * The embed's first run: the lesson's scenario for a `#l=` link, else a
 * preset or the address's scenario. A bad link or scenario opens the
 * default scenario and puts the reason first in `problems`.
 * @param {typeof import('../pkg/election_player.js')} wasm
 * @param {import('../shared/url.js').PageRequest} request the address
 * @param {string[]} problems
 * @returns {Promise<{pg: import('../player/model.js').Playground,
 *   lesson: import('../panels/presets.js').ShownLesson | null}>}
 */
export async function openEmbedded(wasm, request, problems) {
  try {
    if (isLessonLink(request.fragment)) {
      const text = lessonWasm(wasm).lesson_from_link(request.fragment);
      const pg = await openRun((w) => new w.Playground(lessonWasm(w).lesson_scenario(text)));
      return { pg, lesson: shownLesson(text) };
    }
    return { pg: await openRun((w) => presetPlayground(w, request) ?? w.Playground.from_url(request.query, request.fragment)), lesson: null };
  } catch (e) {
    problems.unshift(`${messageOf(e)}. Showing the default scenario instead.`);
    return { pg: await openRun((w) => w.Playground.from_url('', '')), lesson: null };
  }
}

/**
 * The line an embedded lesson shows for moment `nowMs`: its title before
 * the first step, then the step's narration.
 * @param {import('../panels/presets.js').ShownLesson} lesson
 * @param {number} nowMs
 * @returns {string}
 */
function lessonStepLine(lesson, nowMs) {
  let current = -1;
  lesson.steps.forEach((step, i) => {
    if (step.at_ms <= nowMs) current = i;
  });
  if (current < 0) return lesson.title;
  return `Step ${current + 1} of ${lesson.steps.length}: ${lesson.steps[current].text}`;
}

/** A lesson's step for the current moment, in a line under the view. */
export class LessonLine {
  /**
   * @param {import('../panels/presets.js').ShownLesson | null} lesson
   * @param {string} link the lesson's `#l=1.<data>` link
   */
  constructor(lesson, link) {
    /** @type {import('../panels/presets.js').ShownLesson | null} */
    this.lesson = lesson;
    /** @private */
    this.link = link;
    this.element = h('p', { class: 'embed-lesson', 'data-testid': 'embed-lesson', 'aria-live': 'polite' });
  }

  /** The host loaded another scenario: no lesson any more. */
  clear() {
    this.lesson = null;
  }

  /**
   * The full playground's address of the lesson (the same link, without
   * the embed's parameters), or null when no lesson is shown.
   * @returns {string | null}
   */
  href() {
    if (!this.lesson) return null;
    return new URL(`${window.location.pathname}${this.link}`, window.location.href).href;
  }

  /** @param {number} nowMs */
  render(nowMs) {
    if (this.lesson) setText(this.element, lessonStepLine(this.lesson, nowMs));
    this.element.hidden = this.lesson === null;
  }
}
