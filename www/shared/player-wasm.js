// @ts-check
/**
 * The wasm modules the page plays runs in (web/src/lib.rs, module docs): a
 * player module per algorithm family (`www/pkg/election_player_<family>.js`)
 * and the lab's module (`www/pkg/election_lab.js`, scripts;
 * shared/panel-wasm.js). Which module
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
 *
 * ## What the first render loads
 *
 * **What the first render loads.** The page shows the address's
 * scenario (or the default) from the wasm **player module of its
 * algorithm's family** (`www/pkg/election_player_<family>.js`, web/
 * without its `tools` feature: playground, views, rows, presets, links;
 * web/src/lib.rs, module docs, Families) and the modules www/main.js imports
 * statically; the built `index.html` preloads that module's wasm and glue
 * so they download with the scripts, not after them
 * (scripts/build/site/preload.mjs). Everything else loads with a dynamic
 * `import()` when first used:
 *
 * | what | loads when | from |
 * |---|---|---|
 * | a **panel's wasm module** (`www/pkg/election_compare.js`: compare mode and the exports; `election_sweeps.js`: experiments, the failure finder, the trade-off table; `election_lab.js`: scripts; shared/panel-wasm.js) | its panel is first used, or (the lab's) a script scenario is opened | `shared/panel-wasm.js`, `shared/player-wasm.js` (once; a failed load is tried again next time) |
 * | the **player module of another family** (`www/pkg/election_player_<family>.js`) | a run of one of its algorithms: the settings form, a link, Back/Forward, an import, the embed's `load` | `shared/player-wasm.js` (once; the old run stays meanwhile) |
 * | compare mode (`compare/compare.js`, on `stage/compare-page.js` with its runs, lanes and table) | an address with `compare=`, or the Compare button (the click is acted on once loaded) | `stage/compare-picker.js` (with the entry's `compare` loader), which keeps the picker in the first render; the page is `data-ready` only once an asked-for comparison is open |
 * | the embed (`embed/embed.js`, `api.js`, `compare-embed.js`, `stage/embed-stage.js` and the rest of embed chrome) | `?embed=1` | `stage/start.js`, through the entry's `embed` loader |
 * | trace, summary and CSV exports | their button | `panels/export.js`: the compare module replays the scenario to the moment shown (what `--until-ms` does) and writes the file |
 * | the SVG writer (`spacetime/svg.js`) | Export SVG | `panels/export.js` |
 * | experiments, trade-offs, the failure finder | their button or section | `shared/lazy-panel.js`, `finder/open.js` |
 * | the lab (`lab/panel.js`, its editor and CodeMirror, `www/vendor/codemirror/codemirror.js`) | the Lab button, `lab=1` or `template=`, or a link whose scenario is a script | `lab/open.js` (through `shared/lazy-panel.js`) |
 *
 * **Which module plays a run** (`shared/player-wasm.js`, from the table
 * the wasm build wrote, `www/pkg/modules.js`). The first render takes the
 * module of the address's `algorithm=`, else of its `preset=`, else that
 * of the `algorithm` in its `#s=` link (`moduleForLink`: the link inflated
 * by the browser, at most 64 KiB, for that one field), else the default
 * scenario's (`firstModule`: Bully's family for the bare page; a
 * standalone page's inline scenario starts there too). Every run after that is
 * made by `openRun(make)`: at once in the module in use when it runs the
 * scenario; otherwise the core's error
 * says what it `needs` and the run is made in that module once it has
 * loaded (a promise; each module loads once, a failed load is tried again
 * next time). So a `#s=` link the browser cannot inflate (no
 * `DecompressionStream`) is read by the default module, whose error names
 * the algorithm, and opens in that one's module; a
 * script scenario (`"algorithm": "script"`, a link or an import) opens in
 * the single view on the lab's module. Everything that makes a run goes
 * through it: the settings form (the scenario is made in the module in
 * use, `settings_json`, the run where it runs), presets, import, the fault
 * editor, Back and Forward, the embed and its `load` message (the API
 * answers once the module has loaded; later messages wait their turn).
 * While a module loads the page keeps showing the old run; a module that
 * cannot load gives one message ("The code for this algorithm (...) could
 * not be loaded: ... The current run is kept.") and the old run stays.
 * Static functions (`algorithms()`, `presets()`, `scenario_params()`,
 * `node_fields()`, ...) come from the first module: every module has the
 * same. The modules' `Playground`s have one API, so the `Model` takes a
 * run from any of them. For other pages that hold a scenario (the
 * algorithm lab's Run), `playgroundFor(scenarioJson)` is the one call: a
 * promise of a run from the module that runs it (the lab's module for a
 * script), rejecting with the core's error naming the field, or a
 * `ModuleLoadError`.
 *
 * The wasm modules share no memory: a run crosses from a player module to
 * a panel's module as its scenario JSON (faults made by clicking
 * included), and it is the same run there (same scenario, same trace hash;
 * `tests/node/player-modules.test.js` checks every corpus scenario in its
 * family's module against the tools module, whose builds the panels' are).
 * Compare mode's runs live in the compare module; their `Model` is the
 * page's, typed with the player's API (`stage/runs.js` `toolsPlayground`
 * gives the rest).
 * @module shared/player-wasm
 */

import { ALGORITHM_MODULE, DEFAULT_MODULE, LOADERS, PANELS, PRESET_MODULE } from '../pkg/modules.js';
import { compareParam } from './url.js';
import { linkScenario } from './share-link.js';

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
 * for a comparison (`compare=`) the compare module, which runs every
 * algorithm, the single view's run too (one download, not a player
 * module and then the compare module: issue 30); else the module of its
 * `algorithm=`, else of its `preset=`, else the default one's.
 * @param {string} search `location.search`
 * @returns {string | null} null when the address names neither
 */
export function moduleForAddress(search) {
  if (compareParam(search) !== null) return PANELS.compare;
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
 * link is only peeked at for its `algorithm` here, with the browser's
 * own inflate (shared/share-link.js): loading a module to have
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
  const scenario = await linkScenario(fragment);
  const algorithm = typeof scenario?.algorithm === 'string' ? scenario.algorithm : '';
  return ALGORITHM_MODULE[algorithm] ?? DEFAULT_MODULE;
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
 * (the lab's module for `"algorithm": "script"`): for pages that hold a
 * scenario and want it played (the algorithm lab's Run). Rejects with the
 * core's error naming the bad field, or a ModuleLoadError.
 * @param {string} scenarioJson
 * @returns {Promise<Playground>}
 */
export async function playgroundFor(scenarioJson) {
  return openRun((wasm) => new wasm.Playground(scenarioJson));
}
