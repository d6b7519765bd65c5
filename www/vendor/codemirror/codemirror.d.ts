// Types of codemirror.js (written by scripts/build/codemirror/bundle.mjs).
export { EditorState, Compartment } from '@codemirror/state';
export { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection, placeholder } from '@codemirror/view';
export { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
export { StreamLanguage, HighlightStyle, syntaxHighlighting, indentOnInput, bracketMatching, indentUnit } from '@codemirror/language';
export { linter, lintGutter, setDiagnostics, forceLinting } from '@codemirror/lint';
export { tags } from '@lezer/highlight';
