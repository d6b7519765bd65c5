// @ts-check
/**
 * Keeps the side panel usable as the page grows: the read-only views
 * (Now with the alert list and messages by kind, Metrics, the Node
 * inspector) share one tabbed box instead of a long column, following the
 * WAI-ARIA tabs pattern (arrow keys, Home and End move between tabs).
 * Everything you act on (Scenario, Share, Faults, the log's controls)
 * stays in view, so nothing a click needs is hidden behind a tab.
 *
 * index.html has the tabs and their panels in its markup (so the first
 * paint has the page's final layout, issue 30); this module wires them.
 * @module panels
 */

/** The tabs' ids: index.html's `#tab-<id>` and `#panel-<id>`. */
const TABS = ['now', 'metrics', 'node'];

export class PanelTabs {
  /**
   * Wires the tabs at the top of `aside` (index.html's `.dock`).
   * @param {HTMLElement} aside the side panel
   */
  constructor(aside) {
    const dock = aside.querySelector(':scope > .dock');
    const list = dock?.querySelector('[role=tablist]');
    if (!(dock instanceof HTMLElement) || !list) throw new Error('page element aside.panel > .dock [role=tablist] is missing');
    /** @type {Map<string, {tab: HTMLButtonElement, panel: HTMLElement}>} */
    this.tabs = new Map();
    for (const id of TABS) {
      const tab = document.getElementById(`tab-${id}`);
      const panel = document.getElementById(`panel-${id}`);
      if (!(tab instanceof HTMLButtonElement) || !panel) throw new Error(`page element #tab-${id} or #panel-${id} is missing`);
      tab.addEventListener('click', () => this.select(id));
      this.tabs.set(id, { tab, panel });
    }
    list.addEventListener('keydown', (e) => this.key(/** @type {KeyboardEvent} */ (e)));
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

