// The parts of CodeMirror 6 the lab's editor uses (www/lab/editor.js),
// bundled by scripts/build/vendor.sh with esbuild into one ES module,
// www/vendor/codemirror/codemirror.js, which the unbundled page and the
// site build both import. Add a name here (and run vendor.sh) to use it.
export { EditorState, Compartment } from '@codemirror/state';
export { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection, placeholder } from '@codemirror/view';
export { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
export { StreamLanguage, HighlightStyle, syntaxHighlighting, indentOnInput, bracketMatching, indentUnit } from '@codemirror/language';
export { linter, lintGutter, setDiagnostics, forceLinting } from '@codemirror/lint';
export { tags } from '@lezer/highlight';
