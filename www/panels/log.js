// @ts-check
/**
 * The event log: the core's trace in plain language (`Event::describe`),
 * latest at the top, capped. Message traffic (sends, deliveries, losses)
 * can be hidden to leave the decisions: elections, roles, crashes. It can
 * be filtered by node (events that name it; events about the whole
 * network, such as a partition, always show) and by kind (role changes,
 * timers, crashes, ... or the messages of one kind).
 *
 * Filtering reads the trace as numeric rows (`Playground.trace_rows`,
 * with a mask of event types) from the newest backwards, in chunks, until
 * it has a screenful; only the lines shown are turned into sentences.
 * @module log
 */

/** Most lines kept on the page. */
export const LOG_CAP = 300;

/** Rows on the page while the run moves (playing, or going to its
 * opening moment): three screenfuls of the log's box, the newest lines.
 * Every row is a `content-visibility: auto` element (frame-budget.css),
 * which the browser checks for being in view in every frame, and a busy
 * run rewrites every row in every frame: 300 rows cost the frame about
 * 0.6 ms of those checks alone (Chromium's
 * `IntersectionObserverController::computeIntersections`, measured with
 * scripts/bench/browser/trace-frame.js, Raft 256). Lines further down
 * scroll past too fast to read while a busy run plays; the rest of the
 * `LOG_CAP` lines come back when it stops. */
export const MOVING_ROWS = 60;

/** Event types that are message traffic. */
const TRAFFIC = new Set(['send', 'deliver', 'drop', 'undeliverable']);

/** Trace events read per call while looking for filtered lines. */
const SCAN_CHUNK = 20_000;

/** Event types that concern the whole network, shown whatever the node. */
const CLUSTER_WIDE = ['partition', 'heal', 'network', 'fault_skipped'];

/**
 * The kinds of event the log can be narrowed to: option value, label and
 * the event types it takes in.
 * @type {[string, string, string[]][]}
 */
