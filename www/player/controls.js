// @ts-check
/**
 * The controls around the page's transport bar (stage/bar.js, which owns
 * the playback buttons, the speed, quiet-time skipping and the scrubber):
 * the readouts beside it (the lag, the run's end, why it stopped, the
 * quiet-time note), the prompt of a page that has not played yet, the
 * scenario settings form (algorithm, nodes, seed, ring order, who starts)
 * and Share. The keyboard shortcuts are in shortcuts.js.
 *
 * ## The opening prompt
 *
 * The opening prompt (`#start-prompt`, player/controls.js) sits in the
 * middle of the circle; when an algorithm's extra nodes sit there,
 * `ClusterView` marks the canvas box `centre-taken` and the prompt moves to
 * the top left corner (styles/player.css), or, on a screen narrower than
 * 40rem, where the circle fills its box, under the drawing (outside
 * presentation mode).
 * @module controls
 */

import { quietWords } from './quiet.js';
import { writeShareAddress } from '../shared/url.js';
import { el, setText } from '../shared/dom.js';
import { formatSpeed } from './speed.js';


/**
 * What the controls need from the page.
 * @typedef {object} ControlHooks
 * @property {(query: string) => void} applySettings rebuild with these settings
 * @property {(message: string) => void} report show a problem
 */

export class Controls {
  /**
   * @param {import('./model.js').Model} model
   * @param {{id: string, name: string, summary: string, layout: string}[]} algorithms
   * @param {(() => number)} freshSeed
   * @param {ControlHooks} hooks
   * @param {import('../stage/bar.js').Bar} bar the page's transport bar
   */
  constructor(model, algorithms, freshSeed, hooks, bar) {
    this.model = model;
    /** @private */
    this.bar = bar;
    this.hooks = hooks;
    this.algorithms = algorithms;
    this.speedLag = el('speed-lag');
    this.quietNote = el('quiet-note');
    this.prompt = el('start-prompt');
    /** Whether the run has played or moved since the page opened (the
     * prompt goes for good then). @private */
    this.started = false;
    /** Whether a question waits for the viewer's answer (Predict, a
     * lesson's step): the prompt to press Play then gives way to it.
     * Set by the page (`asking`). @private */
    this.askingNow = false;
    this.stopReason = bar.status;
    /** Cancel of a long piece of work (Model.longWork), beside the status. @private */
    this.cancel = document.createElement('button');
    this.cancel.type = 'button';
    this.cancel.textContent = 'Cancel';
    this.cancel.dataset.testid = 'cancel-work';
    this.cancel.hidden = true;
    this.cancel.addEventListener('click', () => this.model.cancelWork());
    this.stopReason.after(this.cancel);
    this.endMs = el('end-ms');
    this.form = /** @type {HTMLFormElement} */ (el('settings'));
    this.algorithm = /** @type {HTMLSelectElement} */ (el('algorithm'));
    this.algorithmSummary = el('algorithm-summary');
    this.nodes = /** @type {HTMLInputElement} */ (el('nodes'));
    this.seed = /** @type {HTMLInputElement} */ (el('seed'));
    this.newSeed = /** @type {HTMLButtonElement} */ (el('new-seed'));
    this.ring = /** @type {HTMLSelectElement} */ (el('ring'));
    this.start = /** @type {HTMLSelectElement} */ (el('start'));
    this.share = /** @type {HTMLButtonElement} */ (el('share'));
    this.shareStatus = el('share-status');

    for (const a of algorithms) {
      const option = document.createElement('option');
      option.value = a.id;
      option.textContent = a.name;
      this.algorithm.append(option);
    }

    this.form.addEventListener('submit', (e) => e.preventDefault());
    this.form.addEventListener('change', (e) => {
      if (e.target !== this.seed || /^\d+$/.test(this.seed.value.trim())) this.submit();
      else hooks.report(`seed: must be a whole number, got ${JSON.stringify(this.seed.value)}`);
    });
    this.newSeed.addEventListener('click', () => {
      this.seed.value = String(freshSeed());
      this.submit();
    });
    this.share.addEventListener('click', () => this.shareLink());
  }

  /** Rebuilds the run with the form's settings. @private */
  submit() {
    const params = new URLSearchParams({
      algorithm: this.algorithm.value,
      nodes: this.nodes.value.trim(),
      seed: this.seed.value.trim(),
      ring: this.ring.value,
      start: this.start.value,
    });
    this.hooks.applySettings(params.toString());
  }

