// @ts-check
/**
 * Keyboard shortcuts for the playback and time-travel controls, and the
 * help overlay that lists them (a modal `<dialog>`: focus stays inside,
 * Escape or Close shuts it and focus goes back where it was).
 *
 * Shortcuts work wherever the focus is (a node, Restart, Partition, a
 * checkbox, a select or a radio button clicked or tabbed to last), except
 * while typing in a text field, number field, text area or editable text.
 * Enter stays with buttons and links (it presses them) and ticks a
 * focused checkbox or radio button (Space, the browser's way, plays
 * instead: issue 29, a clicked "Skip quiet time" box was ticked by Space
 * and the changed setting remembered); the arrows, Home, End and Page keys
 * stay with a focused slider (they move it), the up and down arrows, Home,
 * End and Page keys with a select (they choose), and the arrows with a
 * radio button.
 *
 * ## Keys
 *
 * **Keys** (`player/shortcuts.js`, `keyBelongsTo`) are playback's wherever
 * the focus is, except while typing in a text field (text-like inputs,
 * textarea, contenteditable); a focused button or link keeps only Enter,
 * a slider its arrows, Home, End and Page keys, a select its up and down
 * arrows, Home, End and Page keys, a radio button its arrows, and a
 * checkbox nothing: Space plays there too, and Enter ticks it
 * (`tickOnEnter`). Compare mode's keys use the same rule.
 * @module shortcuts
 */

/**
 * What a shortcut does (`leave`: Escape, out of presentation mode).
 * @typedef {'play' | 'step' | 'next' | 'back' | 'forward' | 'faster' | 'slower' | 'start' | 'end'
 *   | 'present' | 'leave' | 'help'} Action
 */

/**
 * One line of the help overlay: the keys and what they do.
 * @typedef {object} Shortcut
 * @property {Action} action
 * @property {string[]} keys as shown (one `<kbd>` each)
 * @property {string} label
 */

/** @type {Shortcut[]} */
export const SHORTCUTS = [
  { action: 'play', keys: ['Space'], label: 'Play or pause (presenting a lesson: on to its next step, or pause)' },
  { action: 'step', keys: ['S', '→'], label: 'Step: the next event' },
  {
    action: 'next',
    keys: ['N'],
    label: 'Next change: run to the next role change, leader change or violation',
  },
  { action: 'back', keys: ['←', '[', 'Shift+←'], label: 'Seek back (one twentieth of the time line)' },
  { action: 'forward', keys: [']', 'Shift+→'], label: 'Seek forward' },
  { action: 'faster', keys: ['+'], label: 'Play twice as fast (up to 1000× real time)' },
  { action: 'slower', keys: ['−'], label: 'Play half as fast (down to 1/1000 real time)' },
  { action: 'start', keys: ['Home'], label: 'Go to the start (0 ms)' },
  { action: 'end', keys: ['End'], label: 'Go to the end of the run' },
  { action: 'present', keys: ['P'], label: 'Presentation mode: the cluster fills the screen (Escape leaves)' },
  { action: 'help', keys: ['?'], label: 'Show or hide this list (Escape closes it)' },
];

/** Input types that take typed text: every key belongs to them. */
const TEXT_INPUTS = new Set([
  'text',
  'number',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
]);

