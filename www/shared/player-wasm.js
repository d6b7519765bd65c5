// @ts-check
/**
 * The wasm modules the page plays runs in (docs/ARCHITECTURE.md, The wasm
 * boundary): a player module per algorithm family
 * (`www/pkg/election_player_<family>.js`) and the tools module
 * (`www/pkg/election_web.js`, every algorithm and scripts). Which module
 * runs which algorithm or preset is the table the wasm build wrote
 * (`www/pkg/modules.js`); nothing here knows an algorithm.
 *
 * The first render loads the module the address asks for
 * (`moduleForAddress`, or for a `#s=` share link `moduleForLink`); any later run is made with `openRun`, which makes it
 * in the module in use when that module runs it (at once), or else loads
 * the module the core's error names (its `needs`: the algorithm, or
 * `script`) and makes it there (a promise). Each module is loaded once;
 * a failed load is tried again next time. The modules share nothing at
 * run time, and their `Playground`s have one API, so the Model takes a
 * run from any of them. Static functions (`algorithms()`, `presets()`,
 * `scenario_params()`, ...) are the same in every module.
 * @module shared/player-wasm
 */

import { ALGORITHM_MODULE, DEFAULT_MODULE, LOADERS, PRESET_MODULE } from '../pkg/modules.js';
import { base64Bytes } from './base64.js';

/**
 * What a module's wasm-bindgen `init` is given.
 * @typedef {() => Promise<{module_or_path: BufferSource} | undefined>} WasmSource
 */

/** Where the wasm bytes come from: nothing on the site (`init` fetches the
 * file), the inline bytes on a standalone page (`useWasmSource`). @type {WasmSource} */
let wasmSource = async () => undefined;

/**
 * Makes every module start from what `source` gives (a standalone page's
 * inline wasm, www/standalone/boot.js), instead of fetching its file. Call
 * before the first module loads.
 * @param {WasmSource} source
 */
export function useWasmSource(source) {
  wasmSource = source;
}

/** @typedef {typeof import('../pkg/election_player.js')} PlayerWasm */
/** @typedef {import('../pkg/election_player.js').Playground} Playground */

/** Module name -> its started module (a promise, so it loads once). @type {Map<string, Promise<PlayerWasm>>} */
const loading = new Map();
/** Module name -> its started module, once loaded. @type {Map<string, PlayerWasm>} */
const loaded = new Map();
/** The module of the last run made (`openRun` tries it first). */
let current = DEFAULT_MODULE;

/** The most scenario text a share link is inflated to here: the core's
 * `MAX_SCENARIO_BYTES`, 64 KiB. */
const MAX_LINK_BYTES = 64 * 1024;

