// @ts-check
/**
 * Export what the page shows now, for a course note that shows a figure
 * and the numbers behind it:
 *
 * - the topology canvas as a PNG (`canvas.toBlob`, at its full pixel size);
 * - the space-time diagram as an SVG (spacetime-svg.js, from the scene
 *   the canvas is drawn from);
 * - the trace as JSON: what `election run --until-ms <now> --json --trace`
 *   prints for this scenario (summary, `trace_hash`, every event);
 * - the run summary as JSON (`election run --until-ms <now> --json`) and
 *   as CSV (`election sweep --until-ms <now> --seeds <seed> --csv`).
 *
 * The core writes the JSON and CSV text; this module only saves files.
 * Before exporting, the events of the current instant are finished (as a
 * share link does), so the files describe a moment the CLI can stop at.
 * The JSON and CSV come from the wasm compare module (shared/panel-wasm.js,
 * loaded on the first such export), which replays the scenario to that
 * moment: the same run, as `--until-ms` replays it. The SVG writer loads
 * on the first SVG export.
 * @module export
 */

import { fileStem, saveBlob, saveText } from '../shared/download.js';
import { exportsFor, isScripted } from '../shared/panel-wasm.js';

/**
 * @typedef {object} ExportElements
 * @property {HTMLButtonElement} png
 * @property {HTMLButtonElement} svg
 * @property {HTMLButtonElement} trace
 * @property {HTMLButtonElement} summary
 * @property {HTMLButtonElement} csv
 * @property {HTMLElement} status says what was saved and which command reproduces it
 */

/**
 * What the exports need from the page.
 * @typedef {object} ExportSources
 * @property {import('../player/model.js').Model} model
 * @property {() => HTMLCanvasElement} cluster the topology picture as
 *   drawn now (its layers on one canvas)
 * @property {() => import('../spacetime/scene.js').Scene | null} scene the
 *   space-time diagram's scene as drawn now
 * @property {(message: string) => void} report show a problem
 */

export class Exports {
  /**
   * @param {ExportElements} els
   * @param {ExportSources} sources
   */
  constructor(els, sources) {
    this.els = els;
    this.sources = sources;
    els.png.addEventListener('click', () => this.png());
    els.svg.addEventListener('click', () => this.svg());
    els.trace.addEventListener('click', () =>
      this.text('trace.json', 'application/json', (pg) => pg.trace_json(), '--json --trace'),
    );
    els.summary.addEventListener('click', () =>
      this.text('summary.json', 'application/json', (pg) => pg.summary_json(), '--json'),
    );
    els.csv.addEventListener('click', () => this.text('summary.csv', 'text/csv', (pg) => pg.summary_csv(), null));
  }

  /**
   * Pauses and finishes the events of the current instant, so what is
   * saved is a moment `--until-ms` reproduces.
   * @private
   * @returns {import('../player/model.js').Playground}
   */
  settle() {
    const model = this.sources.model;
    model.setPlaying(false);
    const pg = model.playground;
    pg.run_until_ms(pg.now_ms());
    // Redraws every view at that moment.
    model.seek(pg.now_ms());
    return pg;
  }

  /** @private */
  png() {
    const pg = this.settle();
    const name = `${fileStem(pg)}.topology.png`;
    const picture = this.sources.cluster();
    picture.toBlob((blob) => {
      if (!blob) {
        this.sources.report('Export: this browser could not make a PNG of the cluster canvas.');
        return;
      }
      saveBlob(blob, name);
      this.say(`Saved ${name} (${picture.width}×${picture.height} px).`);
    }, 'image/png');
  }

  /** @private */
  async svg() {
    const pg = this.settle();
    const scene = this.sources.scene();
    if (!scene) {
      this.sources.report('Export: the space-time diagram has not been drawn yet (is it on screen?).');
      return;
    }
    const name = `${fileStem(pg)}.spacetime.svg`;
    const title = `${pg.algorithm()}, ${pg.node_count()} nodes, seed ${pg.seed()}, at ${pg.now_ms()} ms`;
    const nodes = pg.node_count();
    let text;
    try {
      text = (await import('../spacetime/svg.js')).sceneSvgText(scene, nodes, title);
    } catch (e) {
      this.sources.report(`Export: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    saveText(text, name, 'image/svg+xml');
    this.say(`Saved ${name}.`);
  }

  /**
   * Saves text the core wrote.
   * @private
   * @param {string} suffix
   * @param {string} type
   * @param {(pg: import('../pkg/election_compare.js').Playground) => string} make
   *   the text, from the compare module's copy of the run at this moment
   * @param {string | null} runFlags flags of `election run` that print the
   *   same, or null for the sweep CSV
   */
  async text(suffix, type, make, runFlags) {
    const pg = this.settle();
    const name = `${fileStem(pg)}.${suffix}`;
    const scenario = pg.scenario_json();
    const at = pg.now_ms();
    const seed = pg.seed();
    let text;
    try {
      const tools = await exportsFor(isScripted(scenario));
      const copy = new tools.Playground(scenario);
      try {
        copy.run_until_ms(at);
        text = make(copy);
      } finally {
        copy.free();
      }
    } catch (e) {
      this.sources.report(`Export: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    saveText(text, name, type);
    const until = `--until-ms ${at}`;
    const command =
      runFlags === null
        ? `election sweep --scenario SCENARIO.json ${until} --seeds ${seed} --csv`
        : `election run --scenario SCENARIO.json ${until} ${runFlags}`;
    this.say(`Saved ${name}; the same numbers: ${command} (SCENARIO.json from Export scenario).`);
  }

  /**
   * @private
   * @param {string} message
   */
  say(message) {
    this.els.status.textContent = message;
  }
}
