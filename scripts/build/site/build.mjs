// The site build: writes dist/, what ships (run by scripts/build-site.sh,
// which builds the wasm and vendors uPlot first). In order (the detail, with
// the why, follows):
//
//  1. the files the page loads by URL (asset-urls.mjs): the wasm and the
//     vendored files copied under hashed names, style sheets bundled and
//     minified, workers bundled and minified (each its own entry);
//  2. each HTML page's scripts as one entry and its style sheets as one
//     (pages.mjs), bundled and minified with code splitting, so the
//     page's dynamic import()s become chunks; the built index.html also
//     gets offline/register.js and offline/offline.css;
//  3. the pages rewritten to load the bundles, with the version; index.html
//     gets the inline script that preloads the wasm player module its
//     address needs (preload.mjs) and, at the end of its body, the one that
//     draws the first picture before any module or wasm loads
//     (first-picture.mjs), each allowed by its hash in the page's CSP;
//  4. sw.js (offline/sw.js with the version, the list of files and the
//     shell it precaches);
//  5. a .gz and a .br beside every file.
// Every name under assets/ carries a hash of its content; only the pages
// and sw.js keep their names. Every URL is relative. The same sources
// give the same dist/, byte for byte.
//
//   node scripts/build/site/build.mjs [OUT_DIR]   (default dist)
//   SITE_MINIFY=0 ...   the same, not minified (for profiling what ships)
//
// ## The site build in detail
//
// `./scripts/build-site.sh` writes `dist/`, the site that ships: what
// `./scripts/serve.sh` serves, what the browser tests run against, what
// `.github/workflows/pages.yml` publishes. It runs setup (without the
// browser), the wasm build and the vendoring, then
// `scripts/build/site/build.mjs`, which drives esbuild (pinned in
// package.json) and node's zlib. The repository itself stays a page that
// runs unbundled (`DEV=1 ./scripts/serve.sh`): the build changes no source.
//
// ```
// dist/index.html            the page: one stylesheet, one module script,
// dist/docs/embed.html         modulepreload hints for its static chunks
// dist/sw.js                 the service worker (a fixed name: its scope is the site)
// dist/assets/               everything else, flat, every name content-hashed:
//   page-<h>.js page-<h>.css   the page's bundles; chunk-<h>.js (shared code and
//                              each dynamic import()); embed-docs-<h>.{js,css}
//   cluster-worker-<h>.js ...  each Web Worker, bundled on its own
//   election_player_<family>_bg-<h>.wasm, election_web_bg-<h>.wasm
//                              the wasm modules (a chunk-<h>.js holds each glue);
//                              uPlot-<h>.iife.min.js, uPlot-<h>.min.css
// dist/licenses/             the vendored files' licences
// *.gz *.br                  beside every file (gzip -9, brotli 11)
// ```
//
// **What it does**, in order (`build.mjs`):
//
// 1. **Files loaded by URL.** Every `new URL('<literal>', import.meta.url)`
//    in `www/**/*.js` (`asset-urls.mjs` finds them): the wasm (the glue's
//    `new URL('election_web_bg.wasm', import.meta.url)`), the workers
//    (`new Worker(new URL('./worker.js', import.meta.url), ...)` in
//    `cluster/layers.js`, `experiments/pool.js`, `finder/pool.js`,
//    `tradeoffs/panel.js`) and uPlot (`experiments/charts.js`). Files under
//    `www/vendor/` and non-JavaScript files are copied under
//    `<name>-<sha256[:10]>`; a style sheet is bundled and minified; a
//    JavaScript file is a worker: bundled and minified as its own ES module
//    entry (one esbuild build for all of them, no splitting: a worker
//    carries its own copy of the glue).
// 2. **The pages' bundles.** Each HTML page's `<script type="module">` tags
//    become one entry that imports them in document order (so they run in
//    the same order), and its `<link rel="stylesheet">` tags one CSS entry
//    that `@import`s them in document order (the same cascade)
//    (`pages.mjs`); `index.html` also gets `www/offline/register.js` and
//    `www/offline/offline.css`. One esbuild build for every page
//    (`splitting: true, format: 'esm'`, minified, `es2022`): each dynamic
//    `import()` of the page becomes a chunk loaded on first use.
// 3. **The pages**, rewritten: the bundle's `<link>` and `<script>` where
//    the first of each was, the others removed, a `modulepreload` per
//    static chunk, and `<meta name="election-version">`, the build's
//    version: a hash of every file under `assets/` and of the pages'
//    sources. `index.html`'s `<!-- wasm-preload -->` line becomes the
//    preload script (below), its `<!-- first-picture -->` line the first
//    picture (first-picture.mjs: the address's scenario at time 0, drawn
//    by www/first/picture.js with a table of the wasm's, checked against
//    the core here). The build fails, naming it, when a page refers to
//    a local
//    file `dist/` does not have or uses an absolute path.
// 4. **`sw.js`**: `www/offline/sw.js` bundled with the version, the list
//    of the site's files (every page and asset, not the `.gz`/`.br`) and
//    the shell it precaches (the pages, their bundles and static chunks,
//    the cluster worker) defined in (esbuild `define` of `__SITE__`).
// 5. **`.gz` and `.br`** beside every file, for hosts that serve
//    precompressed files (`gzipSync` level 9, `brotliCompressSync` quality
//    11).
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { assetUrlPlugin, hashedName, referencedFiles } from './asset-urls.mjs';
import { checkLocalRefs, pageInputs, rewritePage } from './pages.mjs';
import { firstPictureScript, firstPictureTable } from './first-picture.mjs';
import { preloadScript } from './preload.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const WWW = join(ROOT, 'www');
const OUT = resolve(ROOT, process.argv[2] ?? 'dist');
const ASSETS = join(OUT, 'assets');

