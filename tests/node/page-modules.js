// The page's own modules, for the static checks in this folder: every
// www/**/*.js but the generated wasm-bindgen glue (www/pkg) and vendored
// libraries (www/vendor), which are not ours to edit.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../browser/reference.js';

/**
 * Absolute paths of the page's modules, in a fixed (sorted) order.
 * @returns {string[]}
 */
export function pageModules() {
  /** @type {string[]} */
  const found = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'pkg' && name !== 'vendor') walk(path);
      } else if (name.endsWith('.js')) {
        found.push(path);
      }
    }
  };
  walk(join(REPO_ROOT, 'www'));
  return found;
}
