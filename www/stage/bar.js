// @ts-check
/**
 * The stage's one transport bar, for the full page, compare mode and both
 * embeds, configured by a `BarSpec`:
 *
 * - `chrome: 'page'` adopts the markup index.html already has (the first
 *   paint shows the bar before any script runs): the single view's
 *   (`#play`, `#step`, `#next-change`, `#restart`, `#to-end`, `#speed`,
 *   `#skip-quiet`, `#present`, `#help-open`, `#timeline`) or, with
 *   `prefix: 'compare-'`, compare mode's (`#compare-play` …);
 * - `chrome: 'embed'` builds the compact bar of an embed: the controls
 *   `controls=` asks for in a fixed order (play, step, reset, the
 *   scrubber on its own between the buttons and the readouts, speed,
 *   faults), then the time, the status and the link that opens the same
 *   run (or comparison) in the full playground.
 *
 * `shows` names the controls (`BarControl`): play/pause, step, next
 * change, restart (the embed's reset: back to the start of its range),
 * to end, speed, skip quiet, present, keys (the help overlay and the
 * shortcuts, player/shortcuts.js), the scrubber and faults. The bar
 * forwards presses to `BarActions` (a `Model`, a comparison's runs, or a
 * `Transport`, stage/transport.js, through `transportActions`) and
 * `render` shows where they stand; the `loop`, `from=` and `to=` rules of
 * an embed are the Transport's.
 * @module stage/bar
 */

import { MAX_SPEED, MIN_SPEED, formatSpeed } from '../player/speed.js';
import { storedSkipQuiet, storeSkipQuiet } from '../player/quiet.js';
import { keyBelongsTo, Shortcuts } from '../player/shortcuts.js';
import { el, h, messageOf, setAttr, setText, showProblems } from '../shared/dom.js';
import { msText } from './compare-table.js';

/**
 * A control of the bar.
 * @typedef {'play' | 'step' | 'next' | 'restart' | 'end' | 'speed' | 'quiet' | 'present' | 'keys'
 *   | 'scrubber' | 'faults'} BarControl
 */

/**
 * How a bar is made.
 * @typedef {object} BarSpec
 * @property {'page' | 'embed'} chrome adopt index.html's bar, or build an embed's
 * @property {string} [prefix] page chrome: the ids' prefix (`''`, or
 *   `'compare-'` for compare mode's bar)
 * @property {Iterable<string>} shows the controls shown (`BarControl`s;
 *   an embed's `controls=` names: `reset` is its restart)
 * @property {boolean} [compare] whether it moves a comparison (its words)
 */

/**
 * What the bar's controls do.
 * @typedef {object} BarActions
 * @property {() => void} toggle play or pause
 * @property {() => void} step
 * @property {() => void} restart to the start (of the range)
 * @property {(ms: number) => void} seek the scrubber moved
 * @property {(speed: number) => void} setSpeed already within the limits
 * @property {() => void} [next] to the next change
 * @property {() => void} [toEnd]
 * @property {(on: boolean) => void} [setSkipQuiet]
 * @property {(fault: object) => void} [inject] a fault into every run now
 */

/**
 * Where the runs stand, for `render`.
 * @typedef {object} BarState
 * @property {boolean} playing
 * @property {number} speed
 * @property {number} nowMs
 * @property {number} maxMs the scrubber's end
 * @property {number} [minMs] the scrubber's start (an embed's range)
 * @property {boolean} [skipQuiet] the run's skipping, when it can change elsewhere
 */

/**
 * Runs `action` and draws what it did (a comparison has no change
 * listener; a single run draws on every change by itself).
 * @typedef {<T>(action: () => T) => T} Drawn
 */

/**
 * The parts of a bar besides its controls.
 * @typedef {object} Parts
 * @property {HTMLElement} element
 * @property {HTMLInputElement} speed
 * @property {HTMLElement} speedOut
 * @property {HTMLElement} time
 * @property {HTMLElement} status
 * @property {HTMLAnchorElement | null} open
 * @property {(ms: number) => string} timeText
 */

/** What the embed's bar says, for one run and for a comparison. */
const WORDS = Object.freeze({
  single: {
    bar: 'Playback',
    step: 'To the next event',
    faults: 'Faults',
    crashTitle: 'Crash the node leading now',
    crash: 'Crash leader',
    open: 'Open this run, at this moment, in the full playground (new tab)',
  },
  compare: {
    bar: 'Playback of every view',
    step: 'To the next event in any view',
    faults: 'Faults for every view',
    crashTitle: "Crash each run's own leader",
    crash: 'Crash each leader',
    open: 'Open this comparison, at this moment, in the full playground (new tab)',
  },
});

