#!/usr/bin/env node
// @ts-check
// Writes www/pkg/modules.js, the page's table of its wasm modules, from the
// modules themselves (run by scripts/build/build-wasm.sh after it built
// them; web/src/lib.rs, module docs): which module runs which
// algorithm (each module's `runnable_algorithms()`), which module each
// guided scenario needs (the tools module's `from_preset_url`), which one
// the default page opens with (the module of the default scenario's
// algorithm), and a loader per module (a literal dynamic import(), so the
// site build bundles each glue as its own chunk). The page reads this
// table and decides nothing about algorithms itself
// (www/shared/player-wasm.js).
//
// It also writes www/pkg/election_player.d.ts, the API every player module
// shares (the page's JSDoc types name it), after checking that the player
// modules' declarations are the same but for their names; and
// www/pkg/panel-data.js, what the panels show before their module is in
// (the algorithms, the lab's scripts, the experiment presets, the fault
// kinds).
//
//   PANELS=compare=NAME,sweeps=NAME,lab=NAME node scripts/build/wasm-modules.mjs PKG_DIR TOOLS_NAME PLAYER_NAME...
//
// ## The table of modules
//
// - **The table of modules.** After the builds,
//   `scripts/build/wasm-modules.mjs` loads every module in Node and writes
//   `www/pkg/modules.js`: `ALGORITHM_MODULE` (algorithm id -> the player
//   module that runs it; `script` -> the lab's module, from each module's
//   `runnable_algorithms()`; it fails when an algorithm is in no player
//   module or in two), `PRESET_MODULE` (preset -> module, from the tools
//   module's presets), `DEFAULT_MODULE` (the default scenario's), `RUNS`,
//   `PANELS` (the panels' modules: `compare`, `sweeps`, `lab`, from
//   `PANELS=compare=NAME,...`) and `LOADERS` (a literal `import()` of each
//   player module's glue, the compare module's and the lab's, so the site
//   build makes each glue a chunk). It also checks that the player
//   modules' declarations are one API and writes it as
//   `www/pkg/election_player.d.ts`, the type the page's JSDoc names (there
//   is no `election_player.js`). The page reads the table and decides
//   nothing about algorithms.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadWasm } from './wasm-node.mjs';

const [dirArg, toolsName, ...players] = process.argv.slice(2);
/** The panels' modules: PANELS=compare=NAME,sweeps=NAME,lab=NAME (build-wasm.sh). @type {Record<string, string>} */
const panels = Object.fromEntries((process.env.PANELS ?? '').split(',').filter(Boolean).map((p) => p.split('=')));
for (const part of ['compare', 'sweeps', 'lab']) {
  if (!panels[part]) throw new Error(`PANELS names no ${part} module (compare=NAME,sweeps=NAME,lab=NAME)`);
}
const dir = path.resolve(dirArg ?? '');
if (!dirArg || !toolsName || players.length === 0) {
  console.error('usage: node scripts/build/wasm-modules.mjs PKG_DIR TOOLS_NAME PLAYER_NAME...');
  process.exit(2);
}

const tools = (await loadWasm(dir, toolsName)).pkg;
/** @type {string[]} every built-in algorithm, in the page's order */
const all = tools.algorithms().map((/** @type {{id: string}} */ a) => a.id);

/** @type {Record<string, string[]>} module name -> the algorithms it runs */
const runs = {};
for (const name of [...players, ...Object.values(panels), toolsName]) {
  const { pkg } = await loadWasm(dir, name);
  runs[name] = pkg.runnable_algorithms();
}
/** @type {Record<string, string>} algorithm id -> the player module that runs it (the tools module for a script) */
const algorithmModule = {};
for (const name of players) {
  for (const id of runs[name]) {
    if (algorithmModule[id]) throw new Error(`${id} is in two player modules: ${algorithmModule[id]} and ${name}`);
    algorithmModule[id] = name;
  }
}
const missing = all.filter((id) => !algorithmModule[id]);
if (missing.length) throw new Error(`no player module runs ${missing.join(', ')}: every algorithm must be in one family`);
// A script runs in the lab's module.
for (const id of runs[panels.lab]) algorithmModule[id] ??= panels.lab;
const unrun = runs[toolsName].filter((id) => !algorithmModule[id]);
if (unrun.length) throw new Error(`no page module runs ${unrun.join(', ')}`);

