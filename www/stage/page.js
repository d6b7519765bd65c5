// @ts-check
/**
 * The full page's stage: one run in the single view with every panel
 * around it (settings, faults, the node inspector, the log and the
 * space-time diagram, presets, files, exports, Share) and the page's
 * transport bar (stage/bar.js on index.html's markup, with the readouts
 * and settings of player/controls.js and timeline.js), the run
 * read from the address and handed to the page's player
 * (player/player.js), which plays it; compare mode on top of it, loaded
 * on first use (stage/compare-picker.js). No simulation logic lives here or
 * anywhere in www/. Started by stage/start.js for the page's entries
 * (www/main.js, standalone/entry.js).
 * @module stage/page
 */

import { onAppearanceChange } from '../shared/appearance.js';
import { Bar, modelActions } from './bar.js';
import { LazyCompare } from './compare-picker.js';
import { Controls } from '../player/controls.js';
import { Exports } from '../panels/export.js';
import { FaultEditor } from '../panels/fault-editor.js';

import { targetOf, wireEmbedCode } from '../shared/embed-code.js';
import { FaultsPanel } from '../panels/faults.js';
import { Inspector } from '../panels/inspector.js';
import { EventLog } from '../panels/log.js';
import { Model } from '../player/model.js';
import { player, playModel } from '../player/player.js';
import { Panes } from '../panels/panes.js';
import { Narration } from '../panels/presets.js';
import { LessonPanel } from '../panels/lessons.js';
import { providePageRun, providePageScenario } from '../shared/page-scenario.js';
import { READOUT_MS, Readouts } from '../shared/readouts.js';
import { ScenarioFile } from '../panels/scenario-file.js';

import { Presentation } from '../player/present.js';
import { PresentReadouts } from '../player/present-readouts.js';
import { CaptionView } from '../ask/captions.js';
import { Predict } from '../ask/predict.js';
import { StatusView } from '../panels/status.js';
import { clearFieldErrors, settingsError } from '../panels/field-errors.js';
import { NodeMenu, isTouchTap } from '../panels/node-menu.js';
import { TimelineControls } from '../player/timeline.js';
import { compareParam, readAddress, writeSettingsAddress, writeShareAddress } from '../shared/url.js';
import { ClusterView } from '../cluster/view.js';
import { ClusterLegend, roleLegend } from '../cluster/legend.js';
import { el, messageOf, showProblems } from '../shared/dom.js';
import { openRun } from '../shared/player-wasm.js';
import { position, requestedRun, whenMade } from './page-run.js';
import { playAskedEarly } from '../first/handoff.js';

/** @typedef {import('../shared/player-wasm.js').Playground} Playground */

/** The controls of the page's bar (index.html's `.transport` and `.timeline`). */
const PAGE_BAR = ['play', 'step', 'next', 'restart', 'end', 'speed', 'quiet', 'present', 'keys', 'scrubber'];

/**
 * What a page entry gives the page.
 * @typedef {object} PageOptions
 * @property {import('./compare-picker.js').CompareLoader} compare loads
 *   compare mode (compare/compare.js)
 * @property {typeof import('../standalone/control.js').wireStandaloneDownload} download
 *   wires "Download as a standalone page" (standalone/control.js)
 * @property {(request: PageRequest, scenarioParams: string[]) => PageRequest} [request]
 *   what the page opens for an address (a standalone page's inline
 *   scenario, standalone/inlined.js); the address's request by default
 */

/** @typedef {import('../shared/url.js').PageRequest} PageRequest */

/**
 * Builds the full page around the address's run and plays it.
 * @param {import('../shared/player-wasm.js').PlayerWasm} wasm the first module
 *   (its static functions serve every run)
 * @param {string} firstName that module's name, tried first for the run
 * @param {PageOptions} options
 */
