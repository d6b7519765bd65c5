// @ts-check
/**
 * What the host's postMessage API (api.js) reads and loads in a single
 * embed (embed.js): its `state`, and `load`, another scenario or link
 * with its range, made in the wasm module that runs it
 * (shared/player-wasm.js) and refused, changing nothing, with an error
 * whose `field` names the message field at fault.
 * @module embed/load
 */

import { openRun } from '../shared/player-wasm.js';
import { messageOf } from '../shared/dom.js';
import { presetPlayground } from '../panels/presets.js';
import { rangeProblem } from '../stage/transport.js';

/** @typedef {import('../player/model.js').Playground} Playground */

/**
 * An `Error` whose `field` names the message field at fault (the API
 * reports it).
 * @param {string} field
 * @param {string} message
 * @returns {Error & {field: string}}
 */
function fieldError(field, message) {
  return Object.assign(new Error(message), { field });
}

/**
 * The error of a refused load, naming the message field at fault.
 * @param {import('./api.js').Command} c
 * @param {unknown} e
 * @returns {Error}
 */
function loadError(c, e) {
  const coreField = e instanceof Error && 'field' in e && typeof e.field === 'string' ? e.field : '';
  const field = c.scenario !== undefined ? (coreField ? `scenario.${coreField}` : 'scenario') : 'link';
  return fieldError(field, messageOf(e));
}

/**
 * The run a `load` asks for, and the preset it came from (kept in the
 * full-playground link): at once, or a promise while its module loads.
 * @param {import('./api.js').Command} c
 * @returns {{pg: Playground, preset: string | null} | Promise<{pg: Playground, preset: string | null}>}
 */
function loadRun(c) {
  /** @type {Playground | Promise<Playground>} */
  let made;
  let preset = null;
  try {
    if (c.scenario !== undefined) {
      const text = c.scenario;
      made = openRun((w) => new w.Playground(text));
    } else {
      const url = new URL(/** @type {string} */ (c.link), window.location.href);
      /** @type {import('../shared/url.js').PageRequest} */
      const asked = { query: url.search, fragment: url.hash, at: null, problems: [] };
      made = openRun((w) => presetPlayground(w, asked) ?? w.Playground.from_url(url.search, url.hash));
      preset = url.hash.includes('s=') ? null : url.searchParams.get('preset');
    }
  } catch (e) {
    throw loadError(c, e);
  }
  if (!(made instanceof Promise)) return { pg: made, preset };
  return made.then(
    (pg) => ({ pg, preset }),
    (e) => {
      throw loadError(c, e);
    },
  );
}

/**
 * The host's `load`: the run made, its range checked (a bad one refuses
 * it and frees it), then `show`n. A promise when the scenario's module is
 * not loaded yet (the API answers once it has).
 * @param {import('./api.js').Command} c
 * @param {(pg: Playground, range: import('../stage/transport.js').Range, preset: string | null) => void} show
 * @returns {void | Promise<void>}
 */
export function load(c, show) {
  /** @param {{pg: Playground, preset: string | null}} made */
  const checked = ({ pg, preset }) => {
    /** @type {import('../stage/transport.js').Range} */
    const range = { fromMs: c.from ?? 0, to: c.to ?? 'end' };
    const wrong = rangeProblem({ endMs: () => pg.end_ms(), horizonMs: () => pg.horizon_ms() }, range);
    if (wrong) {
      pg.free();
      throw fieldError(wrong.field, `${wrong.field}: ${wrong.message}`);
    }
    show(pg, range, preset);
  };
  const made = loadRun(c);
  if (made instanceof Promise) return made.then(checked);
  checked(made);
}

/**
 * The state the API reports for a single run.
 * @param {import('../player/model.js').Model} model
 * @param {import('../stage/transport.js').Transport} transport
 * @returns {import('./api.js').EmbedState}
 */
export function singleState(model, transport) {
  const p = model.playground;
  const leader = p.leader();
  return {
    time_ms: p.now_ms(),
    playing: model.playing,
    leader: leader === undefined ? null : leader,
    leaders: Array.from(p.leaders()),
    violations: p.violation_count(),
    trace_hash: p.trace_hash(),
    from_ms: transport.range.fromMs,
    to_ms: transport.toMs(),
  };
}
