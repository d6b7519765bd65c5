// @ts-check
/**
 * Embed mode (`?embed=1`): the playground as a compact figure for an
 * iframe in course notes. The canvas fills the frame and follows its
 * size; under it a thin bar with the controls `controls=` picks, the
 * time, who leads, and a link that opens the same run in the full
 * playground. The scrubber is locked to `[from, to]`: seeking clamps,
 * playing stops at `to` (or goes back to `from` with `loop=1`).
 * `autoplay=1` starts playing on load. Hosts drive it with postMessage
 * (embed-api.js).
 *
 * With `compare=` the embed is a comparison instead (compare-embed.js).
 *
 * Nothing here decides anything about an algorithm: it moves the model's
 * clock and draws what the core reports, like the full page.
 * @module embed
 */

import { formatSpeed } from '../player/controls.js';
import { EmbedApi } from './api.js';
import { layoutBar } from './bar.js';
import { startCompareEmbed } from './compare-embed.js';
import { compareParam } from '../compare/entry.js';
import { toolsWasm } from '../shared/tools-wasm.js';
import { openRun } from '../shared/player-wasm.js';
import { RANGE_PLAY_MS, readEmbedRequest } from './params.js';
import { propertyLabel } from '../shared/names.js';
import { MAX_SPEED, MIN_SPEED, Model } from '../player/model.js';
import { player, playModel } from '../player/player.js';
import { presetPlayground } from '../panels/presets.js';
import { EMBED_PARAMS, readAddress } from '../shared/url.js';
import { ClusterView } from '../cluster/view.js';
import { ClusterLegend, legendLists } from '../cluster/legend.js';
import { byTestId, h, messageOf, setAttr, setText, showProblems } from '../shared/dom.js';
import { READOUT_MS, Readouts } from '../shared/readouts.js';
import { quietWords } from '../player/quiet.js';

/** How close to `to` counts as there, ms (time is whole microseconds). */
const AT_END_MS = 1e-4;

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
 * The part of the run the scrubber is locked to.
 * @typedef {object} Range
 * @property {number} fromMs
 * @property {number | 'end'} to ms, or the run's end as `election run` sees it
 */

/**
 * The end of the range for a run, ms.
 * @param {import('../player/model.js').Playground} pg
 * @param {Range} range
 * @returns {number}
 */
function rangeEnd(pg, range) {
  const end = range.to === 'end' ? pg.end_ms() : Math.min(range.to, pg.horizon_ms());
  return Math.max(range.fromMs, end);
}

/**
 * Checks a range against a run: `from` must come before its end, `to`
 * within its horizon.
 * @param {import('../player/model.js').Playground} pg
 * @param {Range} range
 * @returns {{field: 'from' | 'to', message: string} | null}
 */
function rangeProblem(pg, range) {
  if (range.to !== 'end' && range.to > pg.horizon_ms()) {
    return { field: 'to', message: `${range.to} ms is after the last time this run can reach (${pg.horizon_ms()} ms)` };
  }
  const end = range.to === 'end' ? pg.end_ms() : range.to;
  if (range.fromMs > end) {
    return { field: 'from', message: `${range.fromMs} ms is after the end of the range (${end} ms)` };
  }
  return null;
}

/**
 * Builds the embed into the page and runs it. Call once the wasm module
 * the address asks for has started (shared/player-wasm.js); main.js
 * loads this module only in an embed. Its run, and any the host loads,
 * is made in the module that runs its algorithm.
 * @param {typeof import('../pkg/election_player.js')} wasm
 */