/** A module that could not load (the network gone, a file missing). */
export class ModuleLoadError extends Error {
  /**
   * @param {string} name the module
   * @param {unknown} cause
   */
  constructor(name, cause) {
    super(`The code for this algorithm (${name}) could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ModuleLoadError';
    this.module = name;
  }
}

/**
 * The module a page address asks for (see moduleForLink), the one
 * `openRun` tries first, and its loading.
 * @param {string} search `location.search`
 * @param {string} [fragment] `location.hash`
 * @returns {Promise<{name: string, wasm: Promise<PlayerWasm>}>}
 */
export async function firstModule(search, fragment = '') {
  current = await moduleForLink(search, fragment);
  return { name: current, wasm: loadModule(current) };
}

/**
 * The module a page address asks for, read before any module is loaded:
 * the module of its `algorithm=`, else of its `preset=`, else the default
 * one's.
 * @param {string} search `location.search`
 * @returns {string | null} null when the address names neither
 */
export function moduleForAddress(search) {
  const params = new URLSearchParams(search);
  const algorithm = params.get('algorithm')?.trim();
  if (algorithm && ALGORITHM_MODULE[algorithm]) return ALGORITHM_MODULE[algorithm];
  const preset = params.get('preset')?.trim();
  if (preset && PRESET_MODULE[preset]) return PRESET_MODULE[preset];
  return null;
}

/**
 * The module an address asks for (`moduleForAddress`), or else the one
 * its `#s=` share link's scenario needs, or else the default one. The
 * link (`s=1.<base64url of the raw-deflated scenario JSON>`, core
 * src/share.rs) is only peeked at for its `algorithm` here, with the
 * browser's own inflate (`DecompressionStream`): loading a module to have
 * the core read it loaded the default module first, then the one needed,
 * twice the download on a phone opening a shared Raft link. The core
 * reads the link in full, and says what is wrong with it; anything this
 * cannot read (an old browser, a damaged link) gets the default module
 * (`openRun` then moves to the module the core names).
 * @param {string} search `location.search`
 * @param {string} fragment `location.hash`
 * @returns {Promise<string>}
 */
export async function moduleForLink(search, fragment) {
  const asked = moduleForAddress(search);
  if (asked) return asked;
  const link = new URLSearchParams(fragment.replace(/^#/, '')).get('s');
  const data = link?.startsWith('1.') ? link.slice(2) : null;
  if (!data || typeof DecompressionStream === 'undefined') return DEFAULT_MODULE;
  try {
    const stream = new Blob([base64Bytes(data, true)]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    // No further than the core reads a scenario (a hostile link may
    // inflate a thousandfold).
    const reader = stream.getReader();
    const utf8 = new TextDecoder();
    let text = '';
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_LINK_BYTES) {
        await reader.cancel();
        return DEFAULT_MODULE;
      }
      text += utf8.decode(value, { stream: true });
    }
    const scenario = JSON.parse(text + utf8.decode());
    const algorithm = typeof scenario?.algorithm === 'string' ? scenario.algorithm : '';
    return ALGORITHM_MODULE[algorithm] ?? DEFAULT_MODULE;
  } catch {
    return DEFAULT_MODULE;
  }
}

/**
 * Module `name`, loaded and started (its wasm `init` run; on a standalone
 * page from the inline bytes).
 * @param {string} name
 * @returns {Promise<PlayerWasm>}
 */
export function loadModule(name) {
  let started = loading.get(name);
  if (!started) {
    const loader = LOADERS[name];
    if (!loader) return Promise.reject(new ModuleLoadError(name, new Error('no such module in www/pkg/modules.js')));
    started = (async () => {
      try {
        const wasm = await loader();
        await wasm.default(await wasmSource());
        loaded.set(name, wasm);
        return wasm;
      } catch (e) {
        loading.delete(name);
        throw new ModuleLoadError(name, e);
      }
    })();
    loading.set(name, started);
  }
  return started;
}

/**
 * The module the core's error asks for (its `needs`), or null when the
 * error is another one (a bad field).
 * @param {unknown} e
 * @returns {string | null}
 */
function neededModule(e) {
  const needs = e instanceof Error && 'needs' in e && typeof e.needs === 'string' ? e.needs : null;
  return needs === null ? null : (ALGORITHM_MODULE[needs] ?? null);
}

/**
 * A run made by `make` in the module that runs it: at once when the
 * module in use does (or `make` throws another error, thrown here), else
 * a promise of it made in the module the error names, once loaded (it
 * rejects with that module's error, or a ModuleLoadError).
 * @param {(wasm: PlayerWasm) => Playground} make
 * @returns {Playground | Promise<Playground>}
 */
export function openRun(make) {
  const wasm = loaded.get(current);
  if (!wasm) return openRunIn(current, make);
  try {
    return make(wasm);
  } catch (e) {
    const needed = neededModule(e);
    if (needed === null || needed === current) throw e;
    return openRunIn(needed, make);
  }
}

/**
 * Like `openRun`, always a promise, starting with module `name` (loaded if
 * need be).
 * @param {string} name
 * @param {(wasm: PlayerWasm) => Playground} make
 * @returns {Promise<Playground>}
 */
export async function openRunIn(name, make) {
  let wasm = await loadModule(name);
  let pg;
  try {
    pg = make(wasm);
  } catch (e) {
    const needed = neededModule(e);
    if (needed === null || needed === name) throw e;
    wasm = await loadModule(needed);
    pg = make(wasm);
    name = needed;
  }
  current = name;
  return pg;
}

/**
 * A run of scenario JSON text, from the module that runs its algorithm
 * (the tools module for `"algorithm": "script"`): for pages that hold a
 * scenario and want it played (the algorithm lab's Run). Rejects with the
 * core's error naming the bad field, or a ModuleLoadError.
 * @param {string} scenarioJson
 * @returns {Promise<Playground>}
 */
export async function playgroundFor(scenarioJson) {
  return openRun((wasm) => new wasm.Playground(scenarioJson));
}
