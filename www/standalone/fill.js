// @ts-check
/**
 * Filling a standalone template's scenario block: what the page's
 * "Download as a standalone page" does to the template (cli/src/html.rs
 * does the same for `election html`). The block is a data block, not
 * code, so the page's Content-Security-Policy hashes stay valid. Pure
 * string work, no DOM.
 * @module standalone/fill
 */

/**
 * What identifies the scenario block. Its last occurrence is the block:
 * the block is the file's last element, and the page's bundled code, which
 * comes first, has this text too (its text never has a `<`: see
 * scriptSafeJson). cli/src/html.rs finds it the same way.
 */
const BLOCK_ID = 'id="standalone-scenario"';

/**
 * Where the scenario block is in `text`, or null.
 * @param {string} text
 * @returns {{start: number, end: number} | null}
 */
function blockIn(text) {
  const id = text.lastIndexOf(BLOCK_ID);
  if (id < 0) return null;
  const start = text.lastIndexOf('<script', id);
  const close = text.indexOf('</script>', id);
  return start < 0 || close < 0 ? null : { start, end: close + '</script>'.length };
}

/**
 * What goes into a template.
 * @typedef {object} Lesson
 * @property {string} scenario scenario JSON, as `election run --scenario` reads it
 * @property {number | 'end' | null} at the moment to open at (null: the start)
 * @property {string | null} preset the guided scenario whose narration to show
 * @property {string | null} [lesson] the `#l=1.<data>` link of the lesson
 *   whose steps to show (`data-lesson`; `scenario` is then the lesson's
 *   scenario, its steps' faults included: `election html --lesson` writes
 *   the same)
 */

/**
 * JSON that cannot end or confuse a script element: every `<` (only ever
 * inside a string) written `\u003c`.
 * @param {string} json
 * @returns {string}
 */
export function scriptSafeJson(json) {
  return json.replace(/</g, '\\u003c');
}

/**
 * @param {string} text
 * @returns {string}
 */
function attribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Whether `text` is a standalone template (has the scenario block).
 * @param {string} text
 * @returns {boolean}
 */
export function isTemplate(text) {
  return blockIn(text) !== null;
}

/**
 * The template with its scenario block holding `lesson`.
 * @param {string} template
 * @param {Lesson} lesson
 * @returns {string}
 */
export function fillTemplate(template, lesson) {
  const where = blockIn(template);
  if (!where) throw new Error('This is not a standalone template: it has no standalone-scenario block.');
  const at = lesson.at === null ? '' : String(lesson.at);
  const block =
    `<script type="application/json" id="standalone-scenario" data-at="${attribute(at)}" data-preset="${attribute(lesson.preset ?? '')}"` +
    (lesson.lesson ? ` data-lesson="${attribute(lesson.lesson)}">` : '>') +
    `${scriptSafeJson(lesson.scenario)}</script>`;
  return `${template.slice(0, where.start)}${block}${template.slice(where.end)}`;
}
