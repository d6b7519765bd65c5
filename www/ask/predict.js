// @ts-check
/**
 * Predict mode (the Predict switch beside the single view's transport
 * bar, `predict=1` in the address): predict, then see. `predict=` may
 * instead list the kinds to ask in turn (`predict=election_messages` or
 * `predict=leader,split_brain`: the k-th decisive moment asks the k-th
 * kind, through `Playground.question_json`). At each of the
 * run's decisive moments (the core's questions, ask/story.js: time 0 and
 * each crash, partition or heal after which an election follows) playing
 * pauses and the question component (ask/question.js) asks what happens
 * next. A choice, or Reveal (or Play), plays on; the true answer is
 * marked once the run has shown it: when it reaches the next question's
 * moment or the run's end (`Model.endMs`: the election settled), whichever
 * comes first. Seeking back over a question lets it be asked again;
 * seeking or stepping past one does not pause. Keys 1-4 pick a choice
 * (free in player/shortcuts.js). The score beside the switch
 * (`[data-testid=score]`, "2 of 3 right": right answers of the choices
 * made, each counted when its answer is shown; Reveal counts none) stays
 * in the page; nothing is sent anywhere.
 *
 * It pauses through `Model.stops`, composed with the stops function set
 * before it (a guided scenario's steps, panels/presets.js): the earlier
 * stop wins.
 * @module ask/predict
 */

import { askQuestion } from './question.js';
import { storyOf } from './story.js';
import { keyBelongsTo } from '../player/shortcuts.js';
import { writeFlagAddress } from '../shared/url.js';
import { h, messageOf, setText } from '../shared/dom.js';

/** What the status line says where a question pauses the run. */
export const PREDICT_REASON = 'predict what happens next';

/** @typedef {import('./story.js').Question} Question */
/** @typedef {import('./question.js').Asked} Asked */

/**
 * A question's identity within a run.
 * @param {Question} q
 * @returns {string}
 */
const keyOf = (q) => `${q.at_ms}:${q.kind}`;

export class Predict {
  /**
   * @param {import('../player/model.js').Model} model the single view's run
   * @param {{toggle: HTMLInputElement, host: HTMLElement, report?: (message: string) => void}} parts
   *   the switch (the score goes beside its label), the box under the
   *   caption where the questions go, and where a problem is said
   */
  constructor(model, parts) {
    /** @private */
    this.model = model;
    /** @private */
    this.toggle = parts.toggle;
    /** @private */
    this.host = parts.host;
    /** The score line. */
    this.scoreLine = h('span', { class: 'ask-score', 'data-testid': 'score', 'aria-live': 'polite' });
    this.scoreLine.hidden = true;
    // Beside the switch (in the transport bar, shown in presentation mode too).
    (this.toggle.closest('label') ?? this.toggle).after(this.scoreLine);
    /** Right answers and choices made (counted as each answer is shown). */
    this.score = { right: 0, total: 0 };
    /** Questions asked in this run (their keys), each with its time. @private @type {Map<string, number>} */
    this.asked = new Map();
    /** The run the asked questions belong to. @private */
    this.pg = /** @type {object | null} */ (null);
    /** The question shown, when it is revealed. @private
     * @type {{q: Question, asked: Asked, counted: boolean} | null} */
    this.current = null;
    /** The question before, its answer shown, until this one is answered. @private
     * @type {Asked | null} */
    this.previous = null;
    /** Where the run stood at the last look (a smaller time: it went back). @private */
    this.lastNow = 0;
    /** Whether Predict is on. */
    this.on = false;
    /** The question kinds asked in turn (null: the core's choice). @type {string[] | null} */
    this.kinds = null;
    /** The questions of those kinds, for a story. @private
     * @type {{story: import('./story.js').Story, questions: Question[]} | null} */
    this.picked = null;
    /** @private */
    this.report = parts.report ?? (() => {});
    /** Whether another part of the page asks its own question at a
     * moment (a lesson's step, panels/lessons.js): Predict asks none
     * there, so one moment never asks twice.
     * @type {(ms: number) => boolean} */
    this.askedElsewhere = () => false;

    const prior = model.stops;
    model.stops = (from) => {
      const a = prior?.(from) ?? null;
      const b = this.on ? this.nextStop(from) : null;
      if (!a) return b;
      if (!b) return a;
      return b.ms <= a.ms ? b : a;
    };
    this.toggle.addEventListener('change', () => this.set(this.toggle.checked));
    document.addEventListener('keydown', (e) => this.key(e));
    model.onChange(() => this.update());
  }

