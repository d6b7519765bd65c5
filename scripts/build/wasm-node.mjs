// @ts-check
// Loads the built wasm package (www/pkg, from scripts/build/build-wasm.sh) into
// Node synchronously, for scripts and tests that run the core's wasm build
// without a browser: the bench (scripts/bench/bench-wasm.mjs) and the native =
// wasm trace-hash corpus test (tests/node/hash-corpus.test.js).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Imports `<name>.js` (default election_web, the tools module; a player
 * module is election_player_<family>) from `dir`, else $ELECTION_PKG_DIR
 * (which scripts/size/wasm-profiles.sh sets to compare build variants),
 * else www/pkg, and instantiates its wasm from the file.
 * @param {string} [dir] a wasm-bindgen output directory
 * @param {string} [name] the module's name
 * @returns {Promise<{ pkg: any, exports: any }>} the module's exports and
 *   the raw wasm exports (whose `memory` is the instance's memory).
 */
export async function loadWasm(dir, name = 'election_web') {
  dir ||= process.env.ELECTION_PKG_DIR || path.join(ROOT, 'www/pkg');
  const glue = path.join(dir, `${name}.js`);
  const wasmPath = path.join(dir, `${name}_bg.wasm`);
  let bytes;
  try {
    bytes = readFileSync(wasmPath);
  } catch {
    throw new Error(`${wasmPath} not found: run bash scripts/build/build-wasm.sh first`);
  }
  const pkg = await import(glue);
  const exports = pkg.initSync({ module: bytes });
  return { pkg, exports };
}