/** Keys a focused slider uses itself (they move it). */
const SLIDER_KEYS = new Set([
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/** Keys a focused select uses itself (they choose an option; Enter opens
 * it, `tickOnEnter`). */
const SELECT_KEYS = new Set(['ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);

/** Keys a focused radio button uses itself (they move along its group). */
const RADIO_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);

/**
 * The element a key pressed on `target` goes to: inside a shadow root
 * (the lab's editor), the element focused there.
 * @param {EventTarget | null} target
 * @returns {EventTarget | null}
 */
function focusedIn(target) {
  while (target instanceof HTMLElement && target.shadowRoot?.activeElement) target = target.shadowRoot.activeElement;
  return target;
}

/**
 * Whether a key pressed on `target` belongs to that element rather than
 * to the page.
 * @param {EventTarget | null} target
 * @param {string} key
 * @returns {boolean}
 */
export function keyBelongsTo(target, key) {
  // A key typed inside a shadow root (the lab's editor) reaches the page
  // from its host: the element focused inside decides.
  target = focusedIn(target);
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement) return true;
  // A select chooses with its arrows; Space and letters are playback's
  // (no type-ahead: "n" is Next change wherever the focus is).
  if (target instanceof HTMLSelectElement) return SELECT_KEYS.has(key);
  if (target instanceof HTMLInputElement) {
    if (TEXT_INPUTS.has(target.type)) return true;
    if (target.type === 'range') return SLIDER_KEYS.has(key);
    if (target.type === 'radio') return RADIO_KEYS.has(key);
    // Space is playback's, tabbed to or clicked; Enter ticks it.
    if (target.type === 'checkbox') return false;
  }
  // Buttons and links (the node buttons too) press on Enter; Space is
  // playback's, whatever was clicked last.
  return key === 'Enter';
}

/**
 * Enter on a focused checkbox or radio button ticks it, and on a select
 * opens its list: Space, the browser's key for both, is playback's
 * (`keyBelongsTo`). Returns whether it did (the key is then used up).
 * @param {KeyboardEvent} e
 * @returns {boolean}
 */
export function tickOnEnter(e) {
  if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return false;
  const target = focusedIn(e.target);
  if (target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio') && !target.disabled) {
    e.preventDefault();
    target.click();
    return true;
  }
  if (target instanceof HTMLSelectElement && !target.disabled && typeof target.showPicker === 'function') {
    e.preventDefault();
    try {
      target.showPicker();
    } catch {
      // Not allowed here (no user activation): the arrows still choose.
    }
    return true;
  }
  return false;
}

/**
 * The action of a key press, if any.
 * @param {KeyboardEvent} e
 * @returns {Action | null}
 */
export function actionOf(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case ' ':
      return 'play';
    case 's':
    case 'S':
      return 'step';
    case 'ArrowRight':
      return e.shiftKey ? 'forward' : 'step';
    case 'n':
    case 'N':
      return 'next';
    case 'ArrowLeft':
    case '[':
      return 'back';
    case ']':
      return 'forward';
    case '+':
    case '=':
      return 'faster';
    case '-':
    case '_':
      return 'slower';
    case 'Home':
      return 'start';
    case 'End':
      return 'end';
    case 'p':
    case 'P':
      return 'present';
    case 'Escape':
      return 'leave';
    case '?':
      return 'help';
    default:
      return null;
  }
}

/** Elements that can take the focus inside the dialog. */
const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

export class Shortcuts {
  /**
   * @param {Record<Action, () => (boolean | void)>} actions (false: it did
   *   nothing, the key is left to the browser)
   * @param {HTMLDialogElement} dialog the help overlay
   * @param {HTMLElement} list where the shortcuts are listed (a `<dl>`)
   * @param {HTMLButtonElement} opener the button that opens the overlay
   */
  constructor(actions, dialog, list, opener) {
    this.actions = actions;
    this.dialog = dialog;
    /** Where the focus was before the overlay opened. @private @type {HTMLElement | null} */
    this.returnFocus = null;
    list.replaceChildren(
      ...SHORTCUTS.flatMap((s) => {
        const dt = document.createElement('dt');
        s.keys.forEach((k, i) => {
          if (i > 0) dt.append(' or ');
          const kbd = document.createElement('kbd');
          kbd.textContent = k;
          dt.append(kbd);
        });
        const dd = document.createElement('dd');
        dd.textContent = s.label;
        return [dt, dd];
      }),
    );
    opener.addEventListener('click', () => this.openHelp());
    dialog.addEventListener('keydown', (e) => this.trapFocus(e));
    dialog.addEventListener('close', () => {
      const back = this.returnFocus;
      this.returnFocus = null;
      if (back && back.isConnected) back.focus();
    });
    // Pressing the backdrop (outside the box) closes it too.
    dialog.addEventListener('click', (e) => {
      if (e.target === dialog) {
        const box = dialog.getBoundingClientRect();
        const inside =
          e.clientX >= box.left && e.clientX <= box.right && e.clientY >= box.top && e.clientY <= box.bottom;
        if (!inside) dialog.close();
      }
    });
    document.addEventListener('keydown', (e) => this.key(e));
  }

  /** Opens the help overlay, focus on its first control. */
  openHelp() {
    if (this.dialog.open) return;
    this.returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.dialog.showModal();
    const first = this.dialog.querySelector(FOCUSABLE);
    if (first instanceof HTMLElement) first.focus();
  }

  /** Closes the help overlay. */
  closeHelp() {
    if (this.dialog.open) this.dialog.close();
  }

  /**
   * Keeps Tab and Shift+Tab inside the open dialog.
   * @private
   * @param {KeyboardEvent} e
   */
  trapFocus(e) {
    if (e.key !== 'Tab') return;
    const items = [...this.dialog.querySelectorAll(FOCUSABLE)].filter(
      (n) => n instanceof HTMLElement && !n.hasAttribute('disabled') && n.offsetParent !== null,
    );
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const first = /** @type {HTMLElement} */ (items[0]);
    const last = /** @type {HTMLElement} */ (items[items.length - 1]);
    const at = document.activeElement;
    if (e.shiftKey && (at === first || !this.dialog.contains(at))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (at === last || !this.dialog.contains(at))) {
      e.preventDefault();
      first.focus();
    }
  }

  /**
   * @private
   * @param {KeyboardEvent} e
   */
  key(e) {
    if (e.defaultPrevented) return;
    if (this.dialog.open) {
      // Only the overlay's own keys while it is open; ? closes it too.
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        this.closeHelp();
      }
      return;
    }
    if (tickOnEnter(e)) return;
    const action = actionOf(e);
    if (action === null || keyBelongsTo(e.target, e.key)) return;
    // An action that did nothing (Escape outside presentation mode) leaves
    // the key to the browser.
    if (this.actions[action]() !== false) e.preventDefault();
  }
}
