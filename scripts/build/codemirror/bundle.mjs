// Bundles the CodeMirror 6 parts named in entry.js (npm packages pinned
// in package.json / package-lock.json) into one minified ES module and
// writes it with the licences of every package inside it:
//   node scripts/build/codemirror/bundle.mjs OUT_DIR
// -> OUT_DIR/codemirror.js, its types codemirror.d.ts, OUT_DIR/LICENSE. scripts/build/vendor.sh runs
// it into www/vendor/codemirror (and into a temporary folder for --check).
// The output is a function of the packages' files alone (esbuild is
// deterministic), so a check can compare bytes.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const out = process.argv[2];
if (!out) {
  console.error('usage: node scripts/build/codemirror/bundle.mjs OUT_DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [join(here, 'entry.js')],
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  legalComments: 'none',
  metafile: true,
  write: false,
  logLevel: 'warning',
});
const names = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m) names.add(m[1]);
}
const packages = [...names].sort();
const header = `// CodeMirror 6, bundled by scripts/build/vendor.sh (MIT; see LICENSE beside this file): ${packages
  .map((p) => `${p}@${JSON.parse(readFileSync(join(root, 'node_modules', p, 'package.json'), 'utf8')).version}`)
  .join(', ')}\n`;
writeFileSync(join(out, 'codemirror.js'), header + result.outputFiles[0].text);
// Its types for tsc (the page's JSDoc): the entry's own exports, which
// resolve to the packages' .d.ts in node_modules.
const exports = readFileSync(join(here, 'entry.js'), 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('export '))
  .join('\n');
writeFileSync(join(out, 'codemirror.d.ts'), `// Types of codemirror.js (written by scripts/build/codemirror/bundle.mjs).\n${exports}\n`);

let licences = 'Licences of the packages bundled into codemirror.js.\n';
for (const p of packages) {
  const dir = join(root, 'node_modules', p);
  const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new Error(`${p} has no LICENSE file`);
  licences += `\n==== ${p} ====\n\n${readFileSync(file, 'utf8').trim()}\n`;
}
writeFileSync(join(out, 'LICENSE'), licences);
