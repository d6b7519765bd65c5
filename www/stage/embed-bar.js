// @ts-check
/**
 * The embed's transport bar, one for a single run and a comparison: the
 * controls `controls=` asks for in a fixed order (play, step, reset, the
 * scrubber on its own between the buttons and the readouts, speed,
 * faults), then the time, the status and the link that opens the same
 * run (or comparison) in the full playground. It moves the runs through
 * a Transport (stage/transport.js) and shows where they stand.
 * @module stage/embed-bar
 */

import { formatSpeed } from '../player/controls.js';
import { MAX_SPEED, MIN_SPEED } from '../player/model.js';
import { msText } from './compare-table.js';
import { h, messageOf, setAttr, setText, showProblems } from '../shared/dom.js';

/** What the bar says, for one run and for a comparison. */
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

/** The bar's controls, in the order they stand. */
const ORDER = /** @type {const} */ (['play', 'step', 'reset', 'scrubber', 'speed', 'faults']);

/**
 * Runs `action` and draws what it did (a comparison has no change
 * listener; a single run draws on every change by itself).
 * @typedef {<T>(action: () => T) => T} Drawn
 */

export class EmbedBar {
  /**
   * @param {Set<string>} shows the `controls=` names
   * @param {boolean} compare whether the bar moves a comparison
   */
  constructor(shows, compare) {
    const words = compare ? WORDS.compare : WORDS.single;
    /** @private */
    this.compare = compare;
    this.element = h('div', { class: 'embed-bar', role: 'group', 'aria-label': words.bar });
    this.play = h('button', { type: 'button', 'data-testid': 'embed-play', 'aria-pressed': 'false' }, 'Play');
    this.stepButton = h('button', { type: 'button', 'data-testid': 'embed-step', title: words.step }, 'Step');
    this.reset = h('button', { type: 'button', 'data-testid': 'embed-reset', title: 'Back to the start of this part' }, 'Reset');
    this.scrubber = /** @type {HTMLInputElement} */ (
      h('input', { type: 'range', step: 'any', 'data-testid': 'embed-scrubber', 'aria-label': 'Simulated time, ms' })
    );
    const speedBox = h('label', { class: 'embed-speed' }, 'Speed ');
    this.speed = /** @type {HTMLInputElement} */ (h('input', { type: 'range', step: '0.05', 'data-testid': 'embed-speed', 'aria-label': 'Speed' }));
    this.speed.min = String(Math.log10(MIN_SPEED));
    this.speed.max = String(Math.log10(MAX_SPEED));
    this.speedOut = h('output', { class: 'mono' });
    speedBox.append(this.speed, this.speedOut);
    const faultBox = h('span', { class: 'embed-faults', role: 'group', 'aria-label': words.faults, 'data-testid': 'embed-faults' });
    this.crashLeader = h('button', { type: 'button', title: words.crashTitle }, words.crash);
    this.heal = h('button', { type: 'button', title: 'Join every partition and restore cut links' }, 'Heal');
    faultBox.append(this.crashLeader, this.heal);
    this.time = h('span', { class: 'embed-time mono', 'data-testid': 'embed-time' });
    this.status = h('span', { class: 'embed-status', 'data-testid': 'embed-status', role: 'status' });
    /** Puts a fault into every run (once wired). @type {(fault: object) => void} */
    this.inject = () => {};
    this.open = /** @type {HTMLAnchorElement} */ (
      h('a', { class: 'embed-open', 'data-testid': 'embed-open', target: '_blank', rel: 'noopener', title: words.open }, 'Open in playground ↗')
    );
    /** @type {Record<(typeof ORDER)[number], HTMLElement>} */
    const controls = { play: this.play, step: this.stepButton, reset: this.reset, scrubber: this.scrubber, speed: speedBox, faults: faultBox };
    const buttons = h('span', { class: 'embed-controls' });
    for (const name of ORDER) {
      if (!shows.has(name)) continue;
      if (name === 'scrubber') this.element.append(buttons, controls[name]);
      else buttons.append(controls[name]);
    }
    if (!shows.has('scrubber')) this.element.append(buttons);
    this.element.append(this.time, this.status, this.open);
  }

  /**
   * Makes the controls move the runs.
   * @param {import('./transport.js').Transport} transport
   * @param {Drawn} drawn
   */
  wire(transport, drawn) {
    const clock = transport.clock;
    this.play.addEventListener('click', () => drawn(() => transport.toggle()));
    this.stepButton.addEventListener('click', () => drawn(() => transport.step()));
    this.reset.addEventListener('click', () => drawn(() => transport.goTo(transport.range.fromMs)));
    this.scrubber.addEventListener('input', () => drawn(() => transport.goTo(Number(this.scrubber.value))));
    this.speed.addEventListener('input', () =>
      drawn(() => clock.setSpeed(Math.min(MAX_SPEED, Math.max(MIN_SPEED, 10 ** Number(this.speed.value))))),
    );
    /** A fault into every run now; one the core refuses is said. @param {object} fault */
    this.inject = (fault) =>
      drawn(() => {
        try {
          clock.inject(fault);
          showProblems([]);
        } catch (e) {
          showProblems([messageOf(e)]);
        }
      });
    this.crashLeader.addEventListener('click', () => this.inject({ crash: 'leader' }));
    this.heal.addEventListener('click', () => this.inject({ heal: true }));
  }

  /**
   * Points the open link at `href()`, made when it is about to be
   * followed (the share link is compressed: not worth doing every frame).
   * @param {() => string} href
   */
  link(href) {
    for (const type of ['pointerdown', 'focus', 'click', 'mouseenter']) {
      this.open.addEventListener(type, () => {
        this.open.href = href();
      });
    }
    this.open.href = href();
  }

  /**
   * Shows where the runs stand: play, speed and the time in `data-ms`
   * (an attribute no style reads: a host's script and the tests read
   * it) every frame; the scrubber and the time in words when `due` (the
   * readouts' pace while playing).
   * @param {import('./transport.js').Transport} transport
   * @param {boolean} due
   */
  render(transport, due) {
    const clock = transport.clock;
    const playing = clock.playing();
    const now = clock.nowMs();
    setText(this.play, playing ? 'Pause' : 'Play');
    setAttr(this.play, 'aria-pressed', String(playing));
    if (document.activeElement !== this.speed) this.speed.value = String(Math.log10(clock.speed()));
    setText(this.speedOut, formatSpeed(clock.speed()));
    this.time.dataset.ms = String(now);
    if (!due) return;
    const { fromMs } = transport.range;
    const end = transport.toMs();
    setAttr(this.scrubber, 'min', String(fromMs));
    setAttr(this.scrubber, 'max', String(end));
    if (document.activeElement !== this.scrubber) this.scrubber.value = String(now);
    setAttr(this.scrubber, 'aria-valuetext', `${now} ms, from ${fromMs} to ${end} ms`);
    setText(this.time, `${this.compare ? msText(now) : now.toFixed(1)} ms`);
  }
}