export async function startEmbed(wasm) {
  document.body.classList.add('embed');
  const request = readAddress([...wasm.scenario_params(), ...EMBED_PARAMS]);
  const options = readEmbedRequest(window.location.search, window.location.origin, { min: MIN_SPEED, max: MAX_SPEED });
  const problems = [...request.problems, ...options.problems];
  // `compare=a,b`: the compare embed (its own figure, the same player).
  const compareText = compareParam(request.query);
  if (compareText !== null) {
    // Compare runs on the wasm tools module, loaded now.
    toolsWasm().then(
      (tools) => startCompareEmbed(tools, request, options, compareText, problems),
      (e) => {
        showProblems([...problems, `The comparison could not load: ${messageOf(e)}`]);
        document.body.dataset.ready = 'true';
      },
    );
    return;
  }

  /** @type {import('../player/model.js').Playground} */
  let pg;
  try {
    pg = await openRun((w) => presetPlayground(w, request) ?? w.Playground.from_url(request.query, request.fragment));
  } catch (e) {
    problems.unshift(`${messageOf(e)}. Showing the default scenario instead.`);
    pg = await openRun((w) => w.Playground.from_url('', ''));
  }
  /** The preset the run came from, kept in the full-playground link (its narration). */
  let preset = new URLSearchParams(request.query).get('preset');
  if (request.fragment.includes('s=')) preset = null;

  /** @type {Range} */
  const range = { fromMs: options.fromMs, to: options.to };
  const bad = rangeProblem(pg, range);
  if (bad?.field === 'to') {
    problems.push(`URL parameter \`to\`: ${bad.message}; using the run's end`);
    range.to = 'end';
  }
  const badFrom = rangeProblem(pg, range);
  if (badFrom) {
    problems.push(`URL parameter \`from\`: ${badFrom.message}; using 0`);
    range.fromMs = 0;
  }

  const model = new Model(wasm, pg);
  /** Sets the speed: as asked, or the range in about RANGE_PLAY_MS. */
  const pickSpeed = () => {
    const span = rangeEnd(model.playground, range) - range.fromMs;
    model.setSpeed(options.speed ?? Math.max(span, 1) / RANGE_PLAY_MS);
  };

  // The frame.
  const root = h('div', { id: 'embed-root', class: 'embed-root', 'data-testid': 'embed' });
  const stage = h('div', { class: 'embed-stage' });
  const canvas = h('canvas', {
    class: 'embed-canvas',
    'data-testid': 'embed-canvas',
    role: 'img',
    'aria-label': 'The nodes of the cluster and the messages between them',
  });
  const overlay = h('div', { class: 'node-layer' });
  stage.append(canvas, overlay);
  const bar = h('div', { class: 'embed-bar', role: 'group', 'aria-label': 'Playback' });
  const shows = options.controls;

  const play = h('button', { type: 'button', 'data-testid': 'embed-play', 'aria-pressed': 'false' }, 'Play');
  const step = h('button', { type: 'button', 'data-testid': 'embed-step', title: 'To the next event' }, 'Step');
  const reset = h('button', { type: 'button', 'data-testid': 'embed-reset', title: 'Back to the start of this part' }, 'Reset');
  const scrubber = h('input', {
    type: 'range',
    step: 'any',
    'data-testid': 'embed-scrubber',
    'aria-label': 'Simulated time, ms',
  });
  const speedBox = h('label', { class: 'embed-speed' }, 'Speed ');
  const speed = h('input', { type: 'range', step: '0.05', 'data-testid': 'embed-speed', 'aria-label': 'Speed' });
  speed.min = String(Math.log10(MIN_SPEED));
  speed.max = String(Math.log10(MAX_SPEED));
  const speedOut = h('output', { class: 'mono' });
  speedBox.append(speed, speedOut);
  const faultBox = h('span', { class: 'embed-faults', role: 'group', 'aria-label': 'Faults', 'data-testid': 'embed-faults' });
  const crashLeader = h('button', { type: 'button', title: 'Crash the node leading now' }, 'Crash leader');
  const heal = h('button', { type: 'button', title: 'Join every partition and restore cut links' }, 'Heal');
  faultBox.append(crashLeader, heal);
  const time = h('span', { class: 'embed-time mono', 'data-testid': 'embed-time' });
  const status = h('span', { class: 'embed-status', 'data-testid': 'embed-status', role: 'status' });
  const open = h('a', {
    class: 'embed-open',
    'data-testid': 'embed-open',
    target: '_blank',
    rel: 'noopener',
    title: 'Open this run, at this moment, in the full playground (new tab)',
  }, 'Open in playground ↗');

  layoutBar(bar, shows, { play, step, reset, scrubber, speed: speedBox, faults: faultBox }, [time, status, open]);
  root.append(stage);
  // `controls=…,legend`: the message kinds and timers under the view.
  const lists = shows.has('legend') ? legendLists() : null;
  const legend = lists ? new ClusterLegend(lists.kinds, lists.timers) : null;
  if (lists) root.append(lists.box);
  root.append(bar);
  const errorBox = byTestId('error');
  root.append(errorBox);
  document.body.append(root);
  root.dataset.controls = [...shows].join(',');

  /** Reports a problem made by a click (a fault the core refused). */
  const report = (/** @type {unknown} */ e) => showProblems([messageOf(e)]);
  const view = new ClusterView(
    canvas,
    overlay,
    (id) => {
      if (!shows.has('faults')) return;
      try {
        model.toggleNode(id);
      } catch (e) {
        report(e);
      }
    },
    () => {},
    () => {},
  );
  // Without the faults control the nodes are a picture, not buttons.
  overlay.inert = !shows.has('faults');

  /** @returns {number} */
  const toMs = () => rangeEnd(model.playground, range);

  /**
   * Goes to `ms`, clamped to the range; at the run's end exactly as
   * `election run` ends it.
   * @param {number} ms
   * @returns {number} the time gone to
   */
  const goTo = (ms) => {
    const end = toMs();
    const target = Math.min(Math.max(ms, range.fromMs), end);
    if (range.to === 'end' && target >= end) {
      const playing = model.playing;
      model.runToEnd();
      if (playing) model.setPlaying(true);
    } else {
      model.seek(target);
    }
    return target;
  };

  /** Starts playing (from `from` again when at the end of the range). */
  const startPlaying = () => {
    if (model.nowMs >= toMs() - AT_END_MS) goTo(range.fromMs);
    model.setPlaying(true);
  };

  /** @returns {boolean} false when nothing is left before `to` */
  const stepOnce = () => {
    const p = model.playground;
    const end = toMs();
    const next = p.next_event_ms();
    if (next === undefined || next > end) {
      model.setPlaying(false);
      model.stopReason = `the end of this part (${end} ms)`;
      return false;
    }
    const stepped = model.step();
    if (p.now_ms() > end) goTo(end);
    return stepped;
  };

  /**
   * Loads another scenario (from the host); on error nothing changes. A
   * promise when the scenario's algorithm runs in a wasm module not
   * loaded yet (the API answers once it has).
   * @param {import('./api.js').Command} c
   * @returns {void | Promise<void>}
   */
  const load = (c) => {
    /** @type {import('../player/model.js').Playground | Promise<import('../player/model.js').Playground>} */
    let made;
    let nextPreset = null;
    try {
      if (c.scenario !== undefined) {
        const text = c.scenario;
        made = openRun((w) => new w.Playground(text));
      } else {
        const url = new URL(/** @type {string} */ (c.link), window.location.href);
        /** @type {import('../shared/url.js').PageRequest} */
        const asked = { query: url.search, fragment: url.hash, at: null, problems: [] };
        made = openRun((w) => presetPlayground(w, asked) ?? w.Playground.from_url(url.search, url.hash));
        nextPreset = url.hash.includes('s=') ? null : url.searchParams.get('preset');
      }
    } catch (e) {
      throw loadError(c, e);
    }
    if (made instanceof Promise) {
      return made.then(
        (next) => show(c, next, nextPreset),
        (e) => {
          throw loadError(c, e);
        },
      );
    }
    show(c, made, nextPreset);
  };

  /**
   * The error of a refused load, naming the message field at fault.
   * @param {import('./api.js').Command} c
   * @param {unknown} e
   * @returns {Error}
   */
  const loadError = (c, e) => {
    const coreField = e instanceof Error && 'field' in e && typeof e.field === 'string' ? e.field : '';
    const field = c.scenario !== undefined ? (coreField ? `scenario.${coreField}` : 'scenario') : 'link';
    return fieldError(field, messageOf(e));
  };

  /**
   * Shows a loaded run, or refuses it (its range) and frees it.
   * @param {import('./api.js').Command} c
   * @param {import('../player/model.js').Playground} next
   * @param {string | null} nextPreset
   */
  const show = (c, next, nextPreset) => {
    /** @type {Range} */
    const nextRange = { fromMs: c.from ?? 0, to: c.to ?? 'end' };
    const wrong = rangeProblem(next, nextRange);
    if (wrong) {
      next.free();
      throw fieldError(wrong.field, `${wrong.field}: ${wrong.message}`);
    }
    model.setPlaying(false);
    range.fromMs = nextRange.fromMs;
    range.to = nextRange.to;
    preset = nextPreset;
    model.replace(next);
    pickSpeed();
    goTo(range.fromMs);
    showProblems([]);
  };

  /** @returns {import('./api.js').EmbedState} */
  const state = () => {
    const p = model.playground;
    const leader = p.leader();
    return {
      time_ms: p.now_ms(),
      playing: model.playing,
      leader: leader === undefined ? null : leader,
      leaders: Array.from(p.leaders()),
      violations: p.violation_count(),
      trace_hash: p.trace_hash(),
      from_ms: range.fromMs,
      to_ms: toMs(),
    };
  };

  const api = new EmbedApi(wasm, options.origins, {
    play: startPlaying,
    pause: () => model.setPlaying(false),
    step: stepOnce,
    seek: goTo,
    load,
    state,
    playing: () => model.playing,
    describe: () => {
      const scenario = JSON.parse(model.playground.scenario_json());
      return {
        algorithm: scenario.algorithm,
        nodes: scenario.nodes,
        seed: model.playground.seed(),
        controls: [...shows],
      };
    },
  });

  play.addEventListener('click', () => (model.playing ? model.setPlaying(false) : startPlaying()));
  step.addEventListener('click', () => stepOnce());
  reset.addEventListener('click', () => goTo(range.fromMs));
  scrubber.addEventListener('input', () => goTo(Number(scrubber.value)));
  speed.addEventListener('input', () => model.setSpeed(10 ** Number(speed.value)));
  /** @param {object} fault */
  const inject = (fault) => {
    try {
      model.inject(fault);
      showProblems([]);
    } catch (e) {
      report(e);
    }
  };
  crashLeader.addEventListener('click', () => inject({ crash: 'leader' }));
  heal.addEventListener('click', () => inject({ heal: true }));

  /** The full playground's address for this run at this moment. */
  const fullHref = () => {
    const p = model.playground;
    const params = new URLSearchParams();
    if (preset) params.set('preset', preset);
    if (p.now_ms() > 0) params.set('at', String(p.now_ms()));
    const query = params.toString() ? `?${params}` : '';
    return new URL(`${window.location.pathname}${query}#${p.share_fragment()}`, window.location.href).href;
  };
  // Made when it is about to be followed (the share link is compressed:
  // not worth doing every frame).
  for (const type of ['pointerdown', 'focus', 'click', 'mouseenter']) {
    open.addEventListener(type, () => {
      open.href = fullHref();
    });
  }

  /** The failed checks named in the status (the list is read only when its count changes). */
  const violationsShown = { key: '', text: '' };
  // While playing, the time readouts are written at most every
  // READOUT_MS (as on the page); the drawing changes every frame, and a
  // pause writes all.
  const readouts = new Readouts(1, READOUT_MS);
  const render = () => {
    const s = model.snapshot();
    view.render(s);
    legend?.update(s);
    const end = toMs();
    const now = s.nowMs;
    setText(play, model.playing ? 'Pause' : 'Play');
    setAttr(play, 'aria-pressed', String(model.playing));
    if (document.activeElement !== speed) speed.value = String(Math.log10(model.speed));
    setText(speedOut, formatSpeed(model.speed));
    // The time in `data-ms` every frame (an attribute no style reads: a
    // host's script and the tests read it), in words at the readouts' pace.
    time.dataset.ms = String(now);
    if (readouts.due(model.playing, performance.now())[0]) {
      setAttr(scrubber, 'min', String(range.fromMs));
      setAttr(scrubber, 'max', String(end));
      if (document.activeElement !== scrubber) scrubber.value = String(now);
      setAttr(scrubber, 'aria-valuetext', `${now} ms, from ${range.fromMs} to ${end} ms`);
      setText(time, `${now.toFixed(1)} ms`);
    }
    const leaders = s.leaders.map((id) => `n${id}`);
    let text = leaders.length === 0 ? 'no leader' : leaders.length === 1 ? `leader ${leaders[0]}` : `leaders ${leaders.join(', ')}`;
    const violationKey = `${s.violationCount}|${model.revision}`;
    if (violationKey !== violationsShown.key) {
      const titles = [...new Set(model.violations().map((v) => propertyLabel(v.property)))];
      violationsShown.key = violationKey;
      violationsShown.text = titles.length > 0 ? ` · ⚠ ${titles.join('; ')}` : '';
    }
    text += violationsShown.text;
    const skipping = model.skippingMs;
    if (skipping > 0) text += ` · skipping ${quietWords(skipping)} of quiet time`;
    setText(status, text);
    status.dataset.leader = s.leader === undefined ? 'none' : String(s.leader);
    root.dataset.playing = String(model.playing);
    api.update(model.playground);
  };
  model.onChange(render);

  pickSpeed();
  // Where the run opens: `at` (clamped to the range) or `from`.
  if (request.at === 'end') {
    goTo(toMs());
  } else {
    const at = request.at ?? range.fromMs;
    const clamped = Math.min(Math.max(at, range.fromMs), toMs());
    if (request.at !== null && clamped !== at) {
      problems.push(`URL parameter \`at\`: ${at} ms is outside ${range.fromMs}..${toMs()} ms (\`from\`..\`to\`); opening at ${clamped} ms`);
    }
    goTo(clamped);
  }
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (options.autoplay && !reduceMotion) startPlaying();
  showProblems(problems);
  render();
  open.href = fullHref();
  document.body.dataset.ready = 'true';
  api.ready();

  /**
   * Plays `dt` real ms within `budgetMs` (the player's task, see
   * player/player.js), stopping at `to` (or going back to `from` with
   * `loop`).
   * @param {number} dt
   * @param {number} budgetMs
   */
  const advance = (dt, budgetMs) => {
    const end = toMs();
    const now = model.nowMs;
    if (now < end - AT_END_MS) {
      // Never past `to`: at most the real time left until it.
      model.advance(Math.min(dt, (end - now) / model.speed), budgetMs);
      // Stopped by itself before `to` (nothing left to happen): the rest
      // of the range is quiet, so it counts as reaching `to`.
      if (model.nowMs < end - AT_END_MS && model.playing) return;
    }
    if (options.loop) {
      model.seek(range.fromMs);
      model.setPlaying(true);
    } else {
      model.setPlaying(false);
      goTo(end);
      model.stopReason = `the end of this part (${end} ms)`;
    }
  };
  // The page's player plays the run, as in the full page; paused, the
  // embed does nothing between frames (its range's end is known).
  player.add(
    playModel(
      model,
      (e) => {
        model.setPlaying(false);
        showProblems([`Something went wrong: ${messageOf(e)}`]);
      },
      { advance, busy: () => false },
    ),
  );
}