/** The embed's controls, in the order they stand. */
const EMBED_ORDER = /** @type {const} */ (['play', 'step', 'reset', 'scrubber', 'speed', 'faults']);

/** The page's ids of the controls (after the prefix). */
const PAGE_IDS = Object.freeze({
  play: 'play',
  step: 'step',
  next: 'next-change',
  restart: 'restart',
  end: 'to-end',
  speed: 'speed',
  quiet: 'skip-quiet',
  present: 'present',
  keys: 'help-open',
  scrubber: 'timeline',
});

export class Bar {
  /** @param {BarSpec} spec */
  constructor(spec) {
    /** @private */
    this.spec = spec;
    /** @private */
    this.shows = new Set(spec.shows);
    /** The controls shown, by name. @type {Partial<Record<BarControl, HTMLElement>>} */
    this.controls = {};
    /** Puts a fault into every run (once wired). @type {(fault: object) => void} */
    this.inject = () => {};
    const parts = spec.chrome === 'page' ? this.adopt(spec.prefix ?? '') : this.build(Boolean(spec.compare));
    /** The bar (the page's `.transport` row, or the embed's). */
    this.element = parts.element;
    /** @private */
    this.speed = parts.speed;
    /** @private */
    this.speedOut = parts.speedOut;
    /** The time in words. */
    this.time = parts.time;
    /** The status line (the page's stop reason, the embed's status). */
    this.status = parts.status;
    /** The embed's link into the full playground. @private */
    this.open = parts.open;
    /** @private */
    this.timeText = parts.timeText;
    this.play = /** @type {HTMLButtonElement} */ (this.controls.play);
    this.scrubber = /** @type {HTMLInputElement} */ (this.controls.scrubber);
    this.speed.min = String(Math.log10(MIN_SPEED));
    this.speed.max = String(Math.log10(MAX_SPEED));
    this.skipQuiet = /** @type {HTMLInputElement | undefined} */ (this.controls.quiet);
    if (this.skipQuiet) this.skipQuiet.checked = storedSkipQuiet();
  }

  /**
   * Binds to index.html's bar.
   * @private
   * @param {string} prefix
   * @returns {Parts}
   */
  adopt(prefix) {
    for (const name of /** @type {(keyof typeof PAGE_IDS)[]} */ (Object.keys(PAGE_IDS))) {
      if (this.shows.has(name)) this.controls[name] = el(prefix + PAGE_IDS[name]);
    }
    return {
      element: /** @type {HTMLElement} */ (el(`${prefix}play`).closest('.transport')),
      speed: /** @type {HTMLInputElement} */ (el(`${prefix}speed`)),
      speedOut: el(`${prefix}speed-out`),
      time: el(prefix === '' ? 'timeline-out' : `${prefix}time`),
      status: el(prefix === '' ? 'stop-reason' : `${prefix}stop`),
      open: null,
      timeText: prefix === '' ? (ms) => `${ms.toFixed(3)} ms` : msText,
    };
  }