/** The HTML entry pages, and what the build adds to each. */
const PAGES = [
  { file: 'index.html', name: 'page', scripts: ['www/offline/register.js'], styles: ['www/offline/offline.css'], wasmPreload: true, firstPicture: true, inlineStyle: true },
  { file: 'docs/embed.html', name: 'embed-docs', scripts: [], styles: [], wasmPreload: false, firstPicture: false, inlineStyle: false },
];
/** The service worker: a fixed name at the root, so its scope is the site. */
const SERVICE_WORKER = 'sw.js';
/** Licences of the vendored files, shipped beside them (not precached). */
const LICENCES = [
  ['www/vendor/uplot/LICENSE', 'licenses/uPlot.LICENSE.txt'],
  ['www/vendor/codemirror/LICENSE', 'licenses/CodeMirror.LICENSE.txt'],
];

/** What every esbuild call shares. */
const COMMON = /** @type {const} */ ({
  absWorkingDir: ROOT,
  bundle: true,
  minify: process.env.SITE_MINIFY !== '0',
  target: 'es2022',
  charset: 'utf8',
  legalComments: 'eof',
  logLevel: 'warning',
  metafile: true,
  write: true,
});

rmSync(OUT, { recursive: true, force: true });
mkdirSync(ASSETS, { recursive: true });

// 1. The files the page loads by URL.
/** absolute source path -> name in assets/ */
const names = new Map();
const urlPlugin = assetUrlPlugin(WWW, names);
const referenced = referencedFiles(WWW);
const workers = [];
for (const file of referenced) {
  const rel = relative(WWW, file);
  if (rel.startsWith('..')) throw new Error(`new URL(..., import.meta.url) names ${file}, outside www/`);
  if (file.endsWith('.js') && !rel.startsWith('vendor/')) {
    workers.push(file);
  } else if (file.endsWith('.css') && !rel.startsWith('vendor/')) {
    names.set(file, await bundleOne(file, outName(rel, '.css'), 'css'));
  } else {
    const bytes = readFileSync(file);
    const name = hashedName(basename(file), bytes);
    writeFileSync(join(ASSETS, name), bytes);
    names.set(file, name);
  }
}
if (workers.length) {
  // Workers load the wasm by URL too: its name is known by now. A worker
  // that starts another worker would need an order; none does.
  const result = await esbuild.build({
    ...COMMON,
    entryPoints: workers.map((f) => ({ in: f, out: outName(relative(WWW, f), '.js') })),
    format: 'esm',
    outdir: ASSETS,
    entryNames: '[name]-[hash]',
    plugins: [urlPlugin],
  });
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) names.set(resolve(ROOT, meta.entryPoint), basename(out));
  }
  for (const w of workers) if (!names.has(w)) throw new Error(`no output for the worker ${w}`);
}

