// @ts-check
/**
 * The lab's code editor: CodeMirror 6 (www/vendor/codemirror, bundled by
 * scripts/build/vendor.sh) with Rhai highlighting (rhai-mode.js), line
 * numbers, undo history, bracket matching, Ctrl/Cmd-Enter to run, and a
 * script error shown at its line (a lint diagnostic, underlined, with a
 * marker in the gutter). What counts as an error is the caller's: the
 * wasm's compiler while typing, the run's error after a run.
 *
 * The editor is mounted in a shadow root of its box: CodeMirror writes
 * its style rules into a `<style>` element in a document, which the
 * page's Content-Security-Policy (`style-src 'self'`, no inline styles)
 * refuses, and into a constructed style sheet in a shadow root, which it
 * allows. The page's CSS variables inherit into the shadow root, so the
 * theme below follows the page's light and dark themes.
 * @module lab/editor
 */

import {
  EditorState,
  EditorView,
  bracketMatching,
  drawSelection,
  defaultKeymap,
  highlightActiveLine,
  highlightActiveLineGutter,
  history,
  historyKeymap,
  indentOnInput,
  indentUnit,
  indentWithTab,
  keymap,
  lineNumbers,
  lintGutter,
  linter,
  setDiagnostics,
} from '../vendor/codemirror/codemirror.js';
import { playClock } from '../shared/play-clock.js';
import { rhaiHighlight, rhaiLanguage } from './rhai-mode.js';

/** The editor's look, from the page's CSS variables (lab.css, style.css). */
const pageTheme = EditorView.theme({
  '&': { height: '100%', color: 'var(--ink)', backgroundColor: 'var(--canvas)', fontSize: '0.9rem' },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '-2px' },
  '.cm-scroller': { fontFamily: 'var(--mono, monospace)', lineHeight: '1.45' },
  '.cm-content': { caretColor: 'var(--ink)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--ink)' },
  '.cm-gutters': { backgroundColor: 'var(--paper)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 10%, transparent)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground': {
    backgroundColor: 'color-mix(in srgb, var(--accent) 30%, transparent)',
  },
  '.cm-lintRange-error': {
    backgroundImage: 'none',
    textDecoration: 'underline wavy var(--code-error)',
    textDecorationSkipInk: 'none',
    textUnderlineOffset: '3px',
  },
  '.cm-tooltip': { backgroundColor: 'var(--paper)', color: 'var(--ink)', border: '1px solid var(--line)' },
  '.cm-matchingBracket': { backgroundColor: 'color-mix(in srgb, var(--accent) 25%, transparent)', outline: 'none' },
});

/**
 * A script error where the editor can show it (line and column from 1,
 * as the wasm reports them; the column may be unknown).
 * @typedef {object} ErrorAt
 * @property {number | null} line
 * @property {number | null} column
 * @property {string} message what the editor says at the line
 */

/**
 * The span of the document an error covers: from its column to the end
 * of the word there (a character at least), or the whole line when the
 * column is unknown; null when the line is not in the document.
 * @param {import('@codemirror/state').Text} doc
 * @param {ErrorAt} e
 * @returns {{from: number, to: number} | null}
 */
export function errorSpan(doc, e) {
  if (e.line === null || e.line < 1 || e.line > doc.lines) return null;
  const line = doc.line(e.line);
  if (e.column === null || e.column < 1) return { from: line.from, to: Math.max(line.from, line.to) };
  let from = Math.min(line.from + e.column - 1, line.to);
  const rest = line.text.slice(from - line.from);
  const word = /^[A-Za-z0-9_]+/.exec(rest);
  let to = from + (word ? word[0].length : 1);
  if (to > line.to) {
    to = line.to;
    from = Math.max(line.from, to - 1);
  }
  return { from, to };
}

/**
 * The editor.
 * @typedef {object} ScriptEditor
 * @property {import('@codemirror/view').EditorView} view
 * @property {() => string} text the script now
 * @property {(text: string) => void} setText replaces the whole script (a new undo history)
 * @property {(text: string) => void} replace replaces the whole script as an edit (undo brings the old text back)
 * @property {() => void} recheck shows what `errors` says now (after a run)
 * @property {() => void} focus
 */

