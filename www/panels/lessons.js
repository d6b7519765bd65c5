// @ts-check
/**
 * The page's side of lessons (docs/lessons.md has the format): a lesson is
 * a scenario plus steps, each with a time, narration and optionally a
 * question, a fault or a view. The core reads, checks and encodes them
 * (the lesson exports of every player module: `lesson_check`,
 * `lesson_link`, `lesson_from_link`, `lesson_from_run`,
 * `lesson_scenario`); this module only shows and forwards.
 *
 * - **Links.** `#l=1.<data>` (the `#s=` codec) opens a lesson: the run is
 *   `lesson_scenario` of it (its steps' faults at their times), the steps
 *   are shown by the lesson panel (panels/presets.js, `Narration`). A bad
 *   link shows one message naming the field, and the default scenario.
 * - **Steps.** When the run reaches a step, its `view` is shown (`VIEWS`)
 *   and, where the run stands at the step's moment (stopped there by Next
 *   step, or jumped there), its `question` asked: the run's own question
 *   from the core (`question_json`), with its choices; a choice or Reveal
 *   marks the true answer and its why.
 * - **Make a lesson from this run** turns the scenario on screen, faults
 *   included, into a lesson (`lesson_from_run`: each fault a step with
 *   empty narration) in a small editor: title, summary and, per step,
 *   time, narration, question kind and view. Copy lesson link checks it
 *   (`lesson_check`; an error names the field and marks its input), shows
 *   the `#l=` link and copies it; Open the lesson opens it here.
 * - **Copy lesson link** and **Download lesson as a standalone page** (the
 *   Lessons section, while a lesson is shown) share the lesson on screen.
 * @module panels/lessons
 */

import { askQuestion } from '../ask/question.js';
import { el, messageOf } from '../shared/dom.js';

/** The page views a step's `view` may name, and what each shows. */
export const VIEWS = Object.freeze({
  cluster: 'the cluster',
  spacetime: 'the space-time diagram',
  log: 'the event log',
  now: 'the Now tab',
  metrics: 'the Metrics tab',
  node: 'the Node tab',
});

/** The question kinds a step may ask (the core's `QuestionKind` names), as the editor lists them. */
export const QUESTION_KINDS = Object.freeze({
  leader: 'Who becomes leader?',
  election_messages: 'How many election messages?',
  first_mover: 'Which node starts the election?',
  time_to_leader: 'How long until there is a leader?',
  split_brain: 'Will two nodes lead at once?',
});

/**
 * The lesson exports of a player module (the core's; web/src/lessons.rs).
 * @typedef {object} LessonWasm
 * @property {(text: string) => string} lesson_check normalized lesson JSON; throws an Error with `.field`
 * @property {(text: string) => string} lesson_link `#l=1.<data>`
 * @property {(fragment: string) => string} lesson_from_link lesson JSON; throws naming the field
 * @property {(scenarioJson: string) => string} lesson_from_run
 * @property {(text: string) => string} lesson_scenario scenario JSON with the steps' faults
 */

/**
 * The lesson exports of `wasm` (a module built before lessons has none:
 * every call then throws, and says so).
 * @param {unknown} wasm
 * @returns {LessonWasm}
 */
export function lessonWasm(wasm) {
  const w = /** @type {Partial<LessonWasm>} */ (wasm);
  /** @param {keyof LessonWasm} name */
  const need = (name) => {
    const fn = w[name];
    if (typeof fn !== 'function') throw new Error(`This build of the playground has no lessons (${name} is missing).`);
    return /** @type {(text: string) => string} */ (fn);
  };
  return {
    lesson_check: (t) => need('lesson_check')(t),
    lesson_link: (t) => need('lesson_link')(t),
    lesson_from_link: (t) => need('lesson_from_link')(t),
    lesson_from_run: (t) => need('lesson_from_run')(t),
    lesson_scenario: (t) => need('lesson_scenario')(t),
  };
}

/**
 * Whether an address's fragment is a lesson link (`#l=...`).
 * @param {string} fragment `location.hash`
 * @returns {boolean}
 */
