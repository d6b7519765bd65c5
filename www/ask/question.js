// @ts-check
/**
 * The question component: one predict-then-reveal question (a Question of
 * the core's story, ask/story.js) as a card of plain buttons, reused by
 * Predict mode (ask/predict.js) and by a lesson step's question.
 *
 * ```js
 * import { askQuestion } from './ask/question.js';
 * const asked = askQuestion(host, question, { onAnswer(choice) {} });
 * // host: the element the card goes into (appended at its end)
 * // question: {at_ms, kind, text, choices, answer, why} as story_json() /
 * //   question_json() give it
 * // onAnswer(choice | null): once, on a choice (the choice as in
 * //   `choices`) or on Reveal (null); the choices are then disabled
 * asked.answer(choice | null)  // answers as a click would (keys 1-4, Reveal)
 * asked.verdict()              // marks the true answer and says right/wrong
 *                              //   and the why line (after the run has shown it)
 * asked.answered               // undefined until answered; then the choice or null
 * asked.right                  // true/false after a choice; null after Reveal
 * asked.element                // the card, [data-testid=question]
 * asked.remove()               // takes the card out
 * ```
 *
 * Hooks: `[data-testid=question]` (data-kind, data-at-ms), its text,
 * `[data-testid=choice]` buttons (data-choice: the choice as JSON,
 * aria-pressed on the one chosen), `[data-testid=reveal]` and, after
 * `verdict()`, `[data-testid=verdict]` (data-answer: the answer as JSON,
 * data-right: "true", "false" or "" after Reveal). The choices are buttons
 * in order, so Tab reaches them; number keys 1-4 are Predict mode's
 * (ask/predict.js). Nothing is sent anywhere.
 * @module ask/question
 */

import { choiceText } from './story.js';
import { h } from '../shared/dom.js';

/** @typedef {import('./story.js').Question} Question */
/** @typedef {import('./story.js').Choice} Choice */

/**
 * A question on the page.
 * @typedef {object} Asked
 * @property {HTMLElement} element the card
 * @property {Choice | null | undefined} answered
 * @property {boolean | null} right
 * @property {(choice: Choice | null) => void} answer
 * @property {() => void} verdict
 * @property {() => void} remove
 */

/**
 * Puts `question` into `host` and waits for a choice or Reveal.
 * @param {HTMLElement} host
 * @param {Question} question
 * @param {{onAnswer?: (choice: Choice | null) => void}} [on]
 * @returns {Asked}
 */
export function askQuestion(host, question, on = {}) {
  const card = h('section', {
    class: 'ask-question',
    'data-testid': 'question',
    'data-kind': question.kind,
    'data-at-ms': String(question.at_ms),
    'aria-label': 'Predict',
    tabindex: '-1',
  });
  const text = h('p', { class: 'ask-text' }, question.text);
  const choices = h('div', { class: 'ask-choices', role: 'group', 'aria-label': 'Choices' });
  const buttons = question.choices.map((choice, i) => {
    const b = /** @type {HTMLButtonElement} */ (
      h(
        'button',
        { type: 'button', class: 'ask-choice', 'data-testid': 'choice', 'data-choice': JSON.stringify(choice), 'aria-keyshortcuts': String(i + 1) },
        h('kbd', { 'aria-hidden': 'true' }, String(i + 1)),
        ` ${choiceText(choice)}`,
      )
    );
    b.addEventListener('click', () => asked.answer(choice));
    return b;
  });
  choices.append(...buttons);
  const reveal = /** @type {HTMLButtonElement} */ (
    h('button', { type: 'button', class: 'ask-reveal', 'data-testid': 'reveal', title: 'Play on without a guess; the answer is shown' }, 'Reveal')
  );
  reveal.addEventListener('click', () => asked.answer(null));
  choices.append(reveal);
  // "Watch…" after a choice, then the verdict (made only then, so its
  // hook means the answer is shown).
  const status = h('p', { class: 'ask-status', role: 'status' });
  card.append(text, choices, status);
  host.append(card);

  /** @type {Asked} */
  const asked = {
    element: card,
    answered: undefined,
    right: null,
    answer(choice) {
      if (asked.answered !== undefined) return;
      asked.answered = choice;
      asked.right = choice === null ? null : JSON.stringify(choice) === JSON.stringify(question.answer);
      for (const b of buttons) {
        b.disabled = true;
        b.setAttribute('aria-pressed', String(choice !== null && b.dataset.choice === JSON.stringify(choice)));
      }
      reveal.disabled = true;
      card.classList.add('answered');
      if (!card.classList.contains('revealed')) {
        status.textContent = choice === null ? 'Watch…' : `You said ${choiceText(choice)}. Watch…`;
      }
      on.onAnswer?.(choice);
    },
    verdict() {
      if (card.classList.contains('revealed')) return;
      const want = JSON.stringify(question.answer);
      for (const b of buttons) {
        b.classList.toggle('ask-true', b.dataset.choice === want);
        b.disabled = true;
      }
      reveal.disabled = true;
      const said = asked.answered;
      const head =
        said === undefined || said === null
          ? `The answer: ${choiceText(question.answer)}.`
          : asked.right
            ? `Right: ${choiceText(question.answer)}.`
            : `Not quite: ${choiceText(question.answer)}, not ${choiceText(said)}.`;
      const verdict = h('span', {
        class: `ask-verdict ${said === undefined || said === null ? '' : asked.right ? 'ask-right' : 'ask-wrong'}`.trim(),
        'data-testid': 'verdict',
        'data-answer': want,
        'data-right': said === undefined || said === null ? '' : String(asked.right),
      });
      verdict.append(h('strong', {}, head), ` ${question.why}`);
      status.replaceChildren(verdict);
      card.classList.add('revealed');
    },
    remove() {
      card.remove();
    },
  };
  return asked;
}
