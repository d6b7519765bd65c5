// The HTML entry pages of the site build (scripts/build/site/build.mjs, top
// comment): what each page loads, and the page rewritten to load the bundles
// instead.
//
// A page's module scripts (`<script type="module" src>`) become one
// JavaScript entry that imports them in document order (so they run in
// the same order), and its style sheets (`<link rel="stylesheet" href>`)
// one CSS entry that imports them in document order (the same cascade).
// The bundle's tags take the place of the first script and the first
// style sheet; the other tags go.
import { existsSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { scriptHash } from './preload.mjs';

const SCRIPT = /[ \t]*<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"[^>]*><\/script>[ \t]*\n?/g;
const STYLE = /[ \t]*<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"[^>]*>[ \t]*\n?/g;

/**
 * What a page loads: absolute paths of its module scripts and its style
 * sheets, in document order.
 * @param {string} html
 * @param {string} file absolute path of the page
 * @returns {{scripts: string[], styles: string[]}}
 */
export function pageInputs(html, file) {
  const at = (/** @type {string} */ src) => resolve(dirname(file), src);
  return {
    scripts: [...html.matchAll(SCRIPT)].map((m) => at(m[1])),
    styles: [...html.matchAll(STYLE)].map((m) => at(m[1])),
  };
}

/**
 * The page with its scripts and style sheets replaced by the bundles.
 * @param {string} html
 * @param {{script: string | null, scriptLoaded?: boolean, style: string | null, styleText: string | null, preload: string[],
 *   inline: Record<string, string | null>, version: string, hashed: (ref: string) => string | null}} out
 *   URLs relative to the page: the JavaScript bundle (with `scriptLoaded`,
 *   its tags go: an inline script loads it), the CSS bundle (or
 *   `styleText`, the bundle's text to inline in a `<style>` instead,
 *   allowed by its hash in the page's Content-Security-Policy), the
 *   chunks the bundle imports statically (as modulepreload hints, so
 *   they load beside it rather than after it); the inline scripts, by the
 *   name of the `<!-- name -->` line each takes the place of (null: the
 *   line goes; `wasm-preload`, `first-picture`), each allowed by its hash
 *   in the page's Content-Security-Policy; the build's version,
 *   written as `<meta name="election-version">`; and the URL of the
 *   hashed copy of a file the page names (`src`, `href`), or null
 * @returns {string}
 */
export function rewritePage(html, out) {
  const indent = (/** @type {string} */ tag) => tag.match(/^[ \t]*/)?.[0] ?? '';
  let first = true;
  let page = html.replace(STYLE, (tag) => {
    if (!first || (out.style === null && out.styleText === null)) return '';
    first = false;
    // Inline, the first paint waits for no request but the page's own.
    if (out.styleText !== null) return `${indent(tag)}<style>${out.styleText}</style>\n`;
    return `${indent(tag)}<link rel="stylesheet" href="${out.style}">\n`;
  });
  if (out.styleText !== null) {
    if (/<\/style/i.test(out.styleText)) throw new Error('the style sheet cannot be inlined as is');
    const csp = /(<meta http-equiv="Content-Security-Policy" content="[^"]*\bstyle-src [^;"]*)/;
    if (!csp.test(page)) throw new Error('the page has no Content-Security-Policy with style-src to allow its inline style sheet');
    page = page.replace(csp, (m) => `${m} ${scriptHash(/** @type {string} */ (out.styleText))}`);
  }
  first = true;
  page = page.replace(SCRIPT, (tag) => {
    // Loaded by an inline script instead (preload.mjs).
    if (!first || out.script === null || out.scriptLoaded) return '';
    first = false;
    const pad = indent(tag);
    // Low priority: nothing is drawn from them (the first picture is the
    // page's own, inline), so they take the link after what paints.
    const hints = out.preload.map((p) => `${pad}<link rel="modulepreload" href="${p}" fetchpriority="low">\n`).join('');
    return `${pad}<script type="module" src="${out.script}" fetchpriority="low"></script>\n${hints}`;
  });
  // Hints the source page gives for its own modules: the bundle's replace them.
  page = page.replace(/[ \t]*<link\b[^>]*\brel="modulepreload"[^>]*\bhref="(?!assets\/|\.\.\/assets\/)[^"]*"[^>]*>[ \t]*\n?/g, '');
  // Any other reference to a file the build hashed (a preload of the wasm).
  page = page.replace(/\b(src|href)="([^"]+)"/g, (all, attr, ref) => {
    const name = out.hashed(ref);
    return name ? `${attr}="${name}"` : all;
  });
  // The inline scripts, each where its marker line is, allowed by hash.
  for (const [name, text] of Object.entries(out.inline)) {
    const marker = new RegExp(`([ \\t]*)<!-- ${name} -->\\n`);
    if (text === null) {
      page = page.replace(marker, '');
      continue;
    }
    if (!marker.test(page)) throw new Error(`the page has no <!-- ${name} --> line for its inline script`);
    page = page.replace(marker, (m, pad) => `${pad}<script>${text}</script>\n`);
    const csp = /(<meta http-equiv="Content-Security-Policy" content="[^"]*\bscript-src [^;"]*)/;
    if (!csp.test(page)) throw new Error(`the page has no Content-Security-Policy with script-src to allow the ${name} script in`);
    page = page.replace(csp, (m) => `${m} ${scriptHash(text)}`);
  }
  const meta = /([ \t]*)<meta charset="utf-8">\n/i;
  if (!meta.test(page)) throw new Error('the page has no <meta charset="utf-8"> line to put the version after');
  return page.replace(meta, (m, pad) => `${m}${pad}<meta name="election-version" content="${out.version}">\n`);
}

/**
 * Fails, naming them, when the page refers to a local file that is not in
 * the output (a `src` or `href` that is not absolute, a fragment or data).
 * @param {string} html the rewritten page
 * @param {string} outFile where it is written in the output folder
 * @param {string} outRoot the output folder
 */
export function checkLocalRefs(html, outFile, outRoot) {
  const missing = [];
  for (const m of html.matchAll(/\b(?:src|href)="([^"]*)"/g)) {
    const ref = m[1].replaceAll('&amp;', '&');
    if (/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(ref) || ref === '') continue;
    const path = ref.replace(/[?#].*$/, '');
    const target = join(dirname(outFile), path);
    if (!target.startsWith(outRoot) || !existsSync(target)) missing.push(ref);
    if (path.startsWith('/')) missing.push(`${ref} (absolute: the site must work from any sub-path)`);
  }
  if (missing.length) {
    throw new Error(`${posix.relative(outRoot, outFile)} refers to files the site does not have: ${missing.join(', ')}`);
  }
}