export function isLessonLink(fragment) {
  return new URLSearchParams(fragment.replace(/^#/, '')).has('l');
}

/**
 * A lesson's JSON as the panel shows it.
 * @param {string} text lesson JSON (as the core gives it)
 * @returns {import('./presets.js').ShownLesson}
 */
export function shownLesson(text) {
  const lesson = JSON.parse(text);
  return {
    name: null,
    title: String(lesson.title ?? ''),
    summary: String(lesson.summary ?? ''),
    related: null,
    steps: Array.isArray(lesson.steps) ? lesson.steps : [],
    text,
    predict: lesson.predict === true,
  };
}

/**
 * The scenario JSON a lesson link runs (throws the core's error, naming
 * the field).
 * @param {unknown} wasm a player module
 * @param {string} fragment `location.hash`
 * @returns {string}
 */
export function lessonLinkScenario(wasm, fragment) {
  const w = lessonWasm(wasm);
  return w.lesson_scenario(w.lesson_from_link(fragment));
}

/**
 * The address that opens a lesson: this page with the lesson's link.
 * @param {string} link `#l=1.<data>` (from `lesson_link`)
 * @returns {string}
 */
export function lessonHref(link) {
  const url = new URL(window.location.href);
  url.search = '';
  url.hash = link.replace(/^#/, '');
  return url.href;
}

/**
 * The field an error of the core names (`.field`, else the first
 * `` `name` `` of its message), or null.
 * @param {unknown} e
 * @returns {string | null}
 */
export function fieldOf(e) {
  if (e && typeof e === 'object' && 'field' in e && typeof e.field === 'string') return e.field;
  const quoted = /`([^`]+)`/.exec(messageOf(e));
  return quoted ? quoted[1] : null;
}

/**
 * A step's question, as the core writes it (story::Question).
 * @typedef {object} QuestionData
 * @property {number} at_ms
 * @property {string} kind
 * @property {string} text
 * @property {(string | number)[]} choices
 * @property {string | number} answer
 * @property {string} why
 */

/**
 * What the lesson panel needs from the page.
 * @typedef {object} LessonHost
 * @property {import('../player/model.js').Model} model
 * @property {unknown} wasm the first player module (its free functions serve every run)
 * @property {import('./presets.js').Narration} narration
 * @property {(id: 'now' | 'metrics' | 'node') => void} selectTab
 * @property {() => boolean} presenting whether presentation mode is on
 * @property {(message: string) => void} report shows a problem
 * @property {(asked: import('../ask/question.js').Asked) => void} [count]
 *   counts an answered step's question into Predict's score (and shows
 *   the caption whole again)
 */

export class LessonPanel {
  /** @param {LessonHost} host */
  constructor(host) {
    /** @private */
    this.host = host;
    /** @private */
    this.wasm = lessonWasm(host.wasm);
    /** @private */
    this.question = el('lesson-question');
    /** The step's question on screen. @private
     * @type {import('../ask/question.js').Asked | null} */
    this.asked = null;
    /** @private */
    this.share = el('lesson-share');
    /** @private */
    this.shareStatus = el('lesson-share-status');
    /** @private */
    this.editor = new LessonEditor(this.wasm, host);
    host.narration.fromLink = (request) => this.fromLink(request);
    host.narration.reached = (step, _i, how) => this.reached(step, how);
    host.narration.opened = () => this.render();
    el('lesson-make').addEventListener('click', () => this.editor.fromRun());
    el('lesson-copy-shown').addEventListener('click', () => this.copyShown());
    host.model.onChange(() => this.render());
  }

  /**
   * The lesson of a `#l=` address (null when it has none; a bad link was
   * reported when the run was made, see stage/page-run.js).
   * @private
   * @param {import('../shared/url.js').PageRequest} request
   * @returns {import('./presets.js').ShownLesson | null}
   */
  fromLink(request) {
    this.question.replaceChildren();
    this.question.hidden = true;
    const link = request.lesson ?? (isLessonLink(request.fragment) ? request.fragment : null);
    if (link === null) return null;
    try {
      return shownLesson(this.wasm.lesson_from_link(link));
    } catch {
      return null;
    }
  }

  /**
   * What "Download lesson as a standalone page" saves: the lesson on
   * screen, checked, and the scenario it runs (stage/page.js hands it to
   * the standalone download).
   * @returns {{lesson: string, scenario: string} | null} the lesson's
   *   `#l=` link and its run's scenario JSON
   */
  forDownload() {
    const text = this.shownText();
    if (!text) return null;
    const lesson = this.wasm.lesson_check(text);
    return { lesson: this.wasm.lesson_link(lesson), scenario: this.wasm.lesson_scenario(lesson) };
  }

  /** The lesson on screen as lesson JSON (a preset's too), or null. */
  shownText() {
    const lesson = this.host.narration.lesson;
    if (!lesson) return null;
    if (lesson.text !== null) return lesson.text;
    // A preset: its scenario and steps (the run's scenario is the preset's).
    const scenario = JSON.parse(this.host.model.playground.scenario_json());
    return JSON.stringify({
      lesson: 1,
      title: lesson.title,
      summary: lesson.summary,
      scenario,
      steps: lesson.steps,
    });
  }

  /**
   * The step for the current moment changed.
   * @private
   * @param {import('./presets.js').Step} step
   * @param {'open' | 'forward' | 'back'} how
   */
  reached(step, how) {
    const model = this.host.model;
    // Passing steps on the way to the address's moment shows nothing.
    if (model.isOpening) return;
    if (step.view && how !== 'back') this.showView(step.view);
    // A question is asked where the run stands at its step (stopped there
    // by Next step, jumped or opened there), before the run shows the answer.
    if (step.question && how !== 'back' && model.nowMs === step.at_ms) this.ask(step);
    else {
      this.question.hidden = true;
      this.question.replaceChildren();
    }
  }

  /**
   * Shows a page view (`VIEWS`); in presentation mode only the cluster is
   * on screen, so the others wait for the full page.
   * @param {string} view
   */
  showView(view) {
    if (!(view in VIEWS) || this.host.presenting()) return;
    if (view === 'now' || view === 'metrics' || view === 'node') {
      this.host.selectTab(view);
      el(`tab-${view}`).scrollIntoView({ block: 'nearest' });
      return;
    }
    const target = { cluster: 'stage-title', spacetime: 'spacetime-title', log: 'log-title' }[view];
    el(target ?? 'stage-title').closest('section')?.scrollIntoView({ block: 'start' });
  }

  /**
   * Asks a step's question: the run's own, from the core (`question_json`).
   * @private
   * @param {import('./presets.js').Step} step
   */
  ask(step) {
    const pg = /** @type {{question_json?: (at: number, kind: string) => string}} */ (
      /** @type {unknown} */ (this.host.model.playground)
    );
    const box = this.question;
    box.hidden = false;
    if (typeof pg.question_json !== 'function' || !step.question) {
      box.textContent = 'This step asks a question, but this build cannot make questions.';
      return;
    }
    /** @type {QuestionData | null} */
    let q;
    try {
      q = JSON.parse(pg.question_json(step.at_ms, step.question.kind));
    } catch (e) {
      box.textContent = messageOf(e);
      return;
    }
    if (!q) {
      box.textContent = 'No election follows this moment, so there is nothing to predict here.';
      return;
    }
    // The question component of Predict mode (ask/question.js): a choice
    // or Reveal marks the true answer at once, since the lesson waits at
    // its step for Next; a guess counts into Predict's score.
    box.replaceChildren();
    const asked = askQuestion(box, q, {
      onAnswer: () => {
        asked.verdict();
        this.host.count?.(asked);
      },
    });
    this.asked = asked;
  }

  /**
   * Whether a step's question waits for a guess: the page's caption then
   * says only what has happened (as while Predict asks), so that it does
   * not give the answer away.
   * @returns {boolean}
   */
  get waiting() {
    const a = this.asked;
    return a !== null && a.answered === undefined && a.element.isConnected && !this.question.hidden;
  }

  /** Copies the link of the lesson on screen. @private */
  async copyShown() {
    const text = this.shownText();
    if (!text) return;
    try {
      const href = lessonHref(this.wasm.lesson_link(text));
      this.shareStatus.textContent = href;
      await navigator.clipboard.writeText(href).then(
        () => {
          this.shareStatus.textContent = `Link copied: ${href}`;
        },
        () => {},
      );
    } catch (e) {
      this.host.report(messageOf(e));
    }
  }

  /** Shows the share row while a lesson is on screen. @private */
  render() {
    const on = this.host.narration.lesson !== null;
    if (this.share.hidden === on) this.share.hidden = !on;
  }
}

