// @ts-check
/**
 * The stage in embed chrome (`?embed=1`): the frame (`#embed-root`), the
 * one transport bar (stage/bar.js, in embed chrome) moving 1 to 4 runs through a
 * Transport (stage/transport.js), the host's postMessage API
 * (embed/api.js) on the same transport, and the start: where the runs
 * open, autoplay, the problems said, the page marked ready, the runs
 * handed to the page's player (player/player.js). The single embed
 * (embed/embed.js) and the compare embed (embed/compare-embed.js) are
 * entries that make the runs and their views and give them to this.
 * @module stage/embed-stage
 */

import { EmbedApi } from '../embed/api.js';
import { player } from '../player/player.js';
import { byTestId, h, showProblems } from '../shared/dom.js';
import { Bar, transportActions, transportState } from './bar.js';

/**
 * The embed's frame, put into the page.
 * @param {boolean} compare whether it shows a comparison
 * @returns {HTMLElement}
 */
export function embedRoot(compare) {
  const root = compare
    ? h('div', { id: 'embed-root', class: 'embed-root embed-compare', 'data-testid': 'embed', 'data-mode': 'compare' })
    : h('div', { id: 'embed-root', class: 'embed-root', 'data-testid': 'embed' });
  return root;
}

/**
 * An embed that shows only what went wrong (the comparison could not load,
 * its list is bad), in `root` if given; ready all the same.
 * @param {string[]} problems
 * @param {HTMLElement} [root]
 */
export function problemsOnly(problems, root) {
  if (root) {
    root.append(byTestId('error'));
    document.body.append(root);
  }
  showProblems(problems);
  document.body.dataset.ready = 'true';
}

/**
 * What an embed entry gives the stage.
 * @typedef {object} EmbedSpec
 * @property {typeof import('../pkg/election_player.js')} wasm
 * @property {import('./transport.js').Transport} transport its runs, in their range
 * @property {import('../embed/params.js').EmbedRequest} options the embed's parameters
 * @property {boolean} compare whether it shows a comparison
 * @property {import('./bar.js').Drawn} drawn runs an action and draws it
 * @property {Pick<import('../embed/api.js').EmbedCommands, 'load' | 'state' | 'describe'>} api
 *   what the host's API reads and loads
 */

export class EmbedStage {
  /**
   * Makes the bar and the API; `start` plays.
   * @param {EmbedSpec} spec
   */
  constructor(spec) {
    const { transport, drawn } = spec;
    /** @private */
    this.spec = spec;
    this.bar = new Bar({ chrome: 'embed', shows: spec.options.controls, compare: spec.compare });
    this.bar.wire(transportActions(transport, drawn));
    const clock = transport.clock;
    this.api = new EmbedApi(spec.wasm, spec.options.origins, {
      play: () => drawn(() => transport.play()),
      pause: () => drawn(() => clock.setPlaying(false)),
      step: () => drawn(() => transport.step()),
      seek: (ms) => drawn(() => transport.goTo(ms)),
      playing: () => clock.playing(),
      ...spec.api,
    });
  }

  /**
   * A fault into every run now (a click on a node); one the core refuses
   * is said.
   * @param {object} fault
   */
  inject(fault) {
    this.bar.inject(fault);
  }

  /**
   * Shows where the runs stand in the bar (the scrubber and the time in
   * words when `due`).
   * @param {boolean} due
   */
  renderBar(due) {
    this.bar.render(transportState(this.spec.transport), due);
  }

  /**
   * Marks the frame with the controls shown (its styles read them).
   * @param {HTMLElement} root
   */
  mark(root) {
    root.dataset.controls = [...this.spec.options.controls].join(',');
  }

  /**
   * Opens the runs where the address asks, says the problems, draws, and
   * hands the runs to the page's player.
   * @param {{at: number | 'end' | null, problems: string[], render: () => void,
   *   href: () => string, part: import('../player/player.js').Playable}} how
   *   `href`: the full playground's address for what is shown; `part`: the
   *   runs as the player plays them
   */
  start(how) {
    this.spec.transport.open(how.at, this.spec.options.autoplay, how.problems);
    showProblems(how.problems);
    how.render();
    this.bar.link(how.href);
    document.body.dataset.ready = 'true';
    this.api.ready();
    player.add(how.part);
  }
}
