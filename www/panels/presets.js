// @ts-check
/**
 * Lessons: a scenario with steps (a time, narration, and optionally a
 * question, a fault or a view), shown beside the cluster: the steps, the
 * one for the current moment marked, each with a button that jumps to its
 * time. The twelve guided scenarios are lessons (`?preset=<name>`: its
 * scenario, with any scenario parameters of the address applied over it);
 * a `#l=1.<data>` link opens any lesson (panels/lessons.js reads it with
 * the core's `lesson_from_link`). Playing waits at each step until Next
 * step is pressed (the model's `stops`; Next fast-forwards there, see
 * `Model.playToNextStop`), unless "wait for Next" is unticked. When the
 * run reaches a step, its view is shown and its question asked
 * (panels/lessons.js). The picker opens a preset by loading its address.
 *
 * The texts and times come from the core (`presets()`, the lesson
 * exports); this module only shows them and moves the clock.
 * @module presets
 */
import { el } from '../shared/dom.js';

/**
 * One step of a lesson.
 * @typedef {object} Step
 * @property {number} at_ms
 * @property {string} text
 * @property {{kind: string}} [question] a question to ask at the step
 * @property {object} [fault] a scenario fault (without `at_ms`), applied
 *   at the step's time (the lesson's scenario holds it already)
 * @property {string} [view] a page view to show at the step (lessons.js, VIEWS)
 */

/**
 * A guided scenario, as the core lists it.
 * @typedef {object} Preset
 * @property {string} name
 * @property {string} title
 * @property {string} summary
 * @property {string | null} related
 * @property {Step[]} steps
 */

/**
 * A lesson as the panel shows it: a preset, or a lesson from a link.
 * @typedef {object} ShownLesson
 * @property {string | null} name the preset's name (null: a lesson of its own)
 * @property {string} title
 * @property {string} summary
 * @property {string | null} related
 * @property {Step[]} steps
 * @property {string | null} text the lesson JSON (null for a preset)
 * @property {boolean} [predict] the lesson turns Predict on (its
 *   `"predict": true`)
 */

/**
 * What the lesson panel is told when the step for the current moment
 * changes: `open` (the page opened there), `forward` (played or jumped on
 * to it), `back` (went back to it). panels/lessons.js shows its view and,
 * going forward, asks its question.
 * @typedef {(step: Step, index: number, how: 'open' | 'forward' | 'back') => void} StepReached
 */

/**
 * The `preset` parameter of an address (null when there is none).
 * @param {string} search `location.search`
 * @returns {string | null}
 */
export function presetParam(search) {
  return new URLSearchParams(search).get('preset');
}

/**
 * The playground a `preset=` address asks for, or null when it names no
 * preset (or a `#s=` share link gives the scenario). Throws an `Error`
 * naming the parameter for an unknown preset.
 * @param {typeof import('../pkg/election_player.js')} wasm
 * @param {import('../shared/url.js').PageRequest} request
 * @returns {import('../pkg/election_player.js').Playground | null}
 */
export function presetPlayground(wasm, request) {
  return wasm.Playground.from_preset_url(request.query, request.fragment) ?? null;
}

/**
 * The address that opens preset `name`.
 * @param {string} name
 * @returns {string}
 */
export function presetHref(name) {
  return `${window.location.pathname}?preset=${encodeURIComponent(name)}`;
}

export class Narration {
  /**
   * @param {import('../player/model.js').Model} model the single view's run
   * @param {Preset[]} presets every preset, in display order
   */
  constructor(model, presets) {
    /** @private */
    this.model = model;
    /** Called when the run reaches a step (lessons.js). @type {StepReached | null} */
    this.reached = null;
    /** Called after each `open` (lessons.js shows its buttons). @type {(() => void) | null} */
    this.opened = null;
    /** The lesson of a `#l=` link, when the address has one (lessons.js
     * reads it). @type {((request: import('../shared/url.js').PageRequest) => ShownLesson | null) | null} */
    this.fromLink = null;
    /** @private */
    this.presets = presets;
    this.section = el('narration');
    this.title = el('narration-title');
    this.summary = el('narration-summary');
    this.list = /** @type {HTMLOListElement} */ (el('narration-steps'));
    this.related = el('narration-related');
    this.now = el('narration-now');
    this.picker = /** @type {HTMLSelectElement} */ (el('preset-pick'));
    this.wait = /** @type {HTMLInputElement} */ (el('narration-wait'));
    el('narration-next').addEventListener('click', () => model.playToNextStop());
    model.stops = (fromMs) => this.stopAfter(fromMs);
    /** The preset shown, if any. @type {Preset | null} */
    this.preset = null;
    /** The lesson shown (a preset's or a link's), if any. @type {ShownLesson | null} */
    this.lesson = null;
    /** The run the narration belongs to; another run (new settings) hides it. @private */
    this.playground = /** @type {unknown} */ (null);
    /** @private @type {HTMLLIElement[]} */
    this.items = [];
    /** @private */
    this.current = -2;

    for (const p of presets) {
      const option = document.createElement('option');
      option.value = p.name;
      option.textContent = p.title;
      this.picker.append(option);
    }
    el('preset-form').addEventListener('submit', (e) => {
      e.preventDefault();
      window.location.assign(presetHref(this.picker.value));
    });
    model.onChange(() => this.render());
  }

