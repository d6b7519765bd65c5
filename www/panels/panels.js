// @ts-check
/**
 * Keeps the side panel usable as the page grows: the read-only views
 * (Now with the alert list and messages by kind, Metrics, the Node
 * inspector) share one tabbed box instead of a long column, following the
 * WAI-ARIA tabs pattern (arrow keys, Home and End move between tabs).
 * Everything you act on (Scenario, Share, Faults, the log's controls)
 * stays in view, so nothing a click needs is hidden behind a tab.
 *
 * The sections keep their ids and test ids; this module only moves them
 * into the tab panels, so index.html stays a plain list of sections.
 * @module panels
 */

/**
 * One tab: its name and the sections (found by their heading's id) it
 * shows.
 * @typedef {object} TabSpec
 * @property {string} id
 * @property {string} label
 * @property {string[]} headings ids of the headings of its sections
 */

/** @type {TabSpec[]} */
const TABS = [
  { id: 'now', label: 'Now', headings: ['now-title', 'kinds-title'] },
  { id: 'metrics', label: 'Metrics', headings: ['metrics-title'] },
  { id: 'node', label: 'Node', headings: ['inspector-title'] },
];

export class PanelTabs {
  /**
   * Builds the tabs at the top of `aside`.
   * @param {HTMLElement} aside the side panel
   */
  constructor(aside) {
    const dock = document.createElement('div');
    dock.className = 'dock';
    const list = document.createElement('div');
    list.className = 'tabs';
    list.setAttribute('role', 'tablist');
    list.setAttribute('aria-label', 'Views');
    dock.append(list);
    /** @type {Map<string, {tab: HTMLButtonElement, panel: HTMLElement}>} */
    this.tabs = new Map();
    for (const spec of TABS) {
      const sections = spec.headings
        .map((id) => document.getElementById(id)?.closest('section'))
        .filter((s) => s instanceof HTMLElement);
      if (sections.length === 0) continue;
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.id = `tab-${spec.id}`;
      tab.className = 'tab';
      tab.dataset.testid = `tab-${spec.id}`;
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-controls', `panel-${spec.id}`);
      tab.textContent = spec.label;
      const panel = document.createElement('div');
      panel.id = `panel-${spec.id}`;
      panel.className = 'tab-panel';
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', tab.id);
      panel.tabIndex = 0;
      panel.append(...sections);
      tab.addEventListener('click', () => this.select(spec.id));
      list.append(tab);
      dock.append(panel);
      this.tabs.set(spec.id, { tab, panel });
    }
    list.addEventListener('keydown', (e) => this.key(e));
    aside.prepend(dock);
    this.dock = dock;
    this.select('now');
    this.followInspector();
  }

  /**
   * Shows tab `id`.
   * @param {string} id
   * @param {boolean} [focus] move the focus to the tab too
   */
  select(id, focus = false) {
    for (const [name, { tab, panel }] of this.tabs) {
      const on = name === id;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      panel.hidden = !on;
      if (on && focus) tab.focus();
    }
    this.dock.dataset.tab = id;
  }

  /**
   * Arrow keys, Home and End move between tabs (the page's own →
   * shortcut must not also step the run).
   * @private
   * @param {KeyboardEvent} e
   */
  key(e) {
    const ids = [...this.tabs.keys()];
    const current = ids.findIndex((id) => this.tabs.get(id)?.tab === document.activeElement);
    if (current < 0) return;
    let next = -1;
    if (e.key === 'ArrowRight') next = (current + 1) % ids.length;
    else if (e.key === 'ArrowLeft') next = (current - 1 + ids.length) % ids.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = ids.length - 1;
    else return;
    e.preventDefault();
    e.stopPropagation();
    this.select(ids[next], true);
  }

  /**
   * Names the node in the Node tab ("Node n3") as the inspector's title
   * changes.
   * @private
   */
  followInspector() {
    const title = document.getElementById('inspector-title');
    const tab = this.tabs.get('node')?.tab;
    if (!title || !tab) return;
    const copy = () => {
      const text = title.textContent ?? 'Node';
      if (tab.textContent !== text) tab.textContent = text;
    };
    new MutationObserver(copy).observe(title, { childList: true, characterData: true, subtree: true });
    copy();
  }

  /**
   * Shows the Now tab and puts the focus on the list of alerts.
   */
  showAlerts() {
    this.select('now');
    const list = document.querySelector('[data-testid="alerts"]');
    if (list instanceof HTMLElement) {
      list.tabIndex = -1;
      list.focus();
      list.scrollIntoView({ block: 'nearest' });
    }
  }
}
