// @ts-check
/**
 * Input errors shown next to the input they are about, in plain words.
 *
 * The core refuses a bad value with an error naming the scenario field
 * (`field`, a dotted path such as `faults[5].network.drop`) and saying
 * what is wrong with it (`detail`: "must be a number from 0 to 1, got
 * 1.5"; web/src/js.rs). A panel that knows which of its inputs the field
 * came from marks that input (`aria-invalid`, `aria-describedby`) and
 * puts the sentence right under it: "The drop chance must be a number
 * from 0 to 1, not 1.5", with the exact field path as a small detail. The
 * page's error banner keeps a one-line summary. The input keeps what the
 * user typed.
 * @module field-errors
 */

import { h, messageOf } from '../shared/dom.js';

/**
 * What an input holds, in words, by the last part of the field's path.
 * @type {Record<string, string>}
 */
const WORDS = {
  at_ms: 'The time',
  for_ms: 'The length',
  extra_ms: 'The extra delay',
  period_ms: 'The period',
  down_ms: 'The down time',
  offset_ms: 'The clock offset',
  drift: 'The drift',
  drop: 'The drop chance',
  duplicate: 'The duplicate chance',
  'latency_ms[0]': 'The lowest latency',
  'latency_ms[1]': 'The highest latency',
  latency_ms: 'The latency range',
  fifo: 'Keeping order',
  nodes: 'The number of nodes',
  seed: 'The seed',
  algorithm: 'The algorithm',
  ring: 'The ring order',
  start: 'Who starts an election',
  until_ms: 'The run length',
  crash: 'The node',
  recover: 'The node',
  pause: 'The node',
  slow: 'The node',
  flaky: 'The node',
  clock: 'The node',
  cut: 'The link',
  uncut: 'The link',
  partition: 'Side A',
  heal: 'Heal',
  network: 'The network',
  faults: 'This fault',
};

/**
 * A core error's parts.
 * @typedef {object} CoreError
 * @property {string} field dotted path of the scenario field ('' when the
 *   error is not about one field)
 * @property {string} detail what is wrong with it, without the field
 * @property {string} message the core's whole sentence, naming the field
 */

/**
 * The parts of anything thrown: the core's errors carry `field` and
 * `detail`; anything else is all message.
 * @param {unknown} e
 * @returns {CoreError}
 */
export function coreError(e) {
  const message = messageOf(e);
  const any = /** @type {{field?: unknown, detail?: unknown}} */ (e ?? {});
  const field = typeof any.field === 'string' ? any.field : '';
  const detail = typeof any.detail === 'string' ? any.detail : message;
  return { field, detail, message };
}

/**
 * The last part of a field's path, as `WORDS` keys it:
 * `faults[5].network.latency_ms[0]` is `latency_ms[0]`.
 * @param {string} field
 * @returns {string}
 */
export function lastKey(field) {
  const parts = field.split('.');
  const last = parts[parts.length - 1] ?? '';
  return /^latency_ms\[[01]\]$/.test(last) ? last : last.replace(/\[\d+\]$/, '');
}

/**
 * The core's detail said plainly: "got" becomes "not", a blank value is
 * called blank, the day limit is said in words.
 * @param {string} detail
 * @returns {string}
 */
export function plainDetail(detail) {
  return detail
    .replace('a number of milliseconds from 0 to 86400000', 'from 0 to 86,400,000 ms (one day)')
    .replace('below period_ms', 'below the period')
    .replace(/, got the text ""$/, ', not blank')
    .replace(/, got (.+)$/, ', not $1');
}

/**
 * The error as one plain sentence about the input: "The drop chance must
 * be a number from 0 to 1, not 1.5."
 * @param {CoreError} err
 * @returns {string}
 */
