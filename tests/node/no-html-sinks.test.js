// Static check (issue 7): the page's own scripts never turn data into
// markup or code (no innerHTML, outerHTML, insertAdjacentHTML,
// document.write, eval, new Function, string timers), and index.html keeps
// its Content-Security-Policy and has no inline script or handler, so the
// CSP needs no 'unsafe-inline' or 'unsafe-eval'. No browser needed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pageModules } from './page-modules.js';
import { REPO_ROOT } from '../browser/reference.js';

/** What must not appear in the page modules (www/, every folder), with why. */
const SINKS = [
  [/\.innerHTML\b/, 'innerHTML parses text as markup'],
  [/\.outerHTML\s*=/, 'outerHTML parses text as markup'],
  [/\binsertAdjacentHTML\b/, 'insertAdjacentHTML parses text as markup'],
  [/\bcreateContextualFragment\b/, 'createContextualFragment parses text as markup'],
  [/\bdocument\.write(ln)?\b/, 'document.write parses text as markup'],
  [/\bsrcdoc\b/, 'srcdoc parses text as a document'],
  [/(^|[^.\w])eval\s*\(/, 'eval runs text as code'],
  [/\bnew\s+Function\b/, 'new Function runs text as code'],
  [/\bset(Timeout|Interval)\s*\(\s*['"`]/, 'a string timer runs text as code'],
  [/javascript:/i, 'a javascript: URL runs text as code'],
];

test('www/**/*.js turn no data into markup or code', () => {
  const files = pageModules();
  assert.ok(files.length >= 10, `page modules found: ${files}`);
  /** @type {string[]} */
  const found = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [pattern, why] of SINKS) {
        if (pattern.test(line)) found.push(`${file}:${i + 1}: ${why}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(found, []);
});

test('the check catches what it is meant to catch', () => {
  const bad = [
    'box.innerHTML = text;',
    'el.outerHTML = `<b>${x}</b>`;',
    "el.insertAdjacentHTML('beforeend', s)",
    'document.write(s)',
    'eval(code)',
    'const f = new Function("a", body);',
    "setTimeout('go()', 5)",
    'a.href = "javascript:alert(1)"',
  ];
  for (const line of bad) {
    assert.ok(
      SINKS.some(([p]) => p.test(line)),
      `not caught: ${line}`,
    );
  }
  for (const line of ['line.textContent = p;', 'model.evaluate(x)', 'retrieval(x)', 'box.replaceChildren(...nodes)']) {
    assert.ok(!SINKS.some(([p]) => p.test(line)), `false alarm: ${line}`);
  }
});

test('index.html keeps its CSP and has no inline script or handler', () => {
  const html = readFileSync(join(REPO_ROOT, 'index.html'), 'utf8');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(csp, 'a CSP meta tag');
  const policy = csp[1];
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'|\*/);
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.ok(scripts.length > 0);
  for (const [, attrs, body] of scripts) {
    assert.match(attrs, /\bsrc="/, 'every script is a file');
    assert.equal(body.trim(), '', 'no inline script');
  }
  assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handler attributes');
});
