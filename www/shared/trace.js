// @ts-check
/**
 * The recorded trace as numeric rows (`Playground.trace_rows`, one
 * `Float64Array` per call), kept on the page for the views that read many
 * events: the space-time diagram and the narration. Nothing here decides
 * anything about an algorithm; it stores what the core recorded and
 * answers "what was node 3 doing at 120 ms" by looking it up.
 *
 * Two caches, both bounded:
 * - `window`: every event from a little before the diagram's window to
 *   now (messages, timers, marks), at most `MAX_WINDOW_ROWS` rows;
 * - `history`: from the start, only the events that change how a node is
 *   drawn (start, role, crash, recover, pause, resume) and the other marks
 *   (elections started, violations, partitions), the first turned into
 *   per-node state changes.
 *
 * Going back in time keeps what was seen: the core is deterministic, so
 * the events after the new "now" are exactly those that will happen again
 * (unless a fault is added or the scenario changes, which start over).
 * The diagram draws them faded, as the known future.
 * @module trace
 */

import { ROLE } from './names.js';

/**
 * Column index of each name in a list of column names.
 * @param {string[]} names
 * @returns {Record<string, number>}
 */
function columns(names) {
  return Object.fromEntries(names.map((name, i) => [name, i]));
}

/** Most rows of the window cache (about 90 bytes each). */
export const MAX_WINDOW_ROWS = 100_000;
/** Most rows of the history cache. */
export const MAX_HISTORY_ROWS = 500_000;
/** Most trace events the history scans per sync (bounded work per frame). */
const HISTORY_SCAN = 400_000;


/**
 * The columns and event types of the trace rows, read from the wasm
 * module once.
 */
export class TraceSchema {
  /** @param {typeof import('../pkg/election_player.js')} wasm */
  constructor(wasm) {
    const names = wasm.trace_fields();
    /** Column index by name. */
    this.col = columns(names);
    /** Numbers per row. */
    this.width = names.length;
    /** Event type names by code. */
    this.types = wasm.trace_types();
    /** Event type code by name. */
    this.code = columns(this.types);
  }

  /**
   * The mask of these event types for `trace_rows`.
   * @param {string[]} names
   * @returns {number}
   */
  mask(names) {
    let m = 0;
    for (const name of names) {
      const code = this.code[name];
      if (code === undefined) throw new Error(`unknown trace event type ${name}`);
      m |= 1 << code;
    }
    return m >>> 0;
  }
}

/** Every event type. */
export const ALL_TYPES = 0xffffffff;

/**
 * A growable block of rows of one width, in trace order.
 */
class Rows {
  /** @param {number} width */
  constructor(width) {
    this.width = width;
    this.data = new Float64Array(width * 1024);
    /** Rows held. */
    this.length = 0;
  }

  clear() {
    this.length = 0;
  }

  /** @param {Float64Array} chunk whole rows */
  append(chunk) {
    const need = this.length * this.width + chunk.length;
    if (need > this.data.length) {
      const bigger = new Float64Array(Math.max(need, this.data.length * 2));
      bigger.set(this.data.subarray(0, this.length * this.width));
      this.data = bigger;
    }
    this.data.set(chunk, this.length * this.width);
    this.length += chunk.length / this.width;
  }

  /** @param {Float64Array} chunk whole rows that come before these */
  prepend(chunk) {
    const old = this.data.subarray(0, this.length * this.width);
    const next = new Float64Array(Math.max(chunk.length + old.length, this.data.length));
    next.set(chunk, 0);
    next.set(old, chunk.length);
    this.data = next;
    this.length += chunk.length / this.width;
  }

  /**
   * Drops the first `count` rows.
   * @param {number} count
   */
  dropFront(count) {
    const n = Math.min(count, this.length);
    this.data.copyWithin(0, n * this.width, this.length * this.width);
    this.length -= n;
  }