export function plainSentence(err) {
  const subject = err.field === '' ? '' : (WORDS[lastKey(err.field)] ?? 'This value');
  const said = plainDetail(err.detail);
  // "must be ..." follows the subject; anything else ("the high end must
  // not be below the low end") is said after a colon.
  const joined = /^(must|is|are|needs|names)\b/.test(said) ? `${subject} ${said}` : `${subject}: ${said}`;
  const text = subject === '' ? said.charAt(0).toUpperCase() + said.slice(1) : joined;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * The banner's one line for an error shown at its field: where, what,
 * and the exact field path.
 * @param {string} where the panel, e.g. "Network"
 * @param {CoreError} err
 * @returns {string}
 */
export function bannerLine(where, err) {
  const sentence = plainSentence(err).replace(/\.$/, '');
  const path = err.field === '' ? '' : ` (${err.field})`;
  return `${where}: ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}; see the marked field${path}.`;
}

/** @param {HTMLElement} target @param {string} id @param {boolean} on */
function describedBy(target, id, on) {
  const ids = (target.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((t) => t !== '' && t !== id);
  if (on) ids.push(id);
  if (ids.length > 0) target.setAttribute('aria-describedby', ids.join(' '));
  else target.removeAttribute('aria-describedby');
}

/** Error message elements made so far, for unique ids. */
let made = 0;

/**
 * Shows `err` next to `target` (an input, select or button): marks it
 * invalid (not a button) and puts the plain sentence with the field path
 * after `after` (default: the target itself).
 * @param {HTMLElement} target
 * @param {CoreError} err
 * @param {Element} [after] where the message goes (e.g. the unit after an input)
 * @param {string} [lead] words before the sentence (e.g. "In broken.json:")
 * @returns {HTMLElement} the message
 */
export function showAtField(target, err, after = target, lead = '') {
  const id = target.id ? `${target.id}-error` : `field-error-${++made}`;
  document.getElementById(id)?.remove();
  const text = lead === '' ? plainSentence(err) : `${lead} ${plainSentence(err)}`;
  const box = h('p', { id, class: 'field-error', 'data-testid': 'field-error', 'data-field': err.field }, text);
  if (err.field !== '') box.append(h('code', {}, err.field));
  after.after(box);
  if (!(target instanceof HTMLButtonElement)) target.setAttribute('aria-invalid', 'true');
  target.dataset.errorId = id;
  describedBy(target, id, true);
  return box;
}

/**
 * Takes away every error shown inside `root` (and the marks on its inputs).
 * @param {ParentNode} root
 */
export function clearFieldErrors(root) {
  for (const target of root.querySelectorAll('[data-error-id]')) {
    if (!(target instanceof HTMLElement)) continue;
    const id = target.dataset.errorId ?? '';
    document.getElementById(id)?.remove();
    describedBy(target, id, false);
    target.removeAttribute('aria-invalid');
    delete target.dataset.errorId;
  }
  // Only the messages showAtField made: a panel's own message element
  // (the finder's #finder-seeds-error) stays in the page.
  for (const box of root.querySelectorAll('.field-error[data-testid="field-error"]')) box.remove();
}

/**
 * For the scenario settings form: shows `e` at the input named by its
 * field (`nodes`, `seed`...), clearing the errors shown before, and
 * returns the banner's line. `e` is the core's error, or a message of the
 * form's own in the same shape ("seed: must be a whole number, got
 * \"x\""). An error about no input of the form is the banner's only.
 * @param {HTMLFormElement} form
 * @param {unknown} e
 * @returns {string}
 */
export function settingsError(form, e) {
  clearFieldErrors(form);
  const own = typeof e === 'string' ? /^([a-z_]+): (.+)$/.exec(e) : null;
  const err = own ? { field: own[1], detail: own[2], message: own[0] } : coreError(e);
  const input = err.field === '' ? null : form.elements.namedItem(err.field.split('.')[0]);
  if (!(input instanceof HTMLElement)) return err.message;
  // An input sharing a row with a button (the seed) gets it under the row.
  const row = input.parentElement;
  showAtField(input, err, row && row !== form ? row : input);
  return bannerLine('Scenario', err);
}