/** @type {Record<string, string>} preset name -> the module its scenario needs */
const presetModule = {};
for (const p of tools.presets()) {
  const pg = tools.Playground.from_preset_url(`?preset=${encodeURIComponent(p.name)}`, '');
  presetModule[p.name] = algorithmModule[pg.algorithm()];
  pg.free();
}
const defaultPg = tools.Playground.from_url('', '');
const defaultModule = algorithmModule[defaultPg.algorithm()];
defaultPg.free();

// The players' API must be one, so that the page's Model takes any of them.
const declarations = (/** @type {string} */ name) =>
  readFileSync(path.join(dir, `${name}.d.ts`), 'utf8').replaceAll(`${name}_bg`, 'NAME_bg').replaceAll(name, 'NAME');
const api = declarations(players[0]);
for (const name of players.slice(1)) {
  if (declarations(name) !== api) throw new Error(`${name}.d.ts differs from ${players[0]}.d.ts: the player modules must have one API`);
}
writeFileSync(
  path.join(dir, 'election_player.d.ts'),
  `// The API every player module (election_player_<family>.js) shares: written by\n// scripts/build/wasm-modules.mjs for the page's JSDoc types; there is no election_player.js.\n${api.replaceAll('NAME', 'election_player')}`,
);

const json = (/** @type {unknown} */ v) => JSON.stringify(v, null, 2);
const loaders = [...players, panels.compare, panels.lab].map((n) => `  ${n}: () => import('./${n}.js'),`).join('\n');
writeFileSync(
  path.join(dir, 'modules.js'),
  `// @ts-check
// The page's wasm modules: written by scripts/build/wasm-modules.mjs (run by
// scripts/build/build-wasm.sh) from the modules themselves. Do not edit.
// web/src/lib.rs, module docs; www/shared/player-wasm.js reads it.

/** The tools module (every algorithm, scripts, compare mode, exports, experiments): Node's, not the page's. */
export const TOOLS = ${json(toolsName)};

/** The panels' modules, loaded on first use (www/shared/panel-wasm.js): compare mode and the exports; the experiments, the failure finder and the trade-offs; the lab's scripts. */
export const PANELS = ${json(panels)};

/** The module the page opens with when the address names no algorithm or preset. */
export const DEFAULT_MODULE = ${json(defaultModule)};

/** Algorithm id -> the player module that runs it (a script: the lab's module). @type {Record<string, string>} */
export const ALGORITHM_MODULE = ${json(algorithmModule)};

/** Guided scenario (preset) name -> the module its scenario needs. @type {Record<string, string>} */
export const PRESET_MODULE = ${json(presetModule)};

/** Module name -> the algorithms it runs. @type {Record<string, string[]>} */
export const RUNS = ${json(runs)};

/** Module name -> its glue, imported on first use: the player modules, the compare module (a compare link's first module) and the lab's (a script's run). @type {Record<string, () => Promise<typeof import('./election_player.js')>>} */
export const LOADERS = {
${loaders}
};
`,
);
// What the panels show before their module is in (www/lab/panel.js,
// experiments/panel.js, finder/panel.js, tradeoffs/panel.js), as the core
// lists it.
writeFileSync(
  path.join(dir, 'panel-data.js'),
  `// @ts-check
// What the panels show before their wasm module is in, as the wasm lists it
// (algorithms(), script_templates(), experiment_presets(), fault_kinds()):
// written by scripts/build/wasm-modules.mjs. Do not edit.

/** The built-in algorithms, in the page's order. @type {{id: string, name: string}[]} */
export const ALGORITHMS = ${json(tools.algorithms().map((/** @type {{id: string, name: string}} */ a) => ({ id: a.id, name: a.name })))};

/** The lab's shipped scripts. @type {{id: string, name: string, kind: 'template' | 'exercise', description: string, scenario: string, source: string}[]} */
export const SCRIPT_TEMPLATES = ${json(tools.script_templates())};

/** The Experiments panel's presets. @type {{name: string, title: string, summary: string, metric: string, spec_json: string}[]} */
export const EXPERIMENT_PRESETS = ${json(tools.experiment_presets())};

/** The fault kinds a failure search may schedule. @type {string[]} */
export const FAULT_KINDS = ${json(tools.fault_kinds())};
`,
);
console.error(`[wasm-modules] ${path.join(dir, 'modules.js')}: ${players.length} player modules, the panels' ${Object.values(panels).join(', ')}; default ${defaultModule}`);
