// @ts-check
/**
 * Embed mode (`?embed=1`): the playground as a compact figure for an
 * iframe in course notes, on the stage in embed chrome
 * (stage/embed-stage.js): the canvas fills the frame and follows its size;
 * under it the bar with the controls `controls=` picks, locked to `[from,
 * to]` (stage/transport.js). This entry makes the run, its view, its
 * live caption (ask/captions.js) and its status line, and the host's
 * `load`. A `#l=` lesson link plays the lesson's scenario with the step
 * for the current moment in a line under the view
 * (`[data-testid=embed-lesson]`); its open link opens the lesson in the
 * full playground. With `compare=` the embed is a comparison
 * instead (compare-embed.js). Nothing here decides anything
 * about an algorithm.
 * @module embed
 */

import { startCompareEmbed } from './compare-embed.js';
import { RANGE_PLAY_MS, readEmbedRequest } from './params.js';
import { load, singleState } from './load.js';
import { fullHref, SingleStatus } from './readouts.js';
import { embedRoot, EmbedStage } from '../stage/embed-stage.js';
import { modelClock, Transport } from '../stage/transport.js';
import { MAX_SPEED, MIN_SPEED, Model } from '../player/model.js';
import { playModel } from '../player/player.js';
import { LessonLine, openEmbedded } from './lesson-line.js';
import { compareParam, EMBED_PARAMS, readAddress } from '../shared/url.js';
import { ClusterView } from '../cluster/view.js';
import { ClusterLegend, legendLists } from '../cluster/legend.js';
import { byTestId, h, messageOf, setText, showProblems } from '../shared/dom.js';
import { READOUT_MS, Readouts } from '../shared/readouts.js';
import { CaptionView } from '../ask/captions.js';

/**
 * Builds the embed into the page and runs it; stage/start.js loads this module
 * only in an embed. Its run, and any the host loads, is made in the wasm
 * module that runs its algorithm (shared/player-wasm.js).
 * @param {typeof import('../pkg/election_player.js')} wasm
 */
export async function startEmbed(wasm) {
  document.body.classList.add('embed');
  const request = readAddress([...wasm.scenario_params(), ...EMBED_PARAMS]);
  const options = readEmbedRequest(window.location.search, window.location.origin, { min: MIN_SPEED, max: MAX_SPEED });
  const problems = [...request.problems, ...options.problems];
  const compareText = compareParam(request.query);
  // `compare=a,b`: the compare embed (its own figure, the same stage).
  if (compareText !== null) return startCompareEmbed(request, options, compareText, problems);
  const { pg, lesson } = await openEmbedded(wasm, request, problems);
  const line = new LessonLine(lesson, request.fragment);
  /** The preset the run came from, kept in the full-playground link (its narration). */
  let preset = request.fragment.includes('s=') || lesson ? null : new URLSearchParams(request.query).get('preset');
  const model = new Model(wasm, pg);
  const transport = new Transport(modelClock(model), { fromMs: options.fromMs, to: options.to }, options.loop);
  transport.checkRange(problems, { what: 'this run', whose: "the run's" });
  const shows = options.controls;
  const root = embedRoot(false);
  const box = h('div', { class: 'embed-stage' });
  const canvas = h('canvas', { class: 'embed-canvas', 'data-testid': 'embed-canvas', role: 'img', 'aria-label': 'The nodes of the cluster and the messages between them' });
  const overlay = h('div', { class: 'node-layer' });
  box.append(canvas, overlay);
  const stage = new EmbedStage({
    wasm, transport, options, compare: false, drawn: (action) => action(),
    api: {
      load: (c) =>
        load(c, (pg, range, made) => {
          model.setPlaying(false);
          Object.assign(transport.range, range);
          preset = made;
          line.clear();
          model.replace(pg);
          transport.pickSpeed(options.speed, RANGE_PLAY_MS);
          transport.goTo(range.fromMs);
          showProblems([]);
        }),
      state: () => singleState(model, transport),
      describe: () => {
        const scenario = JSON.parse(model.playground.scenario_json());
        return { algorithm: scenario.algorithm, nodes: scenario.nodes, seed: model.playground.seed(), controls: [...shows] };
      },
    },
  });
  root.append(box);
  // The core's live caption under the drawing (ask/captions.js).
  const caption = new CaptionView({ into: root });
  // A lesson's step for the current moment, in a line under the view.
  if (lesson) root.append(line.element);
  // `controls=…,legend`: the message kinds and timers under the view.
  const lists = shows.has('legend') ? legendLists() : null;
  const legend = lists ? new ClusterLegend(lists.kinds, lists.timers) : null;
  if (lists) root.append(lists.box);
  root.append(stage.bar.element, byTestId('error'));
  document.body.append(root);
  stage.mark(root);
  /** @param {number} id */
  const click = (id) => {
    if (!shows.has('faults')) return;
    try {
      model.toggleNode(id);
    } catch (e) {
      showProblems([messageOf(e)]);
    }
  };
  const view = new ClusterView(canvas, overlay, click, () => {}, () => {});
  // Without the faults control the nodes are a picture, not buttons.
  overlay.inert = !shows.has('faults');
  const status = new SingleStatus();
  // While playing, the time readouts are written at most every READOUT_MS (as on the page).
  const readouts = new Readouts(1, READOUT_MS);
  const render = () => {
    const s = model.snapshot();
    view.render(s);
    legend?.update(s);
    caption.render(model.playground, s.nowMs);
    stage.renderBar(readouts.due(model.playing, performance.now())[0]);
    setText(stage.bar.status, status.text(model, s));
    stage.bar.status.dataset.leader = s.leader === undefined ? 'none' : String(s.leader);
    root.dataset.playing = String(model.playing);
    stage.api.update(model.playground);
    line.render(s.nowMs);
  };
  model.onChange(render);
  transport.pickSpeed(options.speed, RANGE_PLAY_MS);
  // Paused, the embed does nothing between frames (its range's end is known).
  const failed = (/** @type {unknown} */ e) => {
    model.setPlaying(false);
    showProblems([`Something went wrong: ${messageOf(e)}`]);
  };
  const part = playModel(model, failed, { advance: (realMs, budgetMs) => transport.advance(realMs, budgetMs), busy: () => false });
  stage.start({ at: request.at, problems, render, href: () => line.href() ?? fullHref(model.playground, preset), part });
}
