// @ts-check
/**
 * The tools module of the wasm (www/pkg/election_web.js: compare mode,
 * exports, experiments, the failure finder, the trade-off table), loaded
 * and started the first time something asks for it. The page's first
 * render loads only the player module (www/pkg/election_player.js: open,
 * play and draw any scenario or link); docs/PERFORMANCE.md, First render
 * over the network. The two modules share nothing at run time: a run
 * crosses from one to the other as its scenario JSON.
 * @module shared/tools-wasm
 */

/** @typedef {typeof import('../pkg/election_web.js')} ToolsWasm */

/** @type {Promise<ToolsWasm> | null} */
let loading = null;

/**
 * The tools module, started (its `init` run once).
 * @returns {Promise<ToolsWasm>}
 */
export function toolsWasm() {
  loading ??= import('../pkg/election_web.js').then(async (tools) => {
    await tools.default();
    return tools;
  });
  // A failed load (the network gone) is tried again next time.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