// 2. The pages' bundles, all in one build so they share chunks.
/** @type {Map<string, string>} virtual entry -> its source */
const entries = new Map();
const pages = PAGES.map((p) => {
  const file = join(ROOT, p.file);
  const html = readFileSync(file, 'utf8');
  const inputs = pageInputs(html, file);
  const scripts = [...inputs.scripts, ...p.scripts.map((s) => join(ROOT, s))];
  const styles = [...inputs.styles, ...p.styles.map((s) => join(ROOT, s))];
  const importList = (/** @type {string[]} */ list, /** @type {(s: string) => string} */ line) =>
    list.map((f) => line(JSON.stringify(`./${relative(ROOT, f)}`))).join('\n');
  if (scripts.length) entries.set(`${p.name}.js`, importList(scripts, (s) => `import ${s};`));
  if (styles.length) entries.set(`${p.name}.css`, importList(styles, (s) => `@import ${s};`));
  return { ...p, html };
});
const built = await esbuild.build({
  ...COMMON,
  entryPoints: [...entries.keys()].map((e) => ({ in: `site-entry:${e}`, out: e.replace(/\.(js|css)$/, '') })),
  format: 'esm',
  splitting: true,
  outdir: ASSETS,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  loader: { '.png': 'file', '.svg': 'file', '.woff2': 'file' },
  plugins: [
    {
      name: 'site-entries',
      setup(build) {
        build.onResolve({ filter: /^site-entry:/ }, (args) => ({ path: args.path.slice('site-entry:'.length), namespace: 'site-entry' }));
        build.onLoad({ filter: /.*/, namespace: 'site-entry' }, (args) => ({
          contents: entries.get(args.path),
          resolveDir: ROOT,
          loader: args.path.endsWith('.css') ? 'css' : 'js',
        }));
      },
    },
    urlPlugin,
  ],
});
/** virtual entry -> {file, imports} (file names in assets/) */
const outputs = new Map();
for (const [out, meta] of Object.entries(built.metafile.outputs)) {
  if (meta.entryPoint?.startsWith('site-entry:')) {
    const statics = meta.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => basename(i.path));
    outputs.set(meta.entryPoint.slice('site-entry:'.length), { file: basename(out), imports: statics });
  }
}

// The wasm player modules' files, for the preload script: each module's
// wasm and the chunk of its glue (a dynamic import of www/pkg/modules.js).
/** @type {{TOOLS: string, PANELS: Record<string, string>, DEFAULT_MODULE: string, ALGORITHM_MODULE: Record<string, string>, PRESET_MODULE: Record<string, string>, LOADERS: Record<string, unknown>}} */
const modules = await import(pathToFileURL(join(WWW, 'pkg', 'modules.js')).href);
/** @type {Record<string, {wasm: string, glue: string}>} module name -> file names in assets/ */
const moduleFiles = {};
for (const name of Object.keys(modules.LOADERS)) {
  const wasm = names.get(join(WWW, 'pkg', `${name}_bg.wasm`));
  const glueIn = `www/pkg/${name}.js`;
  const glue = Object.entries(built.metafile.outputs).find(([, m]) => Object.hasOwn(m.inputs, glueIn))?.[0];
  if (!wasm || !glue) throw new Error(`no built wasm or glue chunk for ${name} (www/pkg/modules.js)`);
  moduleFiles[name] = { wasm, glue: basename(glue) };
}
/** Only player modules are preloaded (a script's lab module loads on first use). */
const panelModules = new Set([modules.TOOLS, ...Object.values(modules.PANELS)]);
const players = (/** @type {Record<string, string>} */ table) =>
  Object.fromEntries(Object.entries(table).filter(([, m]) => !panelModules.has(m)));