  /**
   * Shows the narration of the preset the address names (hides it when it
   * names none; an unknown name was already reported by the core).
   * @param {import('../shared/url.js').PageRequest} request
   */
  open(request) {
    const linked = this.fromLink?.(request) ?? null;
    const name = presetParam(request.query);
    const preset = linked ? null : (this.presets.find((p) => p.name === name) ?? null);
    this.preset = preset;
    /** @type {ShownLesson | null} */
    const lesson = linked ?? (preset ? { ...preset, text: null } : null);
    this.lesson = lesson;
    this.playground = this.model.playground;
    this.current = -2;
    this.show(lesson !== null);
    if (!lesson) {
      this.items = [];
      this.list.replaceChildren();
      this.opened?.();
      return;
    }
    if (preset) this.picker.value = preset.name;
    this.title.textContent = lesson.title;
    this.summary.textContent = lesson.summary;
    this.summary.hidden = lesson.summary === '';
    this.items = lesson.steps.map((step, i) => {
      const li = document.createElement('li');
      li.dataset.step = String(i);
      const jump = document.createElement('button');
      jump.type = 'button';
      jump.className = 'step-time mono';
      jump.textContent = `${step.at_ms} ms`;
      jump.setAttribute('aria-label', `Go to step ${i + 1}, at ${step.at_ms} ms`);
      jump.addEventListener('click', () => this.jump(step.at_ms));
      const text = document.createElement('span');
      text.className = 'step-text';
      text.textContent = step.text;
      li.append(jump, text);
      // A step that asks a question says so (a mark in the style sheet:
      // the step's text stays the narration alone).
      li.classList.toggle('asks', Boolean(step.question));
      return li;
    });
    this.list.replaceChildren(...this.items);
    const other = lesson.related ? this.presets.find((p) => p.name === lesson.related) : undefined;
    this.related.hidden = !other;
    if (other) {
      const link = document.createElement('a');
      link.href = presetHref(other.name);
      link.textContent = other.title;
      this.related.replaceChildren('Compare with: ', link);
    }
    this.render();
    this.opened?.();
  }

  /**
   * Shows or hides the walkthrough, and says so on the stage around it
   * (`with-narration`, which lays it out beside the cluster on wide
   * screens). A class rather than a `:has()` rule in the style sheet:
   * Chromium restyled the whole stage, 1,024 node buttons and all (7 ms),
   * whenever any `hidden` attribute inside it changed, such as the note
   * that the run plays slower than asked.
   * @private
   * @param {boolean} on
   */
  show(on) {
    this.section.hidden = !on;
    this.section.parentElement?.classList.toggle('with-narration', on);
  }

  /**
   * The next step after `fromMs`, where playing waits for Next (none
   * without a walkthrough, or with "wait for Next" unticked).
   * @param {number} fromMs
   * @returns {import('../player/model.js').Stop | null}
   */
  stopAfter(fromMs) {
    const lesson = this.lesson;
    if (!lesson || !this.wait.checked || this.model.playground !== this.playground) return null;
    const i = lesson.steps.findIndex((s) => s.at_ms > fromMs);
    if (i < 0) return null;
    return {
      ms: lesson.steps[i].at_ms,
      reason: `step ${i + 1} of ${lesson.steps.length}; press Next step to go on`,
    };
  }

  /** Whether a lesson is shown and waits for Next at its steps (Space then
   * steps through it in presentation mode). */
  get stepping() {
    return this.lesson !== null && this.wait.checked && this.model.playground === this.playground;
  }

  /**
   * Pauses the run at a step's moment.
   * @private
   * @param {number} ms
   */
  jump(ms) {
    this.model.setPlaying(false);
    this.model.seek(ms);
  }

  /** Marks the step for the current moment (the latest one not after it). */
  render() {
    const lesson = this.lesson;
    if (!lesson) return;
    if (this.model.playground !== this.playground) {
      // The settings changed the scenario: this walkthrough no longer applies.
      this.preset = null;
      this.lesson = null;
      this.show(false);
      return;
    }
    const now = this.model.nowMs;
    let current = -1;
    lesson.steps.forEach((s, i) => {
      if (s.at_ms <= now) current = i;
    });
    if (current === this.current) return;
    const before = this.current;
    this.current = current;
    // Reached a new step (by playing on, a jump or Next): its view and
    // question. Not on the first look (the page opening at a moment shows
    // the step's view but asks nothing) nor going back past it.
    const how = before === -2 ? 'open' : current > before ? 'forward' : 'back';
    if (current >= 0 && this.reached) this.reached(lesson.steps[current], current, how);
    this.items.forEach((li, i) => {
      li.classList.toggle('current', i === current);
      li.classList.toggle('past', i < current);
      if (i === current) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    });
    this.now.textContent =
      current < 0 ? '' : `Step ${current + 1} of ${this.items.length}: ${lesson.steps[current].text}`;
    this.reveal(this.items[current]);
  }

  /**
   * Scrolls the list of steps (not the page) so `item` shows.
   * @private
   * @param {HTMLLIElement | undefined} item
   */
  reveal(item) {
    if (!item) return;
    const list = this.list;
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
}
