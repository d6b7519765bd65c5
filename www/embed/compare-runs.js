// @ts-check
/**
 * The compare embed's runs (compare-embed.js): opened from the address,
 * what the host's API reads of them, and the address of the same comparison
 * at the same moment in the full playground.
 * @module embed/compare-runs
 */

import { runsFor, toolsPlayground } from '../stage/runs.js';
import { messageOf } from '../shared/dom.js';

/**
 * The runs the address asks for: its scenario (or the default one, the
 * problem said) under each algorithm of `compare=`; null, with the
 * problem said, when the list is bad.
 * @param {typeof import('../pkg/election_compare.js')} wasm
 * @param {import('../shared/url.js').PageRequest} request
 * @param {string} compareText the `compare=` value
 * @param {string[]} problems filled with what went wrong
 * @returns {{runs: import('../stage/runs.js').CompareRuns, ids: string[], baseAlgorithm: string} | null}
 */
export function openComparison(wasm, request, compareText, problems) {
  /** @type {import('../pkg/election_compare.js').Playground} */
  let base;
  try {
    base = wasm.Playground.from_preset_url(request.query, request.fragment) ?? wasm.Playground.from_url(request.query, request.fragment);
  } catch (e) {
    problems.unshift(`${messageOf(e)}. Showing the default scenario instead.`);
    base = wasm.Playground.from_url('', '');
  }
  const baseAlgorithm = base.algorithm();
  try {
    const ids = wasm.compare_ids(compareText);
    return { runs: runsFor(wasm, base, ids), ids, baseAlgorithm };
  } catch (e) {
    problems.unshift(`URL parameter \`compare\`: ${messageOf(e)}. This embed shows a comparison only; fix the list (2 to 4 algorithms that can run this scenario).`);
    return null;
  } finally {
    base.free();
  }
}

/**
 * What the host's API reads of a comparison: its state (every run named
 * in `runs`) and what `ready` says; `load` is refused, by name.
 * @param {import('../stage/runs.js').CompareRuns} runs
 * @param {string[]} ids
 * @param {import('../stage/transport.js').Transport} transport
 * @param {Set<string>} shows the controls shown
 * @returns {Pick<import('./api.js').EmbedCommands, 'load' | 'state' | 'describe'>}
 */
export function compareApi(runs, ids, transport, shows) {
  return {
    load: () => {
      throw Object.assign(
        new Error(`a compare embed (compare=${ids.join(',')}) cannot load another scenario; point the iframe at a new address instead`),
        { field: 'type' },
      );
    },
    state: () => ({
      time_ms: runs.nowMs,
      playing: runs.playing,
      leader: null,
      leaders: [],
      violations: runs.figures().reduce((sum, f) => sum + f.violations, 0),
      trace_hash: '',
      from_ms: transport.range.fromMs,
      to_ms: transport.toMs(),
      runs: runs.runs.map((r) => ({
        algorithm: r.id,
        leaders: Array.from(r.model.playground.leaders()),
        violations: r.model.playground.violation_count(),
        trace_hash: r.model.playground.trace_hash(),
      })),
    }),
    describe: () => {
      const scenario = JSON.parse(runs.runs[0].model.playground.scenario_json());
      return { algorithm: null, compare: ids, nodes: scenario.nodes, seed: runs.runs[0].model.playground.seed(), controls: [...shows] };
    },
  };
}

/**
 * The full playground's address for this comparison at this moment.
 * @param {import('../stage/runs.js').CompareRuns} runs
 * @param {string[]} ids
 * @param {string} baseAlgorithm the algorithm of the scenario compared
 * @param {string | null} preset the preset it came from
 * @returns {string}
 */
export function fullCompareHref(runs, ids, baseAlgorithm, preset) {
  const params = new URLSearchParams();
  if (preset) params.set('preset', preset);
  params.set('compare', ids.join(','));
  if (runs.nowMs > 0) params.set('at', String(runs.nowMs));
  const back = toolsPlayground(runs.runs[0]).for_algorithm(baseAlgorithm);
  const fragment = back.share_fragment();
  back.free();
  const query = params.toString().replace(/%2C/gi, ',');
  return new URL(`${window.location.pathname}?${query}#${fragment}`, window.location.href).href;
}