// 3. The pages, loading the bundles. The version is a hash of every
// precached file but the pages' version lines.
const assetFiles = readdirSync(ASSETS).sort();
const version = createHash('sha256');
for (const f of assetFiles) version.update(`${f}\0`).update(readFileSync(join(ASSETS, f))).update('\0');
for (const p of pages) version.update(`${p.file}\0${p.html}\0`);
const VERSION = version.digest('hex').slice(0, 16);
// The first picture's script, with its table checked against the wasm.
const firstPicture = PAGES.some((p) => p.firstPicture) ? await firstPictureScript(ROOT, await firstPictureTable()) : null;
for (const p of pages) {
  const out = join(OUT, p.file);
  const toAssets = relative(dirname(out), ASSETS);
  const url = (/** @type {string} */ f) => `${toAssets}/${f}`;
  const js = outputs.get(`${p.name}.js`);
  const css = outputs.get(`${p.name}.css`);
  const html = rewritePage(p.html, {
    script: js ? url(js.file) : null,
    // The preload script loads index.html's bundle after the first paint.
    scriptLoaded: p.wasmPreload,
    style: css ? url(css.file) : null,
    styleText: css && p.inlineStyle ? readFileSync(join(ASSETS, css.file), 'utf8').trim() : null,
    preload: js ? js.imports.map(url) : [],
    inline: {
      'wasm-preload': p.wasmPreload
        ? preloadScript({
            algorithmModule: players(modules.ALGORITHM_MODULE),
            presetModule: players(modules.PRESET_MODULE),
            defaultModule: modules.DEFAULT_MODULE,
            compareModule: modules.PANELS.compare,
            files: Object.fromEntries(Object.entries(moduleFiles).map(([n, f]) => [n, { wasm: url(f.wasm), glue: url(f.glue) }])),
            page: { script: url(/** @type {{file: string}} */ (js).file), chunks: (js?.imports ?? []).map(url) },
          })
        : null,
      'first-picture': p.firstPicture ? firstPicture : null,
    },
    version: VERSION,
    hashed: (ref) => {
      const name = names.get(resolve(dirname(join(ROOT, p.file)), ref.replace(/[?#].*$/, '')));
      return name ? url(name) : null;
    },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, html);
}
for (const p of pages) checkLocalRefs(readFileSync(join(OUT, p.file), 'utf8'), join(OUT, p.file), OUT);
for (const [from, to] of LICENCES) {
  mkdirSync(dirname(join(OUT, to)), { recursive: true });
  cpSync(join(ROOT, from), join(OUT, to));
}

// 4. The service worker, with the version, the site's files (relative to
// it) and the shell it precaches: the pages, their bundles and the chunks
// they import statically, and the cluster worker (every first render
// draws with it). The rest (the wasm modules, panels, other workers,
// vendored files) is cached when first used (www/offline/sw.js).
const precache = [...pages.map((p) => p.file), ...assetFiles.map((f) => `assets/${f}`)];
const clusterWorker = names.get(join(WWW, 'cluster', 'worker.js'));
if (!clusterWorker) throw new Error('no built cluster worker (www/cluster/worker.js) for the shell');
const inlined = new Set(PAGES.filter((p) => p.inlineStyle).map((p) => `${p.name}.css`));
const shell = [
  ...pages.map((p) => p.file),
  ...[...outputs.entries()].filter(([entry]) => !inlined.has(entry)).flatMap(([, o]) => [o.file, ...o.imports]).map((f) => `assets/${f}`),
  `assets/${clusterWorker}`,
];
await esbuild.build({
  ...COMMON,
  entryPoints: [join(WWW, 'offline', 'sw.js')],
  format: 'iife',
  outfile: join(OUT, SERVICE_WORKER),
  define: { __SITE__: JSON.stringify({ version: VERSION, files: precache, shell: [...new Set(shell)] }) },
});

// 5. Precompressed copies for hosts that serve them.
let raw = 0;
let gz = 0;
let br = 0;
for (const file of walk(OUT)) {
  const bytes = readFileSync(file);
  const g = gzipSync(bytes, { level: 9 });
  const b = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  writeFileSync(`${file}.gz`, g);
  writeFileSync(`${file}.br`, b);
  raw += bytes.length;
  gz += g.length;
  br += b.length;
}
const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(0)} KB`;
console.error(
  `[build-site] ${relative(ROOT, OUT)}/: version ${VERSION}, ${precache.length} files precached; ` +
    `${kb(raw)} raw, ${kb(gz)} gzip, ${kb(br)} brotli`,
);

/**
 * The output name (without hash) of a file under www/: its path with `/`
 * as `-`, e.g. `cluster-worker` for cluster/worker.js.
 * @param {string} rel path under www/
 * @param {string} ext the extension to drop
 * @returns {string}
 */
function outName(rel, ext) {
  return rel.replace(/\\/g, '/').replace(ext, '').replaceAll('/', '-');
}

/**
 * Bundles and minifies one file into assets/ under a hashed name.
 * @param {string} file absolute path
 * @param {string} out output name without hash
 * @param {'css' | 'js'} kind
 * @returns {Promise<string>} the file name in assets/
 */
async function bundleOne(file, out, kind) {
  const result = await esbuild.build({
    ...COMMON,
    entryPoints: [{ in: file, out }],
    outdir: ASSETS,
    entryNames: '[name]-[hash]',
    ...(kind === 'js' ? { format: 'esm' } : {}),
  });
  const entry = Object.entries(result.metafile.outputs).find(([, m]) => m.entryPoint);
  if (!entry) throw new Error(`no output for ${file}`);
  return basename(entry[0]);
}

/**
 * Every file under `dir`, recursively, sorted.
 * @param {string} dir
 * @returns {string[]}
 */
function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
}
