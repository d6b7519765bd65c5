// @ts-check
/**
 * Wires the views that sit around the cluster to the model: the
 * space-time diagram, the metrics panel, the alert banner, the narration
 * for screen readers, the log's filters and the tabs of the side panel.
 * stage/page.js makes one `Panes` and calls `render` after every change.
 * @module panes
 */

import { AlertBanner } from './alerts.js';
import { MetricsPanel } from './metrics.js';
import { Narrator } from './narrate.js';
import { PanelTabs } from './panels.js';
import { SpaceTimeView, buildLegend } from '../spacetime/view.js';
import { TraceStore } from '../shared/trace.js';
import { el } from '../shared/dom.js';

export class Panes {
  /**
   * @param {typeof import('../pkg/election_player.js')} wasm
   * @param {import('../player/model.js').Model} model
   * @param {import('./log.js').EventLog} log
   */
  constructor(wasm, model, log) {
    this.model = model;
    const aside = document.querySelector('aside.panel');
    if (!(aside instanceof HTMLElement)) throw new Error('page element aside.panel is missing');
    this.tabs = new PanelTabs(aside);
    this.store = new TraceStore(wasm);
    log.attachFilters(
      /** @type {HTMLSelectElement} */ (el('log-node')),
      /** @type {HTMLSelectElement} */ (el('log-kind')),
      this.store.schema,
    );
    this.spacetime = new SpaceTimeView(
      {
        canvas: /** @type {HTMLCanvasElement} */ (el('spacetime')),
        hover: el('st-hover'),
        zoomIn: /** @type {HTMLButtonElement} */ (el('st-zoom-in')),
        zoomOut: /** @type {HTMLButtonElement} */ (el('st-zoom-out')),
        fit: /** @type {HTMLButtonElement} */ (el('st-fit')),
        spanOut: el('st-span'),
        note: el('st-note'),
      },
      this.store,
      model,
    );
    buildLegend(el('st-legend'));
    this.metrics = new MetricsPanel(el('metrics'), wasm.metric_fields());
    this.alerts = new AlertBanner(el('alert-region'), {
      jump: (atMs) => {
        model.setPlaying(false);
        model.seek(atMs);
      },
      showAll: () => this.tabs.showAlerts(),
      dismissed: () => el('play').focus(),
    });
    this.narrator = new Narrator(el('live-narration'), this.store);
  }

  /**
   * Brings every view up to date.
   * @param {import('../player/model.js').Snapshot} snapshot
   * @param {boolean} [readouts] whether the metrics' numbers are due
   *   (stage/page.js writes text at most a few times a second while playing)
   */
  render(snapshot, readouts = true) {
    this.spacetime.render();
    this.narrator.sync(this.model);
    if (readouts) this.metrics.render(this.model, snapshot);
    this.alerts.render(this.model, snapshot.violationCount);
  }
}