const EVENT_KINDS = [
  ['role', 'role changes', ['role']],
  ['election', 'elections started', ['election']],
  ['leader', 'who follows whom', ['leader']],
  ['timer', 'timers firing', ['timer']],
  ['crash', 'starts, crashes, recoveries', ['start', 'crash', 'recover']],
  ['pause', 'pauses, slow nodes, clocks', ['pause', 'resume', 'slow', 'clock']],
  ['network', 'partitions, cut links, network', ['partition', 'heal', 'cut', 'uncut', 'network', 'fault_skipped']],
  ['vote', 'votes', ['vote']],
  ['write', 'writes to the storage service', ['write']],
  ['lease', 'leases', ['lease']],
  ['note', 'notes', ['note']],
  ['violation', 'violations', ['violation']],
  ['traffic', 'all message traffic', [...TRAFFIC]],
];

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
    /** The lines shown, newest first. @private @type {LogLine[]} */
    this.lines = [];
    /** Which line each row shows. @private @type {WeakMap<HTMLLIElement, LogLine>} */
    this.shownLines = new WeakMap();
    /** @private */
    this.revision = -1;
    /** Filter selects, once attached. @private @type {{node: HTMLSelectElement, kind: HTMLSelectElement} | null} */
    this.filters = null;
    /** @private @type {import('../shared/trace.js').TraceSchema | null} */
    this.schema = null;
    /** Bumped when a filter changes, so the log starts over. @private */
    this.filterRevision = 0;
    /** @private */
    this.shownFilter = 0;
    /** What the filter options were built for. @private */
    this.optionsKey = '';
    /** Run revision the options were last checked at. @private */
    this.optionsRevision = -1;
    /** The model of the last sync, to redo the log when a filter changes. @private @type {import('../player/model.js').Model | null} */
    this.model = null;
    const apply = () => list.classList.toggle('hide-traffic', !showTraffic.checked);
    showTraffic.addEventListener('change', () => {
      apply();
      this.refilter();
    });
    apply();
  }

  /**
   * Adds the node and kind filters.
   * @param {HTMLSelectElement} node
   * @param {HTMLSelectElement} kind
   * @param {import('../shared/trace.js').TraceSchema} schema
   */
  attachFilters(node, kind, schema) {
    this.filters = { node, kind };
    this.schema = schema;
    node.addEventListener('change', () => this.refilter());
    kind.addEventListener('change', () => {
      // The messages of one kind are traffic: show traffic to see them.
      if (kind.value.startsWith('msg:') && !this.showTraffic.checked) {
        this.showTraffic.checked = true;
        this.list.classList.remove('hide-traffic');
      }
      this.refilter();
    });
  }

  /**
   * Starts the log over with the current filters (at once, also while
   * the run is paused).
   * @private
   */
  refilter() {
    this.filterRevision += 1;
    if (this.model) this.sync(this.model);
  }

  /**
   * Brings the log up to date with the model (starting over when the run
   * was rebuilt or a filter changed).
   * @param {import('../player/model.js').Model} model
   */
  sync(model) {
    this.model = model;
    const pg = model.playground;
    // The nodes and kinds change only with a new run.
    if (model.revision !== this.optionsRevision) {
      this.optionsRevision = model.revision;
      this.fillOptions(pg, model.nodeTotal());
    }
    const count = pg.event_count();
    if (model.revision !== this.revision || count < this.next || this.filterRevision !== this.shownFilter) {
      this.revision = model.revision;
      this.shownFilter = this.filterRevision;
      this.next = 0;
      this.lines = [];
      this.list.replaceChildren();
    }
    const list = this.list;
    const cap = model.moving ? MOVING_ROWS : LOG_CAP;
    if (count === this.next && list.childElementCount === Math.min(this.lines.length, cap)) return;
    if (count > this.next) {
      const lines = this.linesBetween(pg, this.next, count);
      this.next = count;
      this.lines = [...lines.reverse(), ...this.lines].slice(0, LOG_CAP);
    }
    // The rows stay where they are and take the text of their new line
    // (a busy run brings hundreds of lines a frame): nothing is moved, and
    // rows out of view, whose text the browser neither lays out nor paints
    // (frame-budget.css), cost only the text change.
    const shown = Math.min(this.lines.length, cap);
    while (list.childElementCount > shown) /** @type {Element} */ (list.lastElementChild).remove();
    while (list.childElementCount < shown) list.append(document.createElement('li'));
    let li = /** @type {HTMLLIElement | null} */ (list.firstElementChild);
    for (const line of this.lines) {
      if (!li) break;
      if (this.shownLines.get(li) !== line) {
        this.line(line, li);
        this.shownLines.set(li, line);
      }
      li = /** @type {HTMLLIElement | null} */ (li.nextElementSibling);
    }
  }

  /**
   * The newest (at most `LOG_CAP`) lines among events `from..to` that
   * pass the filters, oldest first.
   * @private
   * @param {import('../player/model.js').Playground} pg
   * @param {number} from
   * @param {number} to
   * @returns {LogLine[]}
   */
  linesBetween(pg, from, to) {
    const f = this.filters;
    const schema = this.schema;
    const node = f && f.node.value !== 'all' ? Number(f.node.value) : null;
    const kind = f ? f.kind.value : 'all';
    if (!f || !schema || (node === null && kind === 'all' && this.showTraffic.checked)) {
      return pg.events_since(Math.max(from, to - LOG_CAP));
    }
    const { col, code } = schema;
    const messageKind = kind.startsWith('msg:') ? Number(kind.slice(4)) : null;
    /** @type {string[]} */
    let types;
    if (messageKind !== null) types = [...TRAFFIC];
    else if (kind === 'all') types = schema.types.filter((t) => this.showTraffic.checked || !TRAFFIC.has(t));
    else types = EVENT_KINDS.find(([value]) => value === kind)?.[2] ?? schema.types;
    const mask = schema.mask(types);
    const everywhere = new Set(CLUSTER_WIDE.map((t) => code[t]));
    /** @type {number[]} indices, newest first */
    const picked = [];
    for (let hi = to; hi > from && picked.length < LOG_CAP; hi -= SCAN_CHUNK) {
      const lo = Math.max(from, hi - SCAN_CHUNK);
      const rows = pg.trace_rows(lo, hi, mask);
      const w = schema.width;
      for (let o = rows.length - w; o >= 0 && picked.length < LOG_CAP; o -= w) {
        if (messageKind !== null && rows[o + col.kind] !== messageKind) continue;
        if (
          node !== null &&
          rows[o + col.node] !== node &&
          rows[o + col.peer] !== node &&
          !everywhere.has(rows[o + col.type])
        ) {
          continue;
        }
        picked.push(rows[o + col.index]);
      }
    }
    picked.reverse();
    /** @type {LogLine[]} */
    const out = [];
    // Consecutive indices come in one call.
    for (let i = 0; i < picked.length; ) {
      let j = i;
      while (j + 1 < picked.length && picked[j + 1] === picked[j] + 1) j++;
      out.push(...pg.events(picked[i], picked[j] + 1));
      i = j + 1;
    }
    return out;
  }

  /**
   * Fills the filter selects for this run's nodes and message kinds.
   * @private
   * @param {import('../player/model.js').Playground} pg
   * @param {number} total nodes, extra ones included
   */
  fillOptions(pg, total) {
    const f = this.filters;
    if (!f) return;
    const kinds = pg.kinds();
    const key = `${total}:${kinds.join(',')}`;
    if (key === this.optionsKey) return;
    this.optionsKey = key;
    const keepNode = f.node.value;
    const keepKind = f.kind.value;
    const option = (/** @type {string} */ value, /** @type {string} */ text) => {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      return o;
    };
    f.node.replaceChildren(
      option('all', 'every node'),
      ...Array.from({ length: total }, (_, i) => option(String(i), `n${i}`)),
    );
    const events = document.createElement('optgroup');
    events.label = 'Events';
    events.append(...EVENT_KINDS.map(([value, text]) => option(value, text)));
    const messages = document.createElement('optgroup');
    messages.label = 'Messages of one kind';
    messages.append(...kinds.map((k, i) => option(`msg:${i}`, `${k} messages`)));
    f.kind.replaceChildren(option('all', 'everything'), events, messages);
    f.node.value = [...f.node.options].some((o) => o.value === keepNode) ? keepNode : 'all';
    f.kind.value = [...f.kind.options].some((o) => o.value === keepKind) ? keepKind : 'all';
    if (f.node.value !== keepNode || f.kind.value !== keepKind) this.filterRevision += 1;
  }

  /**
   * Writes a line into a row of the log.
   * @private
   * @param {LogLine} line
   * @param {HTMLLIElement} li
   */
  line(line, li) {
    const type = line.event.type;
    li.className = `ev ev-${type}${TRAFFIC.has(type) ? ' traffic' : ''}`;
    let time = /** @type {HTMLElement | null} */ (li.firstElementChild);
    let text = /** @type {HTMLElement | null} */ (li.lastElementChild);
    if (!time || !text || time === text) {
      time = document.createElement('span');
      time.className = 'ev-time';
      text = document.createElement('span');
      text.className = 'ev-text';
      li.replaceChildren(time, text);
    }
    time.textContent = `${line.at_ms.toFixed(3)} ms`;
    text.textContent = line.text;
  }
}