  /**
   * Builds an embed's bar.
   * @private
   * @param {boolean} compare
   * @returns {Parts}
   */
  build(compare) {
    const words = compare ? WORDS.compare : WORDS.single;
    const element = h('div', { class: 'embed-bar', role: 'group', 'aria-label': words.bar });
    const play = h('button', { type: 'button', 'data-testid': 'embed-play', 'aria-pressed': 'false' }, 'Play');
    const step = h('button', { type: 'button', 'data-testid': 'embed-step', title: words.step }, 'Step');
    const reset = h('button', { type: 'button', 'data-testid': 'embed-reset', title: 'Back to the start of this part' }, 'Reset');
    const scrubber = h('input', { type: 'range', step: 'any', 'data-testid': 'embed-scrubber', 'aria-label': 'Simulated time, ms' });
    const speedBox = h('label', { class: 'embed-speed' }, 'Speed ');
    const speed = /** @type {HTMLInputElement} */ (
      h('input', { type: 'range', step: '0.05', 'data-testid': 'embed-speed', 'aria-label': 'Speed' })
    );
    const speedOut = h('output', { class: 'mono' });
    speedBox.append(speed, speedOut);
    const faultBox = h('span', { class: 'embed-faults', role: 'group', 'aria-label': words.faults, 'data-testid': 'embed-faults' });
    this.crashLeader = h('button', { type: 'button', title: words.crashTitle }, words.crash);
    this.heal = h('button', { type: 'button', title: 'Join every partition and restore cut links' }, 'Heal');
    faultBox.append(this.crashLeader, this.heal);
    const time = h('span', { class: 'embed-time mono', 'data-testid': 'embed-time' });
    const status = h('span', { class: 'embed-status', 'data-testid': 'embed-status', role: 'status' });
    const open = /** @type {HTMLAnchorElement} */ (
      h('a', { class: 'embed-open', 'data-testid': 'embed-open', target: '_blank', rel: 'noopener', title: words.open }, 'Open in playground ↗')
    );
    /** @type {Record<(typeof EMBED_ORDER)[number], HTMLElement>} */
    const all = { play, step, reset, scrubber, speed: speedBox, faults: faultBox };
    Object.assign(this.controls, { play, step, restart: reset, scrubber, speed: speedBox, faults: faultBox });
    const buttons = h('span', { class: 'embed-controls' });
    for (const name of EMBED_ORDER) {
      if (!this.shows.has(name)) continue;
      if (name === 'scrubber') element.append(buttons, all[name]);
      else buttons.append(all[name]);
    }
    if (!this.shows.has('scrubber')) element.append(buttons);
    element.append(time, status, open);
    /** @type {(ms: number) => string} */
    const timeText = compare ? (ms) => `${msText(ms)} ms` : (ms) => `${ms.toFixed(1)} ms`;
    return { element, speed, speedOut, time, status, open, timeText };
  }

  /**
   * Makes the controls do `actions`.
   * @param {BarActions} actions
   */
  wire(actions) {
    const on = (/** @type {BarControl} */ name, /** @type {() => void} */ act) =>
      this.controls[name]?.addEventListener('click', act);
    on('play', () => actions.toggle());
    on('step', () => actions.step());
    on('restart', () => actions.restart());
    if (actions.next) on('next', actions.next);
    if (actions.toEnd) on('end', actions.toEnd);
    this.speed.addEventListener('input', () =>
      actions.setSpeed(Math.min(MAX_SPEED, Math.max(MIN_SPEED, 10 ** Number(this.speed.value)))),
    );
    this.scrubber.addEventListener('input', () => actions.seek(Number(this.scrubber.value)));
    const quiet = this.skipQuiet;
    if (quiet && actions.setSkipQuiet) {
      const setSkipQuiet = actions.setSkipQuiet;
      quiet.addEventListener('change', () => {
        storeSkipQuiet(quiet.checked);
        setSkipQuiet(quiet.checked);
      });
      setSkipQuiet(quiet.checked);
    }
    if (actions.inject) {
      this.inject = actions.inject;
      this.crashLeader?.addEventListener('click', () => this.inject({ crash: 'leader' }));
      this.heal?.addEventListener('click', () => this.inject({ heal: true }));
    }
  }

  /**
   * The page's keyboard shortcuts and their help overlay (`keys`).
   * @param {Record<import('../player/shortcuts.js').Action, () => (boolean | void)>} actions
   * @returns {Shortcuts}
   */
  keys(actions) {
    return new Shortcuts(
      actions,
      /** @type {HTMLDialogElement} */ (el('help')),
      el('help-keys'),
      /** @type {HTMLButtonElement} */ (this.controls.keys),
    );
  }

  /**
   * Compare mode's keys, ahead of the page's (capture: the single view's
   * shortcuts must not act on its hidden run): Space plays or pauses, s
   * or → steps; the single view's time-travel keys do nothing. Not while
   * typing (player/shortcuts.js keyBelongsTo: a clicked button or node
   * leaves Space to playback).
   * @param {() => boolean} active whether the bar's runs are on screen
   * @param {Pick<BarActions, 'toggle' | 'step'>} actions
   */
  captureKeys(active, actions) {
    window.addEventListener(
      'keydown',
      (e) => {
        if (!active() || e.ctrlKey || e.metaKey || e.altKey) return;
        if (keyBelongsTo(e.target, e.key)) return;
        if (e.key === ' ') {
          e.preventDefault();
          e.stopPropagation();
          actions.toggle();
        } else if (e.key === 's' || e.key === 'S' || e.key === 'ArrowRight') {
          e.preventDefault();
          e.stopPropagation();
          actions.step();
        } else if (['n', 'N', '[', ']', 'ArrowLeft', '+', '=', '-', 'Home', 'End'].includes(e.key)) {
          e.stopPropagation();
        }
      },
      true,
    );
  }