  /**
   * Shows the settings of the current scenario in the form.
   * @param {import('./model.js').Playground} pg
   */
  fill(pg) {
    const scenario = JSON.parse(pg.scenario_json());
    // A script (the lab's, or from a link) is an algorithm of its own.
    const script = this.algorithm.querySelector('option[value="script"]');
    if (scenario.algorithm === 'script' && !script) {
      this.algorithm.append(new Option('Script (from the lab)', 'script'));
    }
    this.algorithm.value = scenario.algorithm;
    const info = this.algorithms.find((a) => a.id === scenario.algorithm);
    this.algorithmSummary.textContent = info
      ? info.summary
      : scenario.algorithm === 'script'
        ? 'Your own algorithm, written as a script in the lab (Lab, at the top); it is in this page\'s link.'
        : '';
    this.nodes.value = String(scenario.nodes);
    this.seed.value = pg.seed();
    this.ring.value = scenario.ring;
    const n = scenario.nodes;
    const start = Array.isArray(scenario.start) ? scenario.start.join(',') : String(scenario.start);
    /** @type {[string, string][]} */
    const options = [
      ['all', 'every node'],
      ['none', 'nobody (wait for a timeout)'],
      ['0', 'n0 only (lowest id)'],
    ];
    if (n > 1) options.push([String(n - 1), `n${n - 1} only (highest id)`]);
    if (!options.some(([value]) => value === start)) {
      options.push([start, start === '' ? 'nobody (empty list)' : `nodes ${start}`]);
    }
    this.start.replaceChildren(
      ...options.map(([value, text]) => {
        const option = document.createElement('option');
        option.value = value;
        option.textContent = text;
        return option;
      }),
    );
    this.start.value = start;
    this.shareStatus.textContent = '';
  }

  /**
   * Whether a question waits for the viewer (see `askingNow`); the next
   * `render` shows it.
   * @param {boolean} on
   */
  asking(on) {
    this.askingNow = on;
  }

  /**
   * Brings the bar (stage/bar.js) and the readouts beside it up to date
   * with the model.
   * @param {boolean} [readouts] whether the numbers that change every
   *   frame while playing (time, lag, scrubber) are due (stage/page.js writes
   *   them at most every 100 ms then); the buttons are always written
   */
  render(readouts = true) {
    const m = this.model;
    const pg = m.playground;
    const now = pg.now_ms();
    // The bar: play, speed and skipping always; the scrubber's scale is
    // up to the end (the interesting part), past it the scale follows now.
    const reach = () => Math.max((m.endMs() ?? now) * 1.25, now, pg.reached_ms(), 1);
    this.bar.render({ playing: m.playing, speed: m.speed, nowMs: now, skipQuiet: m.skipQuiet, maxMs: readouts ? reach() : 0 }, readouts);
    const skipping = m.skippingMs;
    const forward = m.forwardingTo;
    setText(
      this.quietNote,
      skipping > 0
        ? `Skipping ${quietWords(skipping)} of quiet time…`
        : forward
          ? `Fast-forwarding to ${forward.ms} ms, the next step…`
          : '',
    );
    // The first screen says where to start, until the run first moves.
    if (!this.started && (m.playing || now > 0)) this.started = true;
    const hide = this.started || this.askingNow;
    if (this.prompt.hidden !== hide) this.prompt.hidden = hide;
    if (!readouts) return;
    // A burst of events can take more than a frame's budget to simulate;
    // the run then plays slower than asked, and says so.
    const lagging = m.playing && m.lag < 0.95;
    const lagText = lagging ? `running at ${formatSpeed(m.lag)} of the requested speed` : '';
    setText(this.speedLag, lagText);
    if (this.speedLag.hidden === lagging) this.speedLag.hidden = !lagging;
    // The end may still be being looked for (a pathological run's takes
    // a few frames, see Model.endMs); until then the scale follows now.
    const end = m.endMs();
    setText(this.endMs, end === null ? '…' : String(end));
    const opening = m.openingMs;
    const long = m.longWork;
    if (this.cancel.hidden !== (long === null)) this.cancel.hidden = long === null;
    setText(
      this.stopReason,
      long !== null
        ? long
        : opening !== null
          ? `Going to ${opening} ms${m.openingIsSeek ? '' : ', where the address opens the run'}…`
          : m.stopReason.startsWith('Stopped at ')
            ? `${m.stopReason}.`
            : m.stopReason
              ? `Paused: ${m.stopReason}.`
              : '',
    );
  }

  /** Puts the scenario with every fault made so far into the address and copies it. @private */
  async shareLink() {
    const pg = this.model.playground;
    this.model.setPlaying(false);
    // A link opens the run after every event at its time; after a single
    // step there may be more events at this instant, so finish it first and
    // the page shows exactly what the link will.
    pg.run_until_ms(pg.now_ms());
    const href = writeShareAddress(pg.share_fragment(), pg.now_ms());
    try {
      await navigator.clipboard.writeText(href);
      this.shareStatus.textContent = 'Link copied. It opens this run at this moment.';
    } catch {
      this.shareStatus.textContent = 'The link is in the address bar (copying was not allowed).';
    }
  }
}
