// @ts-check
/**
 * The lab's drafts in localStorage, so a reload (or a closed tab) loses
 * no work: the editor's text per template (its id), the script a link
 * brought (slot `link`, with that script, so another link's script does
 * not take its edits) and which slot was open last. Storage that is full
 * or refused (a private window) is ignored: the editor keeps working.
 * @module lab/drafts
 */

const PREFIX = 'election-playground-lab:';

/** The slot of a script that came with a link. */
export const LINK_SLOT = 'link';

/**
 * @param {string} key
 * @returns {string | null}
 */
function read(key) {
  try {
    return window.localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

/**
 * @param {string} key
 * @param {string | null} value null removes it
 */
function write(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(PREFIX + key);
    else window.localStorage.setItem(PREFIX + key, value);
  } catch {
    // Full or refused: the text stays in the editor.
  }
}

/**
 * The saved text of `slot`, if any; for the link slot only when it was
 * edited from the script `base` (the link's).
 * @param {string} slot a template id or LINK_SLOT
 * @param {string} [base]
 * @returns {string | null}
 */
export function loadDraft(slot, base) {
  if (slot === LINK_SLOT) {
    const saved = read(`${slot}:base`);
    return saved !== null && saved === base ? read(slot) : null;
  }
  return read(slot);
}

/**
 * Saves the text of `slot` (and the link's script it started from).
 * @param {string} slot
 * @param {string} text
 * @param {string} [base] for the link slot
 */
export function saveDraft(slot, text, base) {
  write(slot, text);
  if (slot === LINK_SLOT && base !== undefined) write(`${slot}:base`, base);
  write('open', slot);
}

/**
 * Forgets the text of `slot` (Reset).
 * @param {string} slot
 */
export function dropDraft(slot) {
  write(slot, null);
}

/** @returns {string | null} the slot open last */
export function lastSlot() {
  return read('open');
}