  /**
   * Turns Predict on or off.
   * @param {boolean} on
   * @param {boolean} [write] put it into the address (not when the address asked)
   * @param {string[] | null} [kinds] the question kinds to ask, in turn
   *   (`predict=leader,split_brain`); null: the core's choice
   */
  set(on, write = true, kinds = this.kinds) {
    this.on = on;
    if (kinds !== this.kinds) {
      this.kinds = kinds;
      this.picked = null;
    }
    this.toggle.checked = on;
    document.body.classList.toggle('predicting', on);
    if (write) writeFlagAddress('predict', on, this.kinds ? this.kinds.join(',') : '1');
    if (!on) this.clear();
    this.update();
  }

  /** Whether a question waits for a guess here, asked or about to be (the
   * caption holds back the future). */
  get waiting() {
    if (!this.on) return false;
    if (this.current !== null && this.current.asked.answered === undefined) return true;
    const now = this.model.nowMs;
    return this.questions().some((x) => Math.abs(x.at_ms - now) < 1e-6 && !this.asked.has(keyOf(x)));
  }

  /**
   * Counts a question answered elsewhere (a lesson step's) into the score,
   * once its verdict is shown.
   * @param {Asked} asked
   */
  count(asked) {
    if (asked.right === null) return;
    this.score.total += 1;
    if (asked.right) this.score.right += 1;
    this.writeScore();
  }

  /**
   * The next question to pause at, at or after `from` (one already asked
   * is not asked again until the run goes back before it).
   * @private
   * @param {number} from
   * @returns {import('../player/model.js').Stop | null}
   */
  nextStop(from) {
    const q = this.questions().find((x) => x.at_ms >= from && !this.asked.has(keyOf(x)));
    return q ? { ms: q.at_ms, reason: PREDICT_REASON } : null;
  }

  /**
   * The questions of the run: the story's, or with `kinds` the k-th
   * decisive moment asks `kinds[k % kinds.length]` (`question_json`).
   * @private
   * @returns {Question[]}
   */
  questions() {
    return this.ownQuestions().filter((q) => !this.askedElsewhere(q.at_ms));
  }

  /**
   * The questions Predict would ask, before those asked elsewhere are
   * taken out.
   * @private
   * @returns {Question[]}
   */
  ownQuestions() {
    let story;
    try {
      story = storyOf(this.model.playground);
    } catch {
      return [];
    }
    const kinds = this.kinds;
    if (!kinds) return story.questions;
    if (this.picked?.story === story) return this.picked.questions;
    const pg = /** @type {{question_json?: (at: number, kind: string) => string}} */ (
      /** @type {unknown} */ (this.model.playground)
    );
    /** @type {Question[]} */
    const questions = [];
    try {
      story.questions.forEach((q, k) => {
        const text = pg.question_json?.(q.at_ms, kinds[k % kinds.length]) ?? 'null';
        const asked = JSON.parse(text);
        if (asked) questions.push(asked);
      });
    } catch (e) {
      // A kind the core does not know: said once, and the core's choice instead.
      this.report(`URL parameter \`predict\`: ${messageOf(e)}; asking the usual questions`);
      this.kinds = null;
      return story.questions;
    }
    this.picked = { story, questions };
    return questions;
  }

  /** @private */
  clear() {
    this.previous?.remove();
    this.previous = null;
    this.current?.asked.remove();
    this.current = null;
    this.asked.clear();
  }

  /** @private */
  writeScore() {
    this.scoreLine.hidden = !this.on;
    const { right, total } = this.score;
    setText(this.scoreLine, total === 0 ? 'no answers yet' : `${right} of ${total} right`);
  }