  /**
   * Points the embed's open link at `href()`, made when it is about to be
   * followed (the share link is compressed: not worth doing every frame).
   * @param {() => string} href
   */
  link(href) {
    const open = this.open;
    if (!open) return;
    for (const type of ['pointerdown', 'focus', 'click', 'mouseenter']) {
      open.addEventListener(type, () => {
        open.href = href();
      });
    }
    open.href = href();
  }

  /**
   * Shows where the runs stand: play, speed and skipping every frame
   * (written only when changed: this runs every frame while playing, and
   * every write makes the browser recompute styles); the scrubber and the
   * time in words when `due` (the readouts' pace while playing). An
   * embed's time is in `data-ms` every frame too (an attribute no style
   * reads: a host's script and the tests read it).
   * @param {BarState} state
   * @param {boolean} due
   */
  render(state, due) {
    const { playing, speed, nowMs } = state;
    setText(this.play, playing ? 'Pause' : 'Play');
    setAttr(this.play, 'aria-pressed', String(playing));
    setText(this.speedOut, formatSpeed(speed));
    // The speed also changes by keyboard shortcut.
    const speedValue = String(Math.log10(speed));
    if (document.activeElement !== this.speed && this.speed.value !== speedValue) this.speed.value = speedValue;
    const single = this.spec.chrome === 'page' && !this.spec.prefix;
    if (single) setAttr(this.speed, 'aria-valuetext', `${formatSpeed(speed)} real time`);
    if (this.skipQuiet && state.skipQuiet !== undefined && this.skipQuiet.checked !== state.skipQuiet) {
      this.skipQuiet.checked = state.skipQuiet;
    }
    const embed = this.spec.chrome === 'embed';
    if (embed) this.time.dataset.ms = String(nowMs);
    if (!due) return;
    if (state.minMs !== undefined) setAttr(this.scrubber, 'min', String(state.minMs));
    setAttr(this.scrubber, 'max', String(state.maxMs));
    if (document.activeElement !== this.scrubber) this.scrubber.value = String(nowMs);
    if (embed) setAttr(this.scrubber, 'aria-valuetext', `${nowMs} ms, from ${state.minMs} to ${state.maxMs} ms`);
    setText(this.time, this.timeText(nowMs));
  }
}

/**
 * One run of the page (a Model) as the bar's actions.
 * @param {import('../player/model.js').Model} model
 * @returns {BarActions}
 */
export function modelActions(model) {
  return {
    toggle: () => model.setPlaying(!model.playing),
    step: () => model.step(),
    next: () => model.nextInteresting(),
    restart: () => model.seek(0),
    toEnd: () => model.runToEndInPieces(),
    seek: (ms) => model.seekInPieces(ms),
    setSpeed: (speed) => model.setSpeed(speed),
    setSkipQuiet: (on) => model.setSkipQuiet(on),
  };
}

/**
 * A Transport's runs as the bar's actions: play stops at the range's end,
 * restart goes to its start, a fault the core refuses is said.
 * @param {import('./transport.js').Transport} transport
 * @param {Drawn} drawn
 * @returns {BarActions}
 */
export function transportActions(transport, drawn) {
  const clock = transport.clock;
  return {
    toggle: () => drawn(() => transport.toggle()),
    step: () => drawn(() => transport.step()),
    restart: () => drawn(() => transport.goTo(transport.range.fromMs)),
    seek: (ms) => drawn(() => transport.goTo(ms)),
    setSpeed: (speed) => drawn(() => clock.setSpeed(speed)),
    inject: (fault) =>
      drawn(() => {
        try {
          clock.inject(fault);
          showProblems([]);
        } catch (e) {
          showProblems([messageOf(e)]);
        }
      }),
  };
}

/**
 * Where a Transport's runs stand, for `render`.
 * @param {import('./transport.js').Transport} transport
 * @returns {BarState}
 */
export function transportState(transport) {
  const clock = transport.clock;
  return {
    playing: clock.playing(),
    speed: clock.speed(),
    nowMs: clock.nowMs(),
    minMs: transport.range.fromMs,
    maxMs: transport.toMs(),
  };
}
