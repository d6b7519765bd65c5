// A small static file server that sends gzip, for the load benchmark
// (scripts/bench/browser/bench-load.js): what a host that compresses
// sends a browser. Not for production and not the development server
// (scripts/serve.sh).
//
//   node scripts/bench/gzip-server.mjs [DIR] [PORT]   (defaults: repo root, 8230)
//
// For a request that accepts gzip it sends the precompressed `FILE.gz`
// beside a file when there is one (as a site build writes them), else
// the file compressed on the fly (gzip level 9, kept in memory for the
// next request) for compressible types; everything else as it is.
// Content types include application/wasm (for streaming compilation).
// `Cache-Control: no-cache` and an ETag, so a cold browser context
// measures a first visit. Listens on 127.0.0.1 only; paths cannot leave
// DIR. LOG=1 logs each request on stderr; COUNT=1 writes the bytes of
// each response sent on stdout.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants } from 'node:zlib';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(process.argv[2] ?? join(HERE, '..', '..'));
const PORT = Number(process.argv[3] ?? process.env.PORT ?? 8230);

/** @type {Record<string, string>} */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Types worth compressing on the fly. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.txt', '.md', '.webmanifest']);

/** On-the-fly gzip, by path and modification time. @type {Map<string, Buffer>} */
const gzipped = new Map();

/**
 * The file for a request path, or null when outside ROOT.
 * @param {string} pathname
 */
function fileFor(pathname) {
  let rel;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const full = normalize(join(ROOT, rel));
  if (full !== ROOT && !full.startsWith(ROOT + sep)) return null;
  return full;
}

/**
 * @param {string} path
 * @returns {Promise<import('node:fs').Stats | null>}
 */
async function statOrNull(path) {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

/** LOG=1: each request and when its response ended, on stderr. */
const LOG = process.env.LOG === '1';
/** COUNT=1: `sent <bytes> <path>` on stdout for each response sent (its
 * body as sent, compressed), for benchmarks that count what a visit
 * downloads wherever it asks from (bench-anchor.js: the service worker too). */
const COUNT = process.env.COUNT === '1';

const server = createServer(async (req, res) => {
  if (LOG) {
    const t0 = Date.now();
    console.error(`${t0} > ${req.url}`);
    res.on('finish', () => console.error(`${Date.now()} < ${req.url} ${res.statusCode} ${Date.now() - t0} ms`));
    res.on('close', () => res.writableFinished || console.error(`${Date.now()} closed before the end: ${req.url}`));
  }
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let path = fileFor(url.pathname);
    if (!path) {
      res.writeHead(403).end('forbidden');
      return;
    }
    let info = await statOrNull(path);
    if (info?.isDirectory()) {
      path = join(path, 'index.html');
      info = await statOrNull(path);
    }
    if (!info?.isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const ext = extname(path).toLowerCase();
    const headers = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
      ETag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
      Vary: 'Accept-Encoding',
    };
    if (req.headers['if-none-match'] === headers.ETag) {
      res.writeHead(304, headers).end();
      return;
    }
    const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    /** @type {Buffer} */
    let body;
    if (acceptsGzip && (await statOrNull(`${path}.gz`))?.isFile()) {
      body = await readFile(`${path}.gz`);
      headers['Content-Encoding'] = 'gzip';
    } else if (acceptsGzip && COMPRESSIBLE.has(ext)) {
      const key = `${path}:${info.mtimeMs}`;
      let zipped = gzipped.get(key);
      if (!zipped) {
        zipped = gzipSync(await readFile(path), { level: constants.Z_BEST_COMPRESSION });
        gzipped.set(key, zipped);
      }
      body = zipped;
      headers['Content-Encoding'] = 'gzip';
    } else {
      body = await readFile(path);
    }
    headers['Content-Length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    if (COUNT && req.method !== 'HEAD') process.stdout.write(`sent ${body.length} ${url.pathname}\n`);
  } catch (e) {
    res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(e));
  }
});

server.listen(PORT, '127.0.0.1', () => {
  console.log(`gzip-server: ${ROOT} on http://127.0.0.1:${PORT}/`);
});
