// @ts-check
/**
 * How the full page (stage/page.js) opens a run: the one the address
 * asks for (a standalone page's inline scenario, a `#l=` lesson's, a
 * preset's, or the address's scenario), made in the wasm module that runs
 * it, and where it stands once open (`at=`).
 * @module stage/page-run
 */

import { isLessonLink, lessonLinkScenario } from '../panels/lessons.js';
import { presetPlayground } from '../panels/presets.js';
import { messageOf } from '../shared/dom.js';
import { ModuleLoadError, openRun, openRunIn } from '../shared/player-wasm.js';

/** @typedef {import('../shared/player-wasm.js').Playground} Playground */


/**
 * The run the address asks for, made in the wasm module that runs it
 * (shared/player-wasm.js: loaded first if need be), or the defaults with
 * the problem reported. A module that cannot load rejects (a
 * ModuleLoadError), unless `orDefault`: then it is a problem too.
 * @param {import('../shared/url.js').PageRequest} request
 * @param {string[]} problems filled with what went wrong
 * @param {{first?: string, orDefault?: boolean}} [how] `first`: the module
 *   to try first (the page's first render); `orDefault`: fall back on the
 *   default scenario when a module could not load as well
 * @returns {Promise<Playground>}
 */
export async function requestedRun(request, problems, how = {}) {
  /** @param {import('../shared/player-wasm.js').PlayerWasm} w */
  const make = (w) =>
    // A standalone page's inline scenario (www/standalone/inlined.js).
    request.scenario !== undefined
      ? new w.Playground(request.scenario)
      : // A lesson link (`#l=`): the lesson's scenario, its steps' faults included.
        isLessonLink(request.fragment)
        ? new w.Playground(lessonLinkScenario(w, request.fragment))
        : (presetPlayground(w, request) ?? w.Playground.from_url(request.query, request.fragment));
  try {
    return await (how.first ? openRunIn(how.first, make) : openRun(make));
  } catch (e) {
    if (e instanceof ModuleLoadError && !how.orDefault) throw e;
    problems.unshift(`${messageOf(e)}. Showing the default scenario instead.`);
    return openRun((w) => w.Playground.from_url('', ''));
  }
}

/**
 * Uses what `openRun` made: at once, or once its module has loaded (the page
 * keeps showing the old run meanwhile); `fail` gets a failure either way.
 * @param {() => Playground | Promise<Playground>} make e.g. `() => openRun(...)`
 * @param {(pg: Playground) => void} use
 * @param {(e: unknown) => void} fail
 */
export function whenMade(make, use, fail) {
  /** @type {Playground | Promise<Playground>} */
  let made;
  try {
    made = make();
  } catch (e) {
    fail(e);
    return;
  }
  if (made instanceof Promise) made.then(use, fail);
  else use(made);
}

/**
 * Moves a fresh run to where the address asks (`at`; the start when no
 * time was asked for), paused: the page waits for Play (its prompt says
 * so, see Controls). With `opened`, a moment is gone to in pieces over
 * the next frames (see Model.openAt; the end as To end goes there,
 * Model.runToEndInPieces) and `opened` is called once there (at once
 * when there is nothing to go through).
 * @param {import('../player/model.js').Model} model
 * @param {import('../shared/url.js').PageRequest} request
 * @param {() => void} [opened]
 */
export function position(model, request, opened) {
  model.setPlaying(false);
  if (request.at === 'end') {
    model.runToEndInPieces(opened);
    return;
  } else if (typeof request.at === 'number') {
    if (opened) {
      model.openAt(request.at, opened);
      return;
    }
    model.seek(request.at);
  }
  opened?.();
}
