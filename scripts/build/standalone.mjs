#!/usr/bin/env node
// Writes the standalone template: ONE html file with the whole page in it,
// which opens by double-click from file:// with no network
// (below).
//
//   node scripts/build/standalone.mjs [--out PATH]     (default dist/standalone.html)
//
// Run after `bash scripts/build/build-wasm.sh` (it reads www/pkg). What the
// file holds, in this order:
//   - index.html's markup (its <head> metadata and its <body>), the body
//     marked `data-standalone="true"`;
//   - every stylesheet index.html links, bundled by esbuild into one <style>;
//   - the page's JavaScript (www/standalone/entry.js: the standalone boot
//     code, then the page on the one stage, www/stage/) bundled by esbuild
//     into one inline <script type="module">, dynamic imports included (no code
//     splitting:
//     file:// cannot fetch modules);
//   - the wasm, gzip-compressed and base64-encoded, in a data block
//     (<script type="application/octet-stream" id="standalone-wasm">),
//     instantiated from those bytes. One module only: the tools module
//     (www/pkg/election_web.js, every algorithm; its API is the player
//     modules' and more) stands in for every player module
//     (www/pkg/election_player_<family>.js) too, so whichever module the
//     scenario asks for, the page's first `init` starts it and the tools'
//     own `init` (shared/tools-wasm.js) finds it started;
//   - an empty scenario data block (<script type="application/json"
//     id="standalone-scenario" data-at="" data-preset="">) that
//     `election html` and the page's "Download as a standalone page" fill.
// Its Content-Security-Policy allows exactly that script and that style by
// their sha256 hashes, plus 'wasm-unsafe-eval': no 'unsafe-eval', no
// 'unsafe-inline', nothing from the network. Data blocks are not run, so
// filling the scenario changes no hash.
// Prints the file's size, raw and gzip. Exit code 2 when the wasm build is
// missing, 1 when bundling fails.
//
// ## The standalone page
//
// One `.html` file with the whole page inside, which opens by double-click
// from `file://` with no network and shows one scenario with the player
// controls: for an e-mail or a learning-management system. Three parts:
//
// - **The template**, `node scripts/build/standalone.mjs [--out PATH]`
//   (default `dist/standalone.html`; after `scripts/build/build-wasm.sh`;
//   `scripts/build-site.sh` runs it last, so the site serves the template
//   beside the page but the service worker does not precache it).
//   esbuild bundles `www/standalone/entry.js` (the boot code, then
//   the page: `stage/start.js`, `stage/page.js`) into one inline `<script
//   type="module">`, without code
//   splitting, so dynamic imports are inside too (a file cannot fetch
//   modules), and the stylesheets `index.html` links into one `<style>`;
//   the markup is `index.html`'s body, marked `data-standalone="true"`.
//   The wasm is gzip-compressed and base64-encoded into a data block,
//   `<script type="application/octet-stream" id="standalone-wasm"
//   data-encoding="gzip">`. One module only: the tools module
//   (`election_web`, every algorithm and scripts; its API is the player
//   modules' and more) stands in for every player module (an esbuild
//   plugin resolves each `election_player_<family>.js` to it), so whatever
//   the scenario's algorithm, the page's first `init` starts it and
//   `shared/tools-wasm.js` finds it started: compare mode, the exports and
//   a switch to another family need no second module. (A template per
//   family, with that family's player module, would be a third of the
//   size, but `election html` would have to pick the template, and compare
//   mode and the exports would not work in the file.) Last comes the empty
//   scenario block,
//   `<script type="application/json" id="standalone-scenario" data-at=""
//   data-preset="">`. The Content-Security-Policy is `default-src 'none';
//   script-src 'sha256-…' 'wasm-unsafe-eval'; style-src 'sha256-…'; img-src
//   data: blob:; base-uri 'none'`: the one script and the one style by
//   their hashes, no `'unsafe-eval'`, no `'unsafe-inline'`, nothing from
//   the network. Data blocks are never run, so filling the scenario changes
//   no hash. The build refuses a bundle with `</script` or `<!--` in it.
// - **Filling it**: `election html` (`cli/src/html.rs`: a scenario file or
//   a preset with `election run`'s overrides, `--at MS|end`, `-o FILE`,
//   `--template PATH`, by default the `dist/standalone.html` of the
//   repository the binary was built from, then of the current directory; no
//   node needed) and the page's "Download as a standalone page"
//   (`www/standalone/control.js`, which loads `make.js` on first click; it
//   fetches `standalone.html` beside the page, then `dist/standalone.html`
//   for a development checkout, and on a standalone page uses the page's
//   own text, kept by `boot.js` before anything changed the markup) both
//   replace the scenario block (found by its id's *last* occurrence: the
//   bundled code, earlier in the file, names it too) with the canonical
//   scenario JSON, every `<` written `\u003c` so it cannot end the element,
//   `data-at` the moment (milliseconds, or `end`) and `data-preset` the
//   guided scenario whose narration fits (the CLI writes it only when no
//   override changed the preset's scenario). The page's file is
//   `<algorithm>-<seed>.html` at the moment shown (the instant finished
//   first, as a share link does).
//
// The template is 1,305 KiB (864 KiB gzip, measured on the wasm of issue
// 17's family split): the tools module's gzip (768 KiB, the script
// interpreter included since issue 18) in base64 1,024 KiB, the bundled
// JavaScript, CSS and markup 281 KiB; the build script prints both
// sizes. Tests:
// `cli/tests/html.rs` (a small fake template: the block holds what `election
// run` runs, overrides, presets, moments, errors) and
// `tests/browser/standalone.test.js` (builds the template, opens `election
// html`'s file and the page's download from `file://` offline with every
// http request aborted, and compares messages, leader, time and trace hash
// with `election run --json`).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TOOLS = join(ROOT, 'www/pkg/election_web.js');
const WASM = join(ROOT, 'www/pkg/election_web_bg.wasm');

