// @ts-check
/**
 * Syntax highlighting of Rhai (the lab's script language) for the
 * editor: a small CodeMirror stream tokenizer (keywords, strings and
 * template strings, characters, numbers, comments (block comments
 * nest, as in Rhai), the name after `fn`, `this`, property and method
 * names) and the colours of its tokens, from CSS variables in lab.css so
 * both themes apply. It only colours: the wasm's compiler says what is
 * wrong (lab/editor.js shows it).
 * @module lab/rhai-mode
 */

import { HighlightStyle, StreamLanguage, syntaxHighlighting, tags } from '../vendor/codemirror/codemirror.js';

/** Rhai's keywords and reserved words. */
const KEYWORDS = new Set([
  'fn', 'let', 'const', 'if', 'else', 'switch', 'while', 'loop', 'for', 'in', 'do', 'until', 'break', 'continue',
  'return', 'throw', 'try', 'catch', 'private', 'import', 'export', 'as', 'global', 'is_shared',
]);

/** Literal words. */
const ATOMS = new Set(['true', 'false']);

/** Functions every script may call without `ctx.` (Rhai's own). */
const BUILTINS = new Set(['print', 'debug', 'type_of', 'is_def_var', 'is_def_fn', 'Fn', 'call', 'curry']);

/**
 * The tokenizer's state between tokens and lines.
 * @typedef {object} RhaiState
 * @property {number} comment depth of block comments open (Rhai nests them)
 * @property {boolean} template inside a back-quoted string
 * @property {boolean} afterFn the last word was `fn`: the next names a function
 * @property {boolean} afterDot the last token was `.`: the next names a property
 */

/**
 * The rest of a block comment (or as much as is on this line).
 * @param {import('@codemirror/language').StringStream} stream
 * @param {RhaiState} state
 * @returns {string}
 */
function blockComment(stream, state) {
  while (!stream.eol()) {
    if (stream.match('/*')) state.comment += 1;
    else if (stream.match('*/')) {
      state.comment -= 1;
      if (state.comment === 0) break;
    } else stream.next();
  }
  return 'comment';
}

/**
 * The rest of a back-quoted string (it may span lines).
 * @param {import('@codemirror/language').StringStream} stream
 * @param {RhaiState} state
 * @returns {string}
 */
function templateString(stream, state) {
  while (!stream.eol()) {
    const c = stream.next();
    if (c === '\\') stream.next();
    else if (c === '`') {
      state.template = false;
      break;
    }
  }
  return 'string';
}

/** The tokenizer. @type {import('@codemirror/language').StreamParser<RhaiState>} */
const parser = {
  name: 'rhai',
  startState: () => ({ comment: 0, template: false, afterFn: false, afterDot: false }),
  token(stream, state) {
    if (state.comment > 0) return blockComment(stream, state);
    if (state.template) return templateString(stream, state);
    if (stream.eatSpace()) return null;
    const afterFn = state.afterFn;
    const afterDot = state.afterDot;
    state.afterFn = false;
    state.afterDot = false;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.comment = 1;
      return blockComment(stream, state);
    }
    if (stream.match('`')) {
      state.template = true;
      return templateString(stream, state);
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
    if (stream.match(/^'(?:[^'\\]|\\.)*'?/)) return 'string';
    if (stream.match(/^0x[0-9a-fA-F_]+|^0o[0-7_]+|^0b[01_]+|^\d[\d_]*/)) return 'number';
    if (stream.match('#{')) return 'bracket';
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (word && typeof word !== 'boolean') {
      const w = word[0];
      if (afterFn) return 'def';
      if (afterDot) return 'property';
      if (w === 'fn') {
        state.afterFn = true;
        return 'keyword';
      }
      if (KEYWORDS.has(w)) return 'keyword';
      if (ATOMS.has(w)) return 'atom';
      if (w === 'this') return 'self';
      if (BUILTINS.has(w)) return 'builtin';
      return 'variable';
    }
    if (stream.match('.')) {
      state.afterDot = true;
      return 'operator';
    }
    if (stream.match(/^[()[\]{}]/)) return 'bracket';
    if (stream.match(/^[-+*/%=!<>&|^?:]+/)) return 'operator';
    stream.next();
    return null;
  },
  languageData: {
    commentTokens: { line: '//', block: { open: '/*', close: '*/' } },
    closeBrackets: { brackets: ['(', '[', '{', '"', '`'] },
  },
};

/** Rhai, for the editor. */
export const rhaiLanguage = StreamLanguage.define(parser);

/** The token colours (lab.css defines the variables for each theme). */
export const rhaiHighlight = syntaxHighlighting(
  HighlightStyle.define([
    { tag: tags.keyword, color: 'var(--code-keyword)', fontWeight: '600' },
    { tag: [tags.string, tags.special(tags.string)], color: 'var(--code-string)' },
    { tag: tags.number, color: 'var(--code-number)' },
    { tag: [tags.bool, tags.atom], color: 'var(--code-number)' },
    { tag: tags.comment, color: 'var(--code-comment)', fontStyle: 'italic' },
    { tag: tags.definition(tags.variableName), color: 'var(--code-def)', fontWeight: '600' },
    { tag: tags.self, color: 'var(--code-keyword)' },
    { tag: tags.propertyName, color: 'var(--code-property)' },
    { tag: tags.standard(tags.variableName), color: 'var(--code-def)' },
  ]),
);
