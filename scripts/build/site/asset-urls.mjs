// How bundled code finds the hashed files it loads at run time (the site
// build, scripts/build/site/build.mjs, top comment).
//
// The page loads some files by URL rather than by `import`: the wasm (the
// wasm-bindgen glue's `new URL('election_web_bg.wasm', import.meta.url)`),
// the Web Workers (`new Worker(new URL('./worker.js', import.meta.url))`)
// and uPlot (`new URL('../vendor/uplot/uPlot.iife.min.js', import.meta.url)`).
// esbuild leaves such URLs alone, and after bundling `import.meta.url` is
// the URL of the output chunk, not of the source file. So the build first
// writes every such file under its hashed name into the one flat output
// folder (dist/assets/, where every chunk lives too), then bundles the
// code with the plugin below, which rewrites each
// `new URL('<source path>', import.meta.url)` into
// `new URL('./<hashed name>', import.meta.url)`: right from any chunk.
// A file's hash is known before the code that names it is bundled, so a
// changed worker changes the name of the chunk that starts it.
//
// ## How bundled code finds the hashed files
//
// **How bundled code finds the hashed files.** esbuild does not rewrite
// `new URL(..., import.meta.url)`, and after bundling `import.meta.url` is
// the URL of the chunk the code landed in, not of its source file. Since
// every output lives in the one folder `assets/`, the build's esbuild
// plugin (`assetUrlPlugin` in `asset-urls.mjs`) rewrites each
// `new URL('<source path>', import.meta.url)` to
// `new URL('./<hashed name>', import.meta.url)` when it loads a page file,
// and that is right from whichever chunk the code ends in. The files are
// built first (step 1, workers after the files they name), so their names
// are known, and a changed worker or wasm changes the hash of the chunk
// that names it. The plugin fails the build for a URL it has no file for
// and for any other `import.meta.url` in a page file (it would silently
// point at the chunk). The CSP is the source page's (`script-src 'self'
// 'wasm-unsafe-eval'`) plus the hash of one inline script (below): no
// other inline script, no `'unsafe-inline'`. Every
// URL is relative (pages to `assets/...`, chunks to `./...`, the service
// worker from `document.baseURI`), so `dist/` works from any sub-path.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** `new URL('<literal>', import.meta.url)`: group 2 is the literal. */
const URL_PATTERN = /new\s+URL\(\s*(['"`])([^'"`$]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Every file named by `new URL('<literal>', import.meta.url)` in the
 * JavaScript files under `root` (recursively), as absolute paths, sorted.
 * @param {string} root
 * @returns {string[]}
 */
export function referencedFiles(root) {
  const found = new Set();
  for (const file of jsFiles(root)) {
    for (const m of readFileSync(file, 'utf8').matchAll(URL_PATTERN)) {
      found.add(resolve(dirname(file), m[2]));
    }
  }
  return [...found].sort();
}

/**
 * The JavaScript files under `dir`, recursively, in a fixed order.
 * @param {string} dir
 * @returns {string[]}
 */
function jsFiles(dir) {
  /** @type {string[]} */
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (name.endsWith('.js')) out.push(path);
  }
  return out;
}

/**
 * `<name>-<hash>.<ext>` for a file copied as is: the first 10 hex digits
 * of the SHA-256 of its bytes.
 * @param {string} name e.g. `election_web_bg.wasm`
 * @param {Buffer} bytes
 * @returns {string}
 */
export function hashedName(name, bytes) {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  const dot = name.indexOf('.');
  return dot < 0 ? `${name}-${hash}` : `${name.slice(0, dot)}-${hash}${name.slice(dot)}`;
}

/**
 * The esbuild plugin that rewrites `new URL('<path>', import.meta.url)`
 * in the page's own files (under `wwwRoot`) to the hashed name of that
 * file in the output folder, from `names` (absolute source path -> hashed
 * file name). It fails the build, naming the file, for a URL it has no
 * name for and for any other use of `import.meta.url` in a page file
 * (which would silently point at the chunk instead of the source).
 * @param {string} wwwRoot absolute path of www/
 * @param {Map<string, string>} names
 * @returns {import('esbuild').Plugin}
 */
export function assetUrlPlugin(wwwRoot, names) {
  return {
    name: 'asset-urls',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, (args) => {
        const rel = relative(wwwRoot, args.path);
        if (rel.startsWith('..') || rel.startsWith(`vendor${sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        /** @type {import('esbuild').PartialMessage[]} */
        const errors = [];
        const contents = source.replace(URL_PATTERN, (all, _q, path) => {
          const name = names.get(resolve(dirname(args.path), path));
          if (name) return `new URL(${JSON.stringify(`./${name}`)}, import.meta.url)`;
          errors.push({ text: `no built file for new URL('${path}', import.meta.url) (scripts/build/site/asset-urls.mjs)` });
          return all;
        });
        const rest = contents.replace(URL_PATTERN, '');
        if (errors.length === 0 && rest.includes('import.meta.url')) {
          errors.push({
            text: 'import.meta.url outside new URL(\'<literal>\', import.meta.url): after bundling it would be the chunk\'s URL (scripts/build/site/asset-urls.mjs)',
          });
        }
        return errors.length ? { errors } : { contents, loader: 'js' };
      });
    },
  };
}