/**
 * Builds the editor in a shadow root of `parent`.
 * @param {HTMLElement} parent
 * @param {object} options
 * @param {string} options.text the script to start with
 * @param {string} options.label the editor's accessible name
 * @param {(text: string) => void} options.changed after every edit
 * @param {(text: string) => ErrorAt[]} options.errors what is wrong with `text` (shown at the lines)
 * @param {() => void} options.run Ctrl/Cmd-Enter
 * @returns {ScriptEditor}
 */
export function createEditor(parent, options) {
  /**
   * The diagnostics of the editor's text now.
   * @param {import('@codemirror/view').EditorView} view
   * @returns {import('@codemirror/lint').Diagnostic[]}
   */
  const diagnostics = (view) => {
    const doc = view.state.doc;
    /** @type {import('@codemirror/lint').Diagnostic[]} */
    const found = [];
    for (const e of options.errors(doc.toString())) {
      const span = errorSpan(doc, e) ?? { from: 0, to: Math.min(1, doc.length) };
      found.push({ ...span, severity: 'error', message: e.message, source: 'script' });
    }
    return found;
  };
  // While typing: the compiler's verdict shortly after the last key.
  const lint = linter(diagnostics, { delay: 400 });
  const extensions = [
    lineNumbers(),
    highlightActiveLineGutter(),
    history(),
    drawSelection(),
    indentOnInput(),
    indentUnit.of('    '),
    bracketMatching(),
    highlightActiveLine(),
    // A phone's width shows a long line whole.
    EditorView.lineWrapping,
    rhaiLanguage,
    rhaiHighlight,
    pageTheme,
    lintGutter(),
    lint,
    keymap.of([
      {
        key: 'Mod-Enter',
        run: () => {
          options.run();
          return true;
        },
      },
      ...defaultKeymap,
      ...historyKeymap,
      indentWithTab,
    ]),
    // Typing over a selection: done here as an edit, not by the browser,
    // whose merge of the selected lines would copy the highlighting's
    // colours into style attributes, which the CSP refuses (an error in
    // the console each time; the text itself comes out right).
    EditorView.domEventHandlers({
      beforeinput(event, view) {
        if (event.isComposing) return false;
        if (event.inputType !== 'insertText' && event.inputType !== 'insertReplacementText') return false;
        let { from, to } = view.state.selection.main;
        if (from === to) {
          // A selection the editor has not seen yet (Select all a moment
          // ago): the shadow root's own (Chromium; event.getTargetRanges()
          // does not reach into a shadow root).
          const selection = /** @type {{getSelection?: () => Selection | null}} */ (/** @type {unknown} */ (view.root)).getSelection?.();
          if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return false;
          const range = selection.getRangeAt(0);
          if (!view.contentDOM.contains(range.startContainer) || !view.contentDOM.contains(range.endContainer)) return false;
          from = view.posAtDOM(range.startContainer, range.startOffset);
          to = view.posAtDOM(range.endContainer, range.endOffset);
          if (from === to) return false;
          // Everything drawn is everything there is (the editor draws
          // only the lines near the view): a select-all.
          if (from <= view.viewport.from && to >= view.viewport.to) {
            from = 0;
            to = view.state.doc.length;
          }
        }
        const text = event.data ?? event.dataTransfer?.getData('text/plain') ?? '';
        event.preventDefault();
        view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length }, scrollIntoView: true, userEvent: 'input.type' });
        return true;
      },
    }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.changed(update.state.doc.toString());
    }),
    EditorView.contentAttributes.of({ 'aria-label': options.label, 'data-testid': 'lab-code' }),
  ];
  /** @param {string} text */
  const stateOf = (text) => EditorState.create({ doc: text, extensions });
  const shadow = parent.attachShadow({ mode: 'open' });
  const mount = document.createElement('div');
  mount.style.height = '100%';
  shadow.append(mount);
  const view = new EditorView({ state: stateOf(options.text), parent: mount, root: shadow });
  // While a test holds the clock, the whole text (the editor draws only
  // the lines in view) is read from the box as `__script()`.
  if (playClock.hand) /** @type {any} */ (parent).__script = () => view.state.doc.toString();
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      if (text === view.state.doc.toString()) return;
      view.setState(stateOf(text));
      view.dispatch(setDiagnostics(view.state, diagnostics(view)));
    },
    replace(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    recheck() {
      view.dispatch(setDiagnostics(view.state, diagnostics(view)));
    },
    focus() {
      view.focus();
    },
  };
}