  /**
   * First row whose column `col` is at least `value` (the column must be
   * ascending: index or time).
   * @param {number} col
   * @param {number} value
   * @returns {number}
   */
  lowerBound(col, value) {
    let lo = 0;
    let hi = this.length;
    const d = this.data;
    const w = this.width;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (d[mid * w + col] < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * How one node is drawn from one moment on.
 * @typedef {object} NodeStateChange
 * @property {number} at ms
 * @property {boolean} alive
 * @property {number} role role code
 * @property {boolean} paused
 */

export class TraceStore {
  /** @param {typeof import('../pkg/election_player.js')} wasm */
  constructor(wasm) {
    this.schema = new TraceSchema(wasm);
    const s = this.schema;
    /** Rows of the events around the window (every type). */
    this.window = new Rows(s.width);
    /** Trace index of the window cache's first row. */
    this.windowFrom = 0;
    /** Trace index up to which the window cache is filled (exclusive). */
    this.windowTo = 0;
    /** Whether the window cache was cut short by its cap. */
    this.clipped = false;
    /** Longest time on the wire of any message seen, ms (send to arrival). */
    this.maxFlightMs = 0;
    /** When the trace stopped recording (the time of its `truncated` row,
     * once the run is past it), ms; Infinity while it records. A message
     * sent before then whose delivery or loss was not recorded never gets
     * one in the trace. */
    this.stoppedMs = Infinity;
    this.stateMask = s.mask(['start', 'role', 'crash', 'recover', 'pause', 'resume', 'election', 'violation', 'partition', 'heal']);
    /** Rows of the state-changing events from the start. */
    this.history = new Rows(s.width);
    /** Trace index up to which the history is scanned (exclusive). */
    this.historyTo = 0;
    /** Whether the history lost its oldest rows to its cap. */
    this.historyClipped = false;
    /** @type {NodeStateChange[][]} state changes of each node, in time order */
    this.nodeStates = [];
    /** History rows turned into node states so far. @private */
    this.statesFrom = 0;
    /** Events recorded so far (the current run's trace length). */
    this.count = 0;
    /** Current time, ms. */
    this.nowMs = 0;
    /** The latest time seen in this history (now, or later after going back). */
    this.knownMs = 0;
    /** Bumped whenever the store starts over. */
    this.generation = 0;
    /** @private @type {unknown} */
    this.pg = null;
    /** @private */
    this.faults = -1;
  }

  /**
   * Starts over (a new run, or a fault changed its history).
   * @private
   */
  reset() {
    this.window.clear();
    this.windowFrom = 0;
    this.windowTo = 0;
    this.clipped = false;
    this.maxFlightMs = 0;
    this.stoppedMs = Infinity;
    this.history.clear();
    this.historyTo = 0;
    this.historyClipped = false;
    this.nodeStates = [];
    this.statesFrom = 0;
    this.knownMs = 0;
    this.generation += 1;
  }

  /**
   * Brings the caches up to date with the run, keeping the events from
   * `fromMs` (a little before the diagram's window) on.
   * @param {import('../player/model.js').Model} model
   * @param {number} fromMs
   */
  sync(model, fromMs) {
    const pg = model.playground;
    const faults = pg.fault_count();
    if (pg !== this.pg || faults !== this.faults) {
      this.pg = pg;
      this.faults = faults;
      this.reset();
    }
    this.count = pg.event_count();
    this.nowMs = pg.now_ms();
    this.knownMs = Math.max(this.knownMs, this.nowMs);
    this.syncHistory(pg);
    this.syncWindow(pg, fromMs);
    // The window cache reaches the trace's last row (`windowTo` is
    // `count`): a `truncated` row there is the trace's end.
    const w = this.window;
    const { col, code } = this.schema;
    const last = (w.length - 1) * w.width;
    this.stoppedMs = w.length > 0 && this.windowTo === this.count && w.data[last + col.type] === code.truncated ? w.data[last + col.at_ms] : Infinity;
  }

  /**
   * @private
   * @param {import('../player/model.js').Playground} pg
   */
  syncHistory(pg) {
    if (this.historyTo >= this.count) return;
    const to = Math.min(this.count, this.historyTo + HISTORY_SCAN);
    this.history.append(pg.trace_rows(this.historyTo, to, this.stateMask));
    this.historyTo = to;
    if (this.history.length > MAX_HISTORY_ROWS) {
      this.history.dropFront(this.history.length - MAX_HISTORY_ROWS / 2);
      this.historyClipped = true;
      this.nodeStates = [];
      this.statesFrom = 0;
    }
    this.buildStates();
  }

  /**
   * Turns new history rows into node state changes.
   * @private
   */
  buildStates() {
    const { col, code } = this.schema;
    const h = this.history;
    const d = h.data;
    const w = h.width;
    for (let r = this.statesFrom; r < h.length; r++) {
      const o = r * w;
      const type = d[o + col.type];
      const node = d[o + col.node];
      if (node < 0) continue;
      let list = this.nodeStates[node];
      if (!list) {
        list = [];
        this.nodeStates[node] = list;
      }
      const last = list[list.length - 1] ?? { at: 0, alive: true, role: ROLE.follower, paused: false };
      /** @type {NodeStateChange | null} */
      let next = null;
      const at = d[o + col.at_ms];
      if (type === code.start || type === code.recover) next = { ...last, at, alive: true };
      else if (type === code.crash) next = { at, alive: false, role: ROLE.follower, paused: false };
      else if (type === code.role) next = { ...last, at, role: d[o + col.value] };
      else if (type === code.pause) next = { ...last, at, paused: true };
      else if (type === code.resume) next = { ...last, at, paused: false };
      if (!next) continue;
      // Several changes at one instant: the last one counts.
      if (list.length > 0 && last.at === at) list[list.length - 1] = next;
      else list.push(next);
    }
    this.statesFrom = h.length;
  }

  /**
   * @private
   * @param {import('../player/model.js').Playground} pg
   * @param {number} fromMs
   */
  syncWindow(pg, fromMs) {
    const count = this.count;
    let lo = pg.event_index_at(Math.min(fromMs, this.nowMs));
    this.clipped = count - lo > MAX_WINDOW_ROWS;
    if (this.clipped) lo = count - MAX_WINDOW_ROWS;
    const all = ALL_TYPES;
    // A cache that cannot be joined to what is wanted starts over: it
    // begins after what the run has (seen before going back) or ends
    // before `lo`.
    if (this.window.length === 0 || this.windowFrom > count || this.windowTo < lo) {
      this.window.clear();
      this.windowFrom = lo;
      this.windowTo = lo;
    }
    if (lo < this.windowFrom) {
      const rows = pg.trace_rows(lo, this.windowFrom, all);
      this.measureFlights(rows);
      this.window.prepend(rows);
      this.windowFrom = lo;
    }
    if (this.windowTo < count) {
      const rows = pg.trace_rows(this.windowTo, count, all);
      this.measureFlights(rows);
      this.window.append(rows);
      this.windowTo = count;
    }
    // Forget what scrolled far out of view.
    if (lo - this.windowFrom > MAX_WINDOW_ROWS / 4 || this.window.length > MAX_WINDOW_ROWS * 1.5) {
      const drop = this.window.lowerBound(this.schema.col.index, lo);
      this.window.dropFront(drop);
      this.windowFrom = lo;
    }
  }

  /**
   * Keeps `maxFlightMs` up to date with the sends among `rows`.
   * @private
   * @param {Float64Array} rows
   */
  measureFlights(rows) {
    const { col, code, width } = this.schema;
    let max = this.maxFlightMs;
    for (let o = 0; o < rows.length; o += width) {
      if (rows[o + col.type] === code.send) {
        const flight = rows[o + col.until_ms] - rows[o + col.at_ms];
        if (flight > max) max = flight;
      }
    }
    this.maxFlightMs = max;
  }

  /**
   * The state changes of `node`, in time order (empty before it started).
   * @param {number} node
   * @returns {NodeStateChange[]}
   */
  statesOf(node) {
    return this.nodeStates[node] ?? [];
  }

  /**
   * Position in `statesOf(node)` of the state at `t` (-1: none yet).
   * @param {NodeStateChange[]} list
   * @param {number} t
   * @returns {number}
   */
  static stateAt(list, t) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid].at <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /**
   * Calls `fn(offset)` for the history rows with trace index in
   * `[from, to)` (for narration: what happened since).
   * @param {number} from
   * @param {number} to
   * @param {(data: Float64Array, offset: number) => void} fn
   */
  historyBetween(from, to, fn) {
    const h = this.history;
    const col = this.schema.col.index;
    for (let r = h.lowerBound(col, from); r < h.length; r++) {
      const o = r * h.width;
      if (h.data[o + col] >= to) break;
      fn(h.data, o);
    }
  }
}