  /**
   * Follows the run: asks at a question's pause, plays on after it,
   * shows the answer once the run got there, forgets what it went back
   * over.
   * @private
   */
  update() {
    this.writeScore();
    if (!this.on) return;
    const model = this.model;
    const pg = model.playground;
    if (pg !== this.pg) {
      this.pg = pg;
      this.lastNow = 0;
      this.clear();
    }
    const now = model.nowMs;
    const back = now < this.lastNow;
    this.lastNow = now;
    let cur = this.current;
    // Back to a question's moment or before it: it may be asked again
    // (not the one still waiting for an answer right here).
    const waiting = cur && cur.asked.answered === undefined && Math.abs(cur.q.at_ms - now) < 1e-6 ? cur : null;
    if (back) {
      for (const [key, at] of this.asked) if (at >= now && (!waiting || key !== keyOf(waiting.q))) this.asked.delete(key);
      if (cur && cur !== waiting && cur.q.at_ms >= now) {
        cur.asked.remove();
        this.current = null;
        cur = null;
        this.previous?.remove();
        this.previous = null;
      }
    }
    if (cur) {
      // Play pressed on an open question: as Reveal.
      if (cur.asked.answered === undefined && model.playing) cur.asked.answer(null);
      if (cur.asked.answered !== undefined && !cur.counted && this.shown(cur.q, now)) {
        cur.asked.verdict();
        cur.counted = true;
        if (!document.body.classList.contains('presenting')) cur.asked.element.scrollIntoView({ block: 'nearest' });
        this.count(cur.asked);
      }
    }
    // Paused at a question's moment by its stop: ask it.
    if (!model.playing && model.stopReason === PREDICT_REASON) {
      const q = this.questions().find((x) => Math.abs(x.at_ms - now) < 1e-6 && !this.asked.has(keyOf(x)));
      if (q) this.ask(q);
    }
  }

  /**
   * Whether the run has shown the answer of `q` by `now`: it reached the
   * next question's moment or the run's end (or it stands still there).
   * @private
   * @param {Question} q
   * @param {number} now
   */
  shown(q, now) {
    const next = this.questions().find((x) => x.at_ms > q.at_ms);
    const end = this.model.endMs();
    let by = next ? next.at_ms : Infinity;
    if (end !== null && end > q.at_ms) by = Math.min(by, end);
    if (by === Infinity) return true;
    if (now >= by) return true;
    // Stopped for good before it (the scenario's end, nothing left).
    const stopped = !this.model.playing && this.model.stopReason !== '' && this.model.stopReason !== PREDICT_REASON;
    return stopped && this.model.playground.next_event_ms() === undefined;
  }

  /**
   * @private
   * @param {Question} q
   */
  ask(q) {
    // The last answer stays in sight until this question is answered.
    this.previous?.remove();
    this.previous = this.current?.asked ?? null;
    this.previous?.element.classList.add('ask-previous');
    this.asked.set(keyOf(q), q.at_ms);
    const asked = askQuestion(this.host, q, {
      onAnswer: () => {
        this.previous?.remove();
        this.previous = null;
        if (!this.model.playing) this.model.setPlaying(true);
      },
    });
    this.current = { q, asked, counted: false };
    // In sight (the full page may have it under the fold), focused so Tab
    // goes to the choices.
    asked.element.focus({ preventScroll: true });
    if (!document.body.classList.contains('presenting')) asked.element.scrollIntoView({ block: 'nearest' });
  }

  /**
   * Keys 1-4: a choice of the open question.
   * @private
   * @param {KeyboardEvent} e
   */
  key(e) {
    const cur = this.current;
    if (!cur || cur.asked.answered !== undefined || e.ctrlKey || e.metaKey || e.altKey) return;
    if (!/^[1-4]$/.test(e.key) || keyBelongsTo(e.target, e.key)) return;
    const choice = cur.q.choices[Number(e.key) - 1];
    if (choice === undefined) return;
    e.preventDefault();
    cur.asked.answer(choice);
  }
}