export async function startPage(wasm, firstName, options) {
  /** @param {PageRequest} r */
  const adjust = (r) => (options.request ? options.request(r, wasm.scenario_params()) : r);
  const roles = roleLegend(el('roles'));
  const clusterLegend = new ClusterLegend(el('cluster-kinds'), el('cluster-timers'));

  const request = adjust(readAddress(wasm.scenario_params()));
  const problems = [...request.problems];
  const model = new Model(wasm, await requestedRun(request, problems, { first: firstName, orDefault: true }));

  const inspector = new Inspector(
    el('inspector-title'),
    /** @type {HTMLDListElement} */ (el('inspector')),
  );
  const view = new ClusterView(
    /** @type {HTMLCanvasElement} */ (el('cluster')),
    el('node-layer'),
    (id, e) => {
      // A finger tap opens the node's menu; a click or a key acts at once.
      if (isTouchTap(e)) {
        nodeMenu.open(id);
        return;
      }
      try {
        model.toggleNode(id);
      } catch (e) {
        showProblems([messageOf(e)]);
      }
    },
    (id, deliberate) => {
      inspector.select(id, model);
      // Not when the page scrolls a node under a resting pointer: the
      // panel's node must not change behind the user's back.
      if (id !== null && deliberate) faults.choose(id);
    },
    (id) => faults.toggleSide(id),
  );
  const faults = new FaultsPanel({
    inject(fault) {
      model.inject(fault);
      showProblems([]);
    },
    report(message) {
      showProblems([message]);
    },
    choose(id) {
      inspector.select(id, model);
    },
    picked(side) {
      view.setPicked(side);
    },
  });
  const status = new StatusView(el('kinds'));
  const nodeMenu = new NodeMenu(el('node-layer'), {
    state: (id) => model.snapshot().nodes[id],
    inspect(id) {
      inspector.select(id, model);
      faults.choose(id);
      panes.tabs.select('node');
      // Its title at the top of the screen, the fields under it in view
      // ('nearest' left them below the screen on a phone).
      el('inspector-title').scrollIntoView({ block: 'start' });
    },
    toggle(id) {
      try {
        model.toggleNode(id);
      } catch (e) {
        showProblems([messageOf(e)]);
      }
    },
    pause(id) {
      faults.choose(id);
      /** @type {HTMLFormElement} */ (el('form-pause')).requestSubmit();
    },
  });
  const log = new EventLog(
    /** @type {HTMLOListElement} */ (el('log')),
    /** @type {HTMLInputElement} */ (el('log-traffic')),
  );
  const panes = new Panes(wasm, model, log);
  /** The latest settings change (a slower module load must not win over a later change). */
  let settingsTurn = 0;
  // The page's transport bar, on the markup index.html already shows.
  const bar = new Bar({ chrome: 'page', shows: PAGE_BAR });
  const actions = modelActions(model);
  bar.wire(actions);
  const controls = new Controls(model, wasm.algorithms(), () => wasm.fresh_seed(), {
    applySettings(query) {
      // Another algorithm may run in another wasm module: the scenario is
      // made here, the run where its algorithm runs (at once, or once that
      // module has loaded; until then the old run stays).
      const turn = ++settingsTurn;
      whenMade(
        () => {
          const text = model.playground.settings_json(query);
          return openRun((w) => new w.Playground(text));
        },
        (next) => {
          if (turn !== settingsTurn) {
            next.free();
            return;
          }
          model.replace(next);
          controls.fill(next);
          faults.fill(next);
          // A script does not fit in readable parameters: its link carries it.
          if (next.algorithm() === 'script') writeShareAddress(next.share_fragment(), 0);
          else writeSettingsAddress(next.query_string());
          showProblems([]);
          clearFieldErrors(controls.form);
        },
        (e) => {
          if (turn === settingsTurn) showProblems([settingsError(controls.form, e)]);
        },
      );
    },
    report(message) {
      showProblems([settingsError(controls.form, message)]);
    },
  }, bar);

  // "Copy embed code" (Share): an iframe of this run at this moment.
  const embedCode = { button: el('copy-embed'), field: /** @type {HTMLTextAreaElement} */ (el('embed-code')), status: el('embed-code-status') };
  wireEmbedCode(embedCode, () => {
    model.setPlaying(false);
    return targetOf(model.playground, wasm.algorithms());
  });

  const narration = new Narration(model, wasm.presets());
  // Lessons (panels/lessons.js): `#l=` links, a step's view and question,
  // the editor of "Make a lesson from this run".
  const lessons = new LessonPanel({
    model,
    wasm,
    narration,
    selectTab: (id) => panes.tabs.select(id),
    presenting: () => presentation.on,
    report: (message) => showProblems([message]),
    // (Predict is made below, before any lesson step is reached.)
    // Once answered, the caption says all again (render, below).
    count: (asked) => {
      predict.count(asked);
      render();
    },
  });
  // "Download lesson as a standalone page" (Lessons): the lesson on
  // screen, which the file opens at its start.
  options.download({ button: el('lesson-download'), status: el('lesson-share-status') }, () => {
    model.setPlaying(false);
    const pg = model.playground;
    const shown = lessons.forDownload();
    if (!shown) throw new Error('No lesson is shown.');
    return { scenario: shown.scenario, lesson: shown.lesson, at: null, preset: null, algorithm: pg.algorithm(), seed: pg.seed() };
  });
  // "Download as a standalone page" (Share): this run at this moment, one file.
  options.download({ button: el('download-standalone'), status: el('standalone-status') }, () => {
    model.setPlaying(false);
    const pg = model.playground;
    // Its moment opens after every event at its time, as a link does.
    pg.run_until_ms(pg.now_ms());
    model.seek(pg.now_ms());
    const preset = narration.section.hidden ? null : (narration.preset?.name ?? null);
    return { scenario: pg.scenario_json(), at: pg.now_ms(), preset, algorithm: pg.algorithm(), seed: pg.seed() };
  });
  // Compare mode loads on first use (an address with compare=, or the
  // Compare button): stage/compare-picker.js, with the entry's code of it.
  const compare = new LazyCompare(
    wasm.algorithms(),
    {
      single: () => model,
      report(message) {
        showProblems([message]);
      },
      clear() {
        showProblems([]);
      },
    },
    options.compare,
  );
  // While compare mode is open it covers the single view (main.layout),
  // which is then not drawn (render, below), nor while a comparison the
  // address asks for is opening: on a compare link the view's first
  // drawing took 40 ms of the main thread for nothing. It is drawn when
  // compare mode closes (reopen) or does not open.
  let comparing = compareParam(request.query) !== null;

  const timeline = new TimelineControls(model);
  const presentation = new Presentation([
    /** @type {HTMLButtonElement} */ (bar.controls.present),
    /** @type {HTMLButtonElement} */ (el('compare-present')),
  ]);
  presentation.set(Boolean(request.present), false);
  // The core's caption under the drawing; Predict's questions under it
  // (ask/); presentation mode's large readouts above it.
  const storyBox = el('story');
  const caption = new CaptionView({ into: storyBox });
  const predict = new Predict(model, {
    toggle: /** @type {HTMLInputElement} */ (el('predict')),
    host: storyBox,
    report: (message) => showProblems([message]),
  });
  // A lesson step's own question is the one asked at its moment.
  predict.askedElsewhere = (ms) => narration.lesson?.steps.some((step) => step.question && Math.abs(step.at_ms - ms) < 1e-3) ?? false;
  predict.set(Boolean(request.predict), false, request.predictKinds ?? null);
  const presentReadouts = new PresentReadouts(el('present-readouts'));
  const shortcuts = bar.keys({
    // In presentation mode a lesson steps with Space (Next step), and
    // Space pauses while it plays; the Play button still plays freely.
    play: () => {
      if (presentation.on && narration.stepping && !model.playing) model.playToNextStop();
      else actions.toggle();
    },
    step: () => actions.step(),
    next: () => {
      model.nextInteresting();
    },
    back: () => timeline.jump(-1),
    forward: () => timeline.jump(1),
    faster: () => timeline.changeSpeed(1),
    slower: () => timeline.changeSpeed(-1),
    start: () => actions.restart(),
    end: () => model.runToEndInPieces(),
    present: () => presentation.toggle(),
    leave: () => presentation.leave(),
    help: () => {
      shortcuts.openHelp();
    },
  });

  // Another run of a scenario (imported, or with its faults edited): shown
  // paused at `atMs` in every view and put into the address.
  /**
   * @param {Playground} pg
   * @param {number} atMs
   * @param {boolean} [keepOld] leave the old run in the history (its link
   *   in the current entry, the new one pushed), so Back returns to it
   */
  const adopt = (pg, atMs, keepOld = false) => {
    model.setPlaying(false);
    if (keepOld) writeShareAddress(model.playground.share_fragment(), model.nowMs);
    model.replace(pg);
    if (atMs > 0) model.seek(atMs);
    controls.fill(pg);
    faults.fill(pg);
    writeShareAddress(pg.share_fragment(), pg.now_ms(), keepOld);
    showProblems([]);
    clearFieldErrors(document);
  };
  // The Experiments panel sweeps what is on screen, clicked faults included.
  providePageScenario(() => model.playground.scenario_json());
  // The lab (lab/panel.js) runs its script as the single view's run.
  providePageRun({ model, load: (pg) => adopt(pg, 0) });
  const filesStatus = el('files-status');
  new ScenarioFile(
    {
      exportButton: /** @type {HTMLButtonElement} */ (el('scenario-export')),
      input: /** @type {HTMLInputElement} */ (el('scenario-import')),
      dropZone: document.body,
    },
    {
      current: () => model.playground,
      parse: (text) => openRun((w) => new w.Playground(text)),
      // An imported file replaces the run: Back brings the old one back.
      load: (pg) => adopt(pg, 0, true),
      report: (message) => showProblems([message]),
      done: (message) => {
        filesStatus.textContent = message;
      },
    },
  );
  new Exports(
    {
      png: /** @type {HTMLButtonElement} */ (el('export-png')),
      svg: /** @type {HTMLButtonElement} */ (el('export-svg')),
      trace: /** @type {HTMLButtonElement} */ (el('export-trace')),
      summary: /** @type {HTMLButtonElement} */ (el('export-summary')),
      csv: /** @type {HTMLButtonElement} */ (el('export-csv')),
      status: filesStatus,
    },
    {
      model,
      cluster: () => view.composite(),
      scene: () => panes.spacetime.exportScene(),
      report: (message) => showProblems([message]),
    },
  );
  const editor = new FaultEditor(el('fault-editor'), {
    model,
    scale: () => Number(bar.scrubber.max),
    rebuild(faultList) {
      const now = model.nowMs;
      const scenario = JSON.parse(model.playground.scenario_json());
      scenario.faults = faultList;
      const text = JSON.stringify(scenario);
      // The same algorithm, so the module in use: a refused fault throws
      // here, for the editor to mark its input.
      const made = openRun((w) => new w.Playground(text));
      if (made instanceof Promise) made.then((pg) => adopt(pg, now), (e) => showProblems([messageOf(e)]));
      else adopt(made, now);
    },
    report: (message) => showProblems([message]),
  });

  // A link pasted into the address bar of an open page.
  // Back and Forward across links the page wrote (an import pushes one)
  // fire popstate, and hashchange too when only the fragment differs: the
  // address is read once per change.
  // The run may be in another wasm module, loaded first: meanwhile the old
  // run stays; a module that cannot load leaves it, with one message.
  // Compare mode's Compare and Leave push their address and open it here
  // too (stage/compare-links.js navigate), without loading the page again.
  // The page is not ready (body[data-ready]) from the change until the
  // new address stands where it asks and compare mode is open or closed.
  let reopened = '';
  let reopening = 0;
  const reopen = async () => {
    if (location.href === reopened) return;
    reopened = location.href;
    const turn = ++reopening;
    // Whether compare mode covers the single view (its drawing was skipped).
    const covered = compare.active;
    const wasReady = document.body.dataset.ready === 'true';
    const readyAgain = () => {
      if (turn === reopening && wasReady) document.body.dataset.ready = 'true';
    };
    if (wasReady) document.body.dataset.ready = 'false';
    const again = adjust(readAddress(wasm.scenario_params()));
    const found = [...again.problems];
    /** @type {Playground} */
    let pg;
    try {
      pg = await requestedRun(again, found);
    } catch (e) {
      if (turn === reopening) showProblems([`${messageOf(e)}. The current run is kept.`]);
      readyAgain();
      return;
    }
    if (turn !== reopening) {
      pg.free();
      return;
    }
    model.replace(pg);
    controls.fill(model.playground);
    // A moment is sought at once, as before; the end is reached in pieces
    // (page-run.js position).
    /** @type {Promise<void>} */
    let positioned = Promise.resolve();
    if (again.at === 'end') positioned = new Promise((done) => position(model, again, done));
    else position(model, again);
    presentation.set(Boolean(again.present), false);
    predict.set(Boolean(again.predict), false, again.predictKinds ?? null);
    faults.fill(model.playground);
    narration.open(again);
    // A lesson's `"predict": true` turns Predict on.
    if (narration.lesson?.predict) predict.set(true, false, again.predictKinds ?? null);
    const compared = compare.open(again, found).then((more) => {
      if (more) showProblems(found);
      // Left: the single view shows again, as it stands.
      if (covered && !compare.active) render();
    });
    showProblems(found);
    await Promise.all([positioned, compared]);
    readyAgain();
  };
  window.addEventListener('hashchange', reopen);
  window.addEventListener('popstate', reopen);

  controls.fill(model.playground);
  // The page is ready once it has drawn and stands where the address asks
  // (a pathological run's opening moment takes a few frames to reach).
  let opened = false;
  let drawn = false;
  // And compare mode is open when the address asks for it.
  let compared = false;
  const readyWhenBoth = () => {
    if (!(opened && drawn && compared) || document.body.dataset.ready === 'true') return;
    document.body.dataset.ready = 'true';
    // Play pressed before the page was ready (the first picture kept it).
    if (playAskedEarly()) model.setPlaying(true);
  };
  position(model, request, () => {
    opened = true;
    // The network form shows the network in force where the page stands.
    faults.fill(model.playground);
    readyWhenBoth();
  });
  // Meanwhile the form shows the run's network where it starts.
  if (model.isOpening) faults.fill(model.playground);
  narration.open(request);
  if (narration.lesson?.predict) predict.set(true, false, request.predictKinds ?? null);
  compare.suggest(model.playground.algorithm());
  compare.open(request, problems).then((more) => {
    if (more) showProblems(problems);
    // A comparison was asked for: the single view is covered by compare
    // mode, or drawn now that it did not open.
    const skipped = comparing;
    comparing = false;
    if (skipped && !compare.active) render();
    compared = true;
    readyWhenBoth();
  });
  showProblems(problems);

  // While playing, the text readouts change at most every READOUT_MS (a
  // number rewritten 60 times a second cannot be read anyway, and every
  // change costs the browser style and paint); the drawings change every
  // frame, and a pause or any other change writes everything at once.
  // The three groups of readouts (status; time, scrubber and speed;
  // metrics) are written in the same frame, so they show one moment
  // (shared/readouts.js).
  const readouts = new Readouts(3, READOUT_MS);
  const render = () => {
    // Whether the page is still on its way somewhere in pieces (To end, a
    // seek far ahead, Next change, the opening moment): a test that reads
    // the readouts of the end waits for "false" (tests/browser/page.js toEnd).
    const working = String(model.working);
    if (document.body.dataset.working !== working) document.body.dataset.working = working;
    if (comparing || compare.active) return;
    const snapshot = model.snapshot();
    const due = readouts.due(model.moving, performance.now());
    faults.render(snapshot);
    view.render(snapshot);
    if (due[0]) status.render(snapshot, model);
    if (due[0]) presentReadouts.render(snapshot);
    const asking = predict.waiting || lessons.waiting;
    caption.render(model.playground, snapshot.nowMs, asking);
    controls.asking(asking);
    roles(snapshot);
    clusterLegend.update(snapshot);
    log.sync(model);
    controls.render(due[1]);
    inspector.render(model);
    if (due[1]) timeline.render();
    panes.render(snapshot, due[2]);
    editor.render();
  };
  // Every change is drawn at once (at most once per frame while playing),
  // so the readouts are current whenever anyone looks, tests included.
  model.onChange(render);
  render();
  onAppearanceChange(() => {
    render();
    compare.render();
  });
  performance.mark('playground-first-draw');
  drawn = true;
  readyWhenBoth();
  // The page's player (player/player.js) plays the run: the simulation
  // in a task of its own between frames, within the frame's budget, and
  // the drawing of what it did in the next animation frame.
  player.add(
    playModel(model, (e) => {
      // After a trap nothing calls the run's handle again (Model.fail);
      // a new scenario or Restart makes a new one.
      showProblems([`Something went wrong: ${model.fail(e)}.`]);
    }),
  );
}