/** An esbuild plugin: every import of a player module (or a panel's module) gets the tools module (see the top). */
const oneWasmModule = {
  name: 'one-wasm-module',
  /** @param {import('esbuild').PluginBuild} b */
  setup(b) {
    b.onResolve({ filter: /(^|\/)election_(player_\w+|compare|sweeps|lab)\.js$/ }, () => ({ path: TOOLS }));
  },
};
const ENTRY = join(ROOT, 'www/standalone/entry.js');

/** The scenario block as the template leaves it: empty (the page then opens the default scenario). */
export const EMPTY_SCENARIO_BLOCK = '<script type="application/json" id="standalone-scenario" data-at="" data-preset=""></script>';

/**
 * `--out PATH` (or `--out=PATH`), else dist/standalone.html.
 * @param {string[]} args
 * @returns {string}
 */
function outPath(args) {
  let out = join(ROOT, 'dist/standalone.html');
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--out' && args[i + 1]) out = resolve(args[++i]);
    else if (a.startsWith('--out=')) out = resolve(a.slice('--out='.length));
    else if (a === '-h' || a === '--help') {
      console.log('usage: node scripts/build/standalone.mjs [--out PATH]   (default dist/standalone.html)');
      process.exit(0);
    } else {
      console.error(`standalone.mjs: unknown argument ${JSON.stringify(a)}; usage: node scripts/build/standalone.mjs [--out PATH]`);
      process.exit(2);
    }
  }
  return out;
}

/**
 * The sha256 source expression of an inline element's text, for the CSP.
 * @param {string} text
 * @returns {string}
 */
