// @ts-check
/**
 * Scenario files on the page: "Export scenario" downloads the current
 * scenario (every fault made by clicking included) as the same JSON that
 * `election run --scenario FILE` reads; "Import scenario" (a file input,
 * or a file dropped anywhere on the page) loads one. The core parses and
 * validates the text exactly as the CLI does; a bad file gets its message
 * in plain words under the Import control, with the field's path, and the
 * current run stays as it was.
 * @module scenario-file
 */

import { fileStem, saveText } from '../shared/download.js';
import { messageOf } from '../shared/dom.js';
import { clearFieldErrors, coreError, plainSentence, showAtField } from './field-errors.js';

/** The core's limit on scenario text (`MAX_SCENARIO_BYTES`), bytes. */
const MAX_SCENARIO_BYTES = 64 * 1024;

/**
 * Most bytes read from a chosen file: one over the core's limit (a larger
 * file is refused by its size before any of it is read).
 */
const READ_LIMIT = MAX_SCENARIO_BYTES + 1;

/**
 * A size in bytes as people read it: `812 bytes`, `64 KiB`, `50.0 MB`.
 * @param {number} bytes
 * @returns {string}
 */
function sizeText(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * What the scenario file controls need from the page.
 * @typedef {object} ScenarioFileHooks
 * @property {() => import('../player/model.js').Playground} current the run shown
 * @property {(text: string) => import('../player/model.js').Playground | Promise<import('../player/model.js').Playground>} parse a
 *   playground for scenario JSON text (a promise while the wasm module that
 *   runs it loads); throws or rejects with an `Error` naming the field
 * @property {(pg: import('../player/model.js').Playground) => void} load show this
 *   run from its start
 * @property {(message: string) => void} report show a problem
 * @property {(message: string) => void} done say what happened
 */

export class ScenarioFile {
  /**
   * @param {{exportButton: HTMLButtonElement, input: HTMLInputElement, dropZone: HTMLElement}} els
   * @param {ScenarioFileHooks} hooks
   */
  constructor(els, hooks) {
    this.hooks = hooks;
    /** The Import control, where a bad file's problem is shown. @private */
    this.input = els.input;
    els.exportButton.addEventListener('click', () => this.save());
    els.input.addEventListener('change', () => {
      const file = els.input.files?.[0];
      if (file) void this.open(file);
      // Choosing the same file again must load it again.
      els.input.value = '';
    });
    els.dropZone.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    });
    els.dropZone.addEventListener('drop', (e) => {
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      e.preventDefault();
      void this.open(file);
    });
  }

  /** Downloads the current scenario as a .json file. */
  save() {
    const pg = this.hooks.current();
    const name = `${fileStem(pg, false)}.scenario.json`;
    let text = pg.scenario_json();
    // Hundreds of faults indented may pass the 64 KiB a scenario file may
    // have; the same JSON without indentation is far smaller.
    if (new Blob([text]).size + 1 > MAX_SCENARIO_BYTES) text = JSON.stringify(JSON.parse(text));
    saveText(`${text}\n`, name, 'application/json');
    this.hooks.done(`Saved ${name}: run it with election run --scenario ${name}`);
  }

  /**
   * Loads a scenario file; on any problem the current run is kept.
   * @param {File} file
   */
  async open(file) {
    const row = this.input.parentElement ?? this.input;
    clearFieldErrors(row.parentElement ?? row);
    // The file's real size, before reading any of it: a 50 MB file is
    // said to be 50 MB, not the 64 KiB and a byte that would be read.
    if (file.size > MAX_SCENARIO_BYTES) {
      this.hooks.report(
        `Import ${file.name}: the file is ${sizeText(file.size)}; a scenario is at most ${sizeText(MAX_SCENARIO_BYTES)}. The current run is kept.`,
      );
      return;
    }
    /** @type {string} */
    let text;
    try {
      // As the CLI reads files: text must be UTF-8, said as such.
      text = new TextDecoder('utf-8', { fatal: true }).decode(await file.slice(0, READ_LIMIT).arrayBuffer());
    } catch (e) {
      const why = e instanceof TypeError ? 'the file is not UTF-8 text' : `could not read the file (${messageOf(e)})`;
      this.hooks.report(`Import ${file.name}: ${why}. The current run is kept.`);
      return;
    }
    /** @type {import('../player/model.js').Playground} */
    let pg;
    try {
      pg = await this.hooks.parse(text);
    } catch (e) {
      const err = coreError(e);
      showAtField(this.input, err, row, `${file.name}:`);
      const path = err.field === '' ? '' : ` (field ${err.field})`;
      this.hooks.report(`Import ${file.name}: ${plainSentence(err)}${path} The current run is kept.`);
      return;
    }
    this.hooks.load(pg);
    this.hooks.done(`Imported ${file.name}.`);
  }
}
