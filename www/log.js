// @ts-check
/**
 * The event log: the core's trace in plain language (`Event::describe`),
 * latest at the top, capped. Message traffic (sends, deliveries, losses)
 * can be hidden to leave the decisions: elections, roles, crashes.
 * @module log
 */

/** Most lines kept on the page. */
export const LOG_CAP = 300;

/** Event types that are message traffic. */
const TRAFFIC = new Set(['send', 'deliver', 'drop', 'undeliverable']);

/**
 * One log line from the core.
 * @typedef {object} LogLine
 * @property {number} index
 * @property {number} at_ms
 * @property {string} text
 * @property {{type: string}} event
 */

export class EventLog {
  /**
   * @param {HTMLOListElement} list
   * @param {HTMLInputElement} showTraffic checkbox
   */
  constructor(list, showTraffic) {
    this.list = list;
    this.showTraffic = showTraffic;
    /** Trace index of the next event to show. @private */
    this.next = 0;
    /** @private */
    this.revision = -1;
    const apply = () => list.classList.toggle('hide-traffic', !showTraffic.checked);
    showTraffic.addEventListener('change', apply);
    apply();
  }

  /**
   * Brings the log up to date with the model (starting over when the run
   * was rebuilt).
   * @param {import('./model.js').Model} model
   */
  sync(model) {
    const pg = model.playground;
    const count = pg.event_count();
    if (model.revision !== this.revision || count < this.next) {
      this.revision = model.revision;
      this.next = 0;
      this.list.replaceChildren();
    }
    if (count === this.next) return;
    const from = Math.max(this.next, count - LOG_CAP);
    /** @type {LogLine[]} */
    const lines = pg.events_since(from);
    this.next = count;
    const fragment = document.createDocumentFragment();
    for (let i = lines.length - 1; i >= 0; i--) fragment.append(this.line(lines[i]));
    this.list.prepend(fragment);
    while (this.list.childElementCount > LOG_CAP) this.list.lastElementChild?.remove();
  }

  /**
   * @private
   * @param {LogLine} line
   * @returns {HTMLLIElement}
   */
  line(line) {
    const li = document.createElement('li');
    const type = line.event.type;
    li.className = `ev ev-${type}${TRAFFIC.has(type) ? ' traffic' : ''}`;
    const time = document.createElement('span');
    time.className = 'ev-time';
    time.textContent = `${line.at_ms.toFixed(3)} ms`;
    const text = document.createElement('span');
    text.className = 'ev-text';
    text.textContent = line.text;
    li.append(time, text);
    return li;
  }
}