function sha256(text) {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Throws when `text` could end (or confuse) the raw-text element it goes into.
 * @param {string} text
 * @param {string} what
 * @param {RegExp} forbidden
 */
function assertInlinable(text, what, forbidden) {
  const m = forbidden.exec(text);
  if (m) throw new Error(`the ${what} contains ${JSON.stringify(m[0])} at ${m.index}: it cannot be inlined as is`);
}

/** @param {string} text */
function escapeAttribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The template's text.
 * @returns {Promise<string>}
 */
export async function standaloneTemplate() {
  const index = readFileSync(join(ROOT, 'index.html'), 'utf8');
  const title = /<title>([^<]*)<\/title>/.exec(index)?.[1] ?? 'Election Playground';
  const description = /<meta name="description" content="([^"]*)">/.exec(index)?.[1] ?? '';
  const body = /<body>([\s\S]*)<\/body>/.exec(index)?.[1];
  if (body === undefined) throw new Error('index.html: no <body>…</body> found');
  // The page's markup without any script element (the bundle replaces them).
  const markup = body.replace(/<script\b[^>]*>[\s\S]*?<\/script>\s*/g, '');
  const sheets = [...index.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
  if (sheets.length === 0) throw new Error('index.html: no stylesheet links found');

  const css = await build({
    stdin: { contents: sheets.map((s) => `@import ${JSON.stringify(`./${s}`)};`).join('\n'), resolveDir: ROOT, loader: 'css' },
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'error',
  });
  const style = css.outputFiles[0].text.trim();
  assertInlinable(style, 'bundled CSS', /<\/style/i);

  const js = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'esm',
    splitting: false,
    minify: true,
    target: 'es2022',
    legalComments: 'none',
    charset: 'ascii',
    plugins: [oneWasmModule],
    write: false,
    logLevel: 'error',
  });
  const script = js.outputFiles[0].text.trim();
  // `</script` would end the element (esbuild escapes it in strings), and
  // `<!--` would let a later `<script` switch the parser into its
  // double-escaped state: neither may appear.
  assertInlinable(script, 'bundled JavaScript', /<\/script|<!--/i);

  // The scenario block must be the last text that names it (fill.js and
  // cli/src/html.rs look for the last occurrence).
  if (markup.includes('standalone-scenario')) throw new Error('index.html names standalone-scenario: the block must be the last to');
  const wasm = gzipSync(readFileSync(WASM), { level: 9 }).toString('base64');

  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)} 'wasm-unsafe-eval'`,
    `style-src ${sha256(style)}`,
    'img-src data: blob:',
    "base-uri 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="utf-8">',
    '    <meta name="viewport" content="width=device-width, initial-scale=1">',
    `    <meta http-equiv="Content-Security-Policy" content="${csp}">`,
    `    <title>${title}</title>`,
    `    <meta name="description" content="${escapeAttribute(description)}">`,
    '    <meta name="generator" content="Election Playground standalone page (scripts/build/standalone.mjs)">',
    '    <link rel="icon" href="data:,">',
    `    <style>${style}</style>`,
    `    <script type="module">${script}</script>`,
    '  </head>',
    '  <body data-standalone="true">',
    markup.replace(/^\n+|\s+$/g, ''),
    `    <script type="application/octet-stream" id="standalone-wasm" data-encoding="gzip">${wasm}</script>`,
    `    ${EMPTY_SCENARIO_BLOCK}`,
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = outPath(process.argv.slice(2));
  if (!existsSync(WASM)) {
    console.error(`standalone.mjs: ${relative(ROOT, WASM)} is missing; build the wasm first: bash scripts/build/build-wasm.sh`);
    process.exit(2);
  }
  try {
    const html = await standaloneTemplate();
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, html);
    const bytes = Buffer.byteLength(html);
    const gz = gzipSync(html, { level: 9 }).length;
    const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(0)} KiB`;
    console.log(`standalone.mjs: wrote ${relative(process.cwd(), out) || out}: ${kb(bytes)} (${bytes} bytes), ${kb(gz)} gzip`);
  } catch (e) {
    console.error(`standalone.mjs: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