/**
 * "Make a lesson from this run": the editor.
 */
class LessonEditor {
  /**
   * @param {LessonWasm} wasm
   * @param {LessonHost} host
   */
  constructor(wasm, host) {
    /** @private */
    this.wasm = wasm;
    /** @private */
    this.host = host;
    this.form = /** @type {HTMLFormElement} */ (el('lesson-editor'));
    /** @private */
    this.title = /** @type {HTMLInputElement} */ (el('lesson-title'));
    /** @private */
    this.summary = /** @type {HTMLInputElement} */ (el('lesson-summary'));
    /** @private */
    this.predict = /** @type {HTMLInputElement} */ (el('lesson-predict'));
    /** @private */
    this.list = el('lesson-steps-edit');
    /** @private */
    this.error = el('lesson-error');
    /** @private */
    this.link = /** @type {HTMLTextAreaElement} */ (el('lesson-link'));
    /** @private */
    this.status = el('lesson-status');
    /** The lesson being edited (the scenario and what the fields do not show). @private @type {any} */
    this.lesson = null;
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.copy();
    });
    el('lesson-add-step').addEventListener('click', () => {
      this.addStep({ at_ms: Math.round(host.model.nowMs * 1000) / 1000, text: '' });
    });
    el('lesson-open').addEventListener('click', () => {
      const link = this.makeLink();
      if (link) window.location.assign(link);
    });
    el('lesson-close').addEventListener('click', () => {
      this.form.hidden = true;
    });
  }

  /** Opens the editor on a lesson made from the run on screen. */
  fromRun() {
    const model = this.host.model;
    model.setPlaying(false);
    let text;
    try {
      text = this.wasm.lesson_from_run(model.playground.scenario_json());
    } catch (e) {
      this.host.report(messageOf(e));
      return;
    }
    this.lesson = JSON.parse(text);
    this.title.value = this.lesson.title ?? '';
    this.summary.value = this.lesson.summary ?? '';
    this.predict.checked = this.lesson.predict === true;
    this.list.replaceChildren();
    for (const step of this.lesson.steps ?? []) this.addStep(step);
    this.link.hidden = true;
    this.status.textContent = '';
    this.clearError();
    this.form.hidden = false;
    this.title.focus();
  }

  /**
   * Adds a step's fields.
   * @private
   * @param {import('./presets.js').Step} step
   */
  addStep(step) {
    const li = document.createElement('li');
    li.className = 'lesson-step-edit';
    li.dataset.testid = 'lesson-step-edit';
    /** Everything the fields do not show (the fault). */
    li.dataset.rest = JSON.stringify({ fault: step.fault });
    const time = document.createElement('input');
    time.type = 'number';
    time.step = 'any';
    time.min = '0';
    time.inputMode = 'decimal';
    time.value = String(step.at_ms);
    time.className = 'lesson-time';
    time.dataset.part = 'at_ms';
    const text = document.createElement('textarea');
    text.rows = 2;
    text.value = step.text ?? '';
    text.placeholder = 'What to say at this step';
    text.dataset.part = 'text';
    const question = document.createElement('select');
    question.dataset.part = 'question.kind';
    question.append(new Option('no question', ''));
    for (const [kind, label] of Object.entries(QUESTION_KINDS)) question.append(new Option(label, kind));
    question.value = step.question?.kind ?? '';
    const view = document.createElement('select');
    view.dataset.part = 'view';
    view.append(new Option('view unchanged', ''));
    for (const [name, label] of Object.entries(VIEWS)) view.append(new Option(`show ${label}`, name));
    view.value = step.view ?? '';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.textContent = 'Remove';
    remove.className = 'lesson-remove';
    remove.addEventListener('click', () => {
      li.remove();
      this.renumber();
    });
    const head = document.createElement('div');
    head.className = 'lesson-step-head';
    const number = document.createElement('strong');
    number.className = 'lesson-step-number';
    const timeLabel = document.createElement('label');
    timeLabel.append('at ', time, ' ms');
    head.append(number, timeLabel);
    if (step.fault) {
      const fault = document.createElement('span');
      fault.className = 'note lesson-fault';
      fault.textContent = `fault: ${faultWords(/** @type {Record<string, unknown>} */ (step.fault))}`;
      head.append(fault);
    }
    head.append(remove);
    const textLabel = document.createElement('label');
    textLabel.className = 'lesson-text';
    textLabel.append('Narration', text);
    const extras = document.createElement('div');
    extras.className = 'lesson-step-extras';
    const qLabel = document.createElement('label');
    qLabel.append('Question ', question);
    const vLabel = document.createElement('label');
    vLabel.append('View ', view);
    extras.append(qLabel, vLabel);
    li.append(head, textLabel, extras);
    // In time order (a lesson's steps are): after the last step not later.
    const later = [...this.list.children].find(
      (other) => Number(/** @type {HTMLInputElement} */ (other.querySelector('[data-part="at_ms"]')).value) > step.at_ms,
    );
    this.list.insertBefore(li, later ?? null);
    this.renumber();
  }

  /** Names each field by its place in the lesson (`steps[2].text`), as the core's errors do. @private */
  renumber() {
    [...this.list.children].forEach((li, i) => {
      const number = li.querySelector('.lesson-step-number');
      if (number) number.textContent = `Step ${i + 1}`;
      for (const input of li.querySelectorAll('[data-part]')) {
        const field = /** @type {HTMLElement} */ (input);
        field.dataset.field = `steps[${i}].${field.dataset.part}`;
        field.setAttribute('aria-label', `Step ${i + 1}: ${field.dataset.part === 'at_ms' ? 'time, ms' : field.dataset.part}`);
      }
    });
  }

  /**
   * The lesson the fields say, as JSON text.
   * @returns {string}
   */
  text() {
    const steps = [...this.list.children].map((li) => {
      const part = (/** @type {string} */ name) =>
        /** @type {HTMLInputElement} */ (li.querySelector(`[data-part="${name}"]`)).value;
      const rest = JSON.parse(/** @type {HTMLElement} */ (li).dataset.rest ?? '{}');
      /** @type {Record<string, unknown>} */
      const step = { at_ms: part('at_ms').trim() === '' ? null : Number(part('at_ms')), text: part('text') };
      const kind = part('question.kind');
      if (kind) step.question = { kind };
      if (rest.fault) step.fault = rest.fault;
      const view = part('view');
      if (view) step.view = view;
      return step;
    });
    /** @type {Record<string, unknown>} */
    const lesson = { ...this.lesson, lesson: 1, title: this.title.value, steps };
    if (this.summary.value.trim() !== '') lesson.summary = this.summary.value;
    else delete lesson.summary;
    if (this.predict.checked) lesson.predict = true;
    else delete lesson.predict;
    return JSON.stringify(lesson);
  }

  /**
   * Checks the lesson and makes its address; null (and the field marked)
   * when the core refuses it.
   * @private
   * @returns {string | null}
   */
  makeLink() {
    this.clearError();
    try {
      const text = this.wasm.lesson_check(this.text());
      return lessonHref(this.wasm.lesson_link(text));
    } catch (e) {
      this.showError(e);
      return null;
    }
  }

  /** Copy lesson link: shows the link and copies it. @private */
  async copy() {
    const href = this.makeLink();
    if (!href) return;
    this.link.value = href;
    this.link.hidden = false;
    this.status.textContent = 'The link opens this lesson (select it to copy it by hand).';
    try {
      await navigator.clipboard.writeText(href);
      this.status.textContent = 'Link copied. It opens this lesson; it is also shown above.';
    } catch {
      // Copying refused (no permission): the link is shown to copy by hand.
    }
  }

  /**
   * Shows the core's error and marks the field it names.
   * @private
   * @param {unknown} e
   */
  showError(e) {
    const field = fieldOf(e);
    this.error.textContent = messageOf(e);
    this.error.hidden = false;
    /** @type {HTMLElement | null} */
    let input = null;
    if (field === 'title') input = this.title;
    else if (field === 'summary') input = this.summary;
    else if (field === 'predict') input = this.predict;
    else if (field) {
      // The field itself, or the nearest one it is part of (steps[1].question.kind -> steps[1].question.kind; steps[1] -> its time).
      input =
        this.form.querySelector(`[data-field="${CSS.escape(field)}"]`) ??
        this.form.querySelector(`[data-field^="${CSS.escape(field)}"]`);
    }
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', 'lesson-error');
      input.focus();
    }
  }

  /** @private */
  clearError() {
    this.error.hidden = true;
    this.error.textContent = '';
    for (const input of this.form.querySelectorAll('[aria-invalid]')) {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
  }
}

/**
 * A scenario fault in a few words: `crash n4`, `partition`.
 * @param {Record<string, unknown>} fault
 * @returns {string}
 */
function faultWords(fault) {
  const kind = typeof fault.kind === 'string' ? fault.kind : Object.keys(fault).find((k) => k !== 'at_ms') ?? 'fault';
  const node = fault.node ?? fault[kind];
  return typeof node === 'number' ? `${kind} n${node}` : typeof node === 'string' ? `${kind} ${node}` : kind;
}
