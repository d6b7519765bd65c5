// @ts-check
/**
 * The postMessage API of an embed (`?embed=1` in an iframe), for the page
 * that hosts it (course notes).
 *
 * In: `{type: 'play' | 'pause' | 'step' | 'seek' | 'load' | 'state', id?}`
 * (`seek` with `ms`; `load` with `scenario` (an object or JSON text) or
 * `link` (a playground address or share link), and optional `from`/`to`).
 * Out, each with `source: 'election-playground'`: `ready`, `ok` (the reply
 * to a command, with the state after it), `error` (a bad message: the
 * field at fault and why), `role` (a node changed role), `violation` (a
 * property check failed) and `time` (the simulated time, at most every
 * `TIME_GAP_MS` of real time while it changes).
 *
 * Origin check: a message counts only when it comes from the parent window
 * and its origin is one the address allows (`origin=`, default the embed's
 * own); events go only to the parent, with its origin as the target. Any
 * other message is ignored (with one console warning per origin).
 *
 * Role changes and violations are what the core recorded (trace rows and
 * the violation list); nothing about the algorithm is worked out here.
 * @module embed-api
 */

import { ROLE_NAMES } from '../shared/names.js';
import { TraceSchema } from '../shared/trace.js';

/** Marks every message the embed posts. */
export const SOURCE = 'election-playground';

/** Version of this message format. */
export const API_VERSION = 1;

/** Shortest gap between two `time` events while time moves, real ms. */
export const TIME_GAP_MS = 250;

/** Most `role` events posted for one update (a long seek keeps the latest). */
export const MAX_ROLE_EVENTS = 256;

/** Most `violation` events posted for one update (the latest are kept). */
export const MAX_VIOLATION_EVENTS = 64;

/** Longest scenario JSON text or link a `load` message may carry. */
export const MAX_LOAD_CHARS = 200_000;

/** Fields each command may carry (besides `type` and `id`). */
const COMMAND_FIELDS = Object.freeze({
  play: [],
  pause: [],
  step: [],
  state: [],
  seek: ['ms'],
  load: ['scenario', 'link', 'from', 'to'],
});

/**
 * A checked command.
 * @typedef {object} Command
 * @property {'play' | 'pause' | 'step' | 'state' | 'seek' | 'load'} type
 * @property {string | number | undefined} id echoed in the reply
 * @property {number} [ms] for seek
 * @property {string} [scenario] for load: scenario JSON text
 * @property {string} [link] for load: an address or share link
 * @property {number} [from] for load
 * @property {number | 'end'} [to] for load
 */

/**
 * What is wrong with a message.
 * @typedef {object} CommandError
 * @property {string} field the message field at fault (`message` for the
 *   whole message)
 * @property {string} message in words
 * @property {string} [command] the command, when `type` was valid
 * @property {string | number} [id]
 */

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isPlainObject(v) {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * @param {unknown} v
 * @returns {boolean}
 */
function isTime(v) {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

/**
 * Checks a received message: every field, by name.
 * @param {unknown} data `event.data`
 * @returns {{command: Command} | {error: CommandError}}
 */
export function parseCommand(data) {
  if (!isPlainObject(data)) {
    return { error: { field: 'message', message: 'must be an object such as {"type": "play"}' } };
  }
  const type = data.type;
  const types = Object.keys(COMMAND_FIELDS);
  if (typeof type !== 'string' || !types.includes(type)) {
    return {
      error: { field: 'type', message: `must be one of ${types.join(', ')}; got ${JSON.stringify(type) ?? 'nothing'}` },
    };
  }
  const name = /** @type {keyof typeof COMMAND_FIELDS} */ (type);
  /** @type {CommandError | null} */
  let error = null;
  /** @param {string} field @param {string} message */
  const fail = (field, message) => {
    error ??= { field, message, command: name };
  };
  const id = data.id;
  if (id !== undefined && !(typeof id === 'string' && id.length <= 200) && !(typeof id === 'number' && Number.isFinite(id))) {
    fail('id', 'must be a number or a string of at most 200 characters (it is echoed in the reply)');
  }
  const allowed = ['type', 'id', ...COMMAND_FIELDS[name]];
  for (const key of Object.keys(data)) {
    if (!allowed.includes(key)) fail(key, `is not a field of a ${name} message (fields: ${allowed.join(', ')})`);
  }
  /** @type {Command} */
  const command = { type: name, id: typeof id === 'string' || typeof id === 'number' ? id : undefined };
  if (name === 'seek') {
    if (!isTime(data.ms)) fail('ms', `must be a time in ms, 0 or more; got ${JSON.stringify(data.ms) ?? 'nothing'}`);
    else command.ms = /** @type {number} */ (data.ms);
  }
  if (name === 'load') {
    const hasScenario = data.scenario !== undefined;
    const hasLink = data.link !== undefined;
    if (hasScenario === hasLink) {
      fail(hasScenario ? 'link' : 'scenario', 'give exactly one of `scenario` (an object or JSON text) and `link` (an address)');
    } else if (hasScenario) {
      if (isPlainObject(data.scenario)) {
        let text = '';
        try {
          text = JSON.stringify(data.scenario);
        } catch {
          fail('scenario', 'cannot be written as JSON');
        }
        if (text.length > MAX_LOAD_CHARS) fail('scenario', `is over ${MAX_LOAD_CHARS} characters as JSON`);
        command.scenario = text;
      } else if (typeof data.scenario === 'string') {
        if (data.scenario.length > MAX_LOAD_CHARS) fail('scenario', `is over ${MAX_LOAD_CHARS} characters`);
        command.scenario = data.scenario;
      } else {
        fail('scenario', 'must be a scenario object or its JSON text');
      }
    } else if (typeof data.link !== 'string' || data.link.trim() === '') {
      fail('link', 'must be a playground address or share link (text)');
    } else if (data.link.length > MAX_LOAD_CHARS) {
      fail('link', `is over ${MAX_LOAD_CHARS} characters`);
    } else {
      command.link = data.link;
    }
    if (data.from !== undefined) {
      if (!isTime(data.from)) fail('from', `must be a time in ms, 0 or more; got ${JSON.stringify(data.from)}`);
      else command.from = /** @type {number} */ (data.from);
    }
    if (data.to !== undefined) {
      if (data.to === 'end') command.to = 'end';
      else if (!isTime(data.to)) fail('to', `must be a time in ms, 0 or more, or "end"; got ${JSON.stringify(data.to)}`);
      else if (/** @type {number} */ (data.to) < (command.from ?? 0)) fail('to', `${data.to} ms is before \`from\` (${command.from ?? 0} ms)`);
      else command.to = /** @type {number} */ (data.to);
    }
  }
  if (error) {
    /** @type {CommandError} */
    const e = error;
    if (command.id !== undefined) e.id = command.id;
    return { error: e };
  }
  return { command };
}

/**
 * The state an embed reports with every reply and `time` event.
 * @typedef {object} EmbedState
 * @property {number} time_ms
 * @property {boolean} playing
 * @property {number | null} leader the one live leader, if exactly one
 * @property {number[]} leaders every live leader
 * @property {number} violations failed property checks so far
 * @property {string} trace_hash as `election run --json` prints it
 * @property {number} from_ms
 * @property {number} to_ms
 * @property {{algorithm: string, leaders: number[], violations: number, trace_hash: string}[]} [runs]
 *   a compare embed's runs, in its order (there `leader` is null,
 *   `leaders` empty and `trace_hash` empty: each run has its own)
 */

/**
 * What the API needs from the embed.
 * @typedef {object} EmbedCommands
 * @property {() => void} play
 * @property {() => void} pause
 * @property {() => boolean} step false when nothing is left before `to`
 * @property {(ms: number) => number} seek goes to `ms` clamped to the
 *   range; returns the time gone to
 * @property {(c: Command) => void | Promise<void>} load throws (or, while
 *   the wasm module that runs the scenario loads, rejects with) an `Error`
 *   whose `field` names the message field at fault (`scenario.nodes`,
 *   `link`, `from`) when the scenario, link or range is bad; then nothing
 *   changes. Messages that come meanwhile wait their turn.
 * @property {() => EmbedState} state
 * @property {() => boolean} playing
 * @property {() => object} describe what `ready` says: algorithm, nodes,
 *   seed, controls
 */

/**
 * The origin of the page that frames this one, when the browser says.
 * @param {Window} win
 * @returns {string | null}
 */
function parentOrigin(win) {
  const ancestors = win.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  try {
    if (win.document.referrer) return new URL(win.document.referrer).origin;
  } catch {
    // An unreadable referrer: unknown.
  }
  return null;
}

export class EmbedApi {
  /**
   * @param {typeof import('../pkg/election_player.js')} wasm
   * @param {string[]} origins the host origins allowed
   * @param {EmbedCommands} commands
   * @param {Window} [win]
   */
  constructor(wasm, origins, commands, win = window) {
    /** @private */
    this.win = win;
    /** @private */
    this.origins = origins;
    /** @private */
    this.commands = commands;
    /** @private */
    this.schema = new TraceSchema(wasm);
    /** @private */
    this.roleMask = this.schema.mask(['role']);
    const framed = win.parent !== win;
    const host = framed ? parentOrigin(win) : null;
    /**
     * Where events go: the host's origin when it is allowed (or every
     * allowed origin when the browser does not say which it is: the
     * browser delivers to the one that matches).
     * @private @type {string[]}
     */
    this.targets = !framed ? [] : host === null ? origins : origins.includes(host) ? [host] : [];
    /** Whether events are posted at all. */
    this.active = this.targets.length > 0;
    if (framed && !this.active) {
      console.warn(
        `election playground embed: the host page ${host} is not among the allowed origins (${origins.join(', ')}); add it with origin=${host} to use the postMessage API`,
      );
    }
    /** Messages ignored because of their origin or sender, for tests and debugging. */
    this.ignored = 0;
    /** @private @type {Set<string>} */
    this.warned = new Set();
    /** A load still going on (its module loading): later messages wait for it. @private @type {Promise<void> | null} */
    this.waiting = null;
    /** @private @type {unknown} the run the cursors below belong to */
    this.pg = null;
    /** @private @type {import('../pkg/election_player.js').Playground | null} the run shown now */
    this.current = null;
    /** @private */
    this.cursor = 0;
    /** @private */
    this.violationsSeen = 0;
    /** The time and playing state last posted. @private */
    this.lastTimeKey = '';
    /** @private */
    this.lastTimePost = -Infinity;
    /** @private @type {ReturnType<typeof setTimeout> | null} */
    this.timeTimer = null;
    if (framed) win.addEventListener('message', (e) => this.receive(e));
  }

  /**
   * Posts an event to the host.
   * @param {Record<string, unknown>} message
   */
  post(message) {
    for (const target of this.targets) this.win.parent.postMessage({ source: SOURCE, ...message }, target);
  }

  /** Says the embed is ready, with what it shows. */
  ready() {
    this.post({ type: 'ready', version: API_VERSION, ...this.commands.describe(), ...this.commands.state() });
  }

  /**
   * @private
   * @param {MessageEvent} e
   */
  receive(e) {
    if (e.source !== this.win.parent || !this.origins.includes(e.origin) || !this.active) {
      this.ignored += 1;
      this.win.document.body.dataset.embedIgnored = String(this.ignored);
      if (!this.warned.has(e.origin)) {
        this.warned.add(e.origin);
        console.warn(
          `election playground embed: ignored a message from ${e.origin} (allowed: ${this.origins.join(', ')}; set origin= in the embed's address)`,
        );
      }
      return;
    }
    const parsed = parseCommand(e.data);
    if ('error' in parsed) {
      this.post({ type: 'error', ...parsed.error });
      return;
    }
    const c = parsed.command;
    if (this.waiting) {
      this.track(this.waiting.then(() => this.run(c)));
      return;
    }
    const running = this.run(c);
    if (running) this.track(running);
  }

  /**
   * Makes later messages wait for `running`.
   * @private
   * @param {Promise<void>} running
   */
  track(running) {
    this.waiting = running;
    running.then(() => {
      if (this.waiting === running) this.waiting = null;
    });
  }

  /**
   * Acts on one command and answers it: at once, or (a load whose wasm
   * module is loading) once it is done, as a promise.
   * @private
   * @param {Command} c
   * @returns {Promise<void> | undefined}
   */
  run(c) {
    /** @type {Record<string, unknown>} */
    const extra = {};
    /** @param {unknown} err */
    const refuse = (err) => {
      // The embed throws errors whose `field` names the message field.
      const field = err instanceof Error && 'field' in err && typeof err.field === 'string' ? err.field : 'message';
      this.post({
        type: 'error',
        command: c.type,
        ...(c.id !== undefined ? { id: c.id } : {}),
        field,
        message: err instanceof Error ? err.message : String(err),
      });
    };
    const answer = () => {
      // The role and violation events the command brought go first.
      this.sync(true);
      this.post({ type: 'ok', command: c.type, ...(c.id !== undefined ? { id: c.id } : {}), ...extra, ...this.commands.state() });
    };
    try {
      switch (c.type) {
        case 'play':
          this.commands.play();
          break;
        case 'pause':
          this.commands.pause();
          break;
        case 'step':
          extra.stepped = this.commands.step();
          break;
        case 'seek': {
          const ms = /** @type {number} */ (c.ms);
          const went = this.commands.seek(ms);
          extra.requested_ms = ms;
          extra.clamped = went !== ms;
          break;
        }
        case 'load': {
          const loading = this.commands.load(c);
          if (loading) {
            return loading.then(() => {
              Object.assign(extra, this.commands.describe());
              answer();
            }, refuse);
          }
          Object.assign(extra, this.commands.describe());
          break;
        }
        case 'state':
          Object.assign(extra, this.commands.describe());
          break;
      }
    } catch (err) {
      refuse(err);
      return undefined;
    }
    answer();
    return undefined;
  }

  /**
   * Posts what happened since the last call: role changes and violations
   * the run reached, and the time (throttled unless `now`).
   * @param {import('../pkg/election_player.js').Playground} pg
   * @param {boolean} [now] post the time even inside the throttle gap
   */
  update(pg, now = false) {
    this.current = pg;
    this.sync(now);
  }

  /**
   * @private
   * @param {boolean} now
   */
  sync(now) {
    if (!this.active) return;
    const pg = this.current;
    if (!pg) return;
    if (pg !== this.pg) {
      // Another run (a load): its story starts from the beginning.
      this.pg = pg;
      this.cursor = 0;
      this.violationsSeen = 0;
      this.lastTimeKey = '';
    }
    this.postRoles(pg);
    this.postViolations(pg);
    this.postTime(pg, now);
  }

  /**
   * @private
   * @param {import('../pkg/election_player.js').Playground} pg
   */
  postRoles(pg) {
    const count = pg.event_count();
    if (count <= this.cursor) {
      // Went back in time: the events after now will be posted again as
      // the run reaches them.
      this.cursor = count;
      return;
    }
    const rows = pg.trace_rows(this.cursor, count, this.roleMask);
    this.cursor = count;
    const { col, width } = this.schema;
    const total = rows.length / width;
    const first = Math.max(0, total - MAX_ROLE_EVENTS);
    for (let r = first; r < total; r++) {
      const o = r * width;
      const term = rows[o + col.term];
      /** @type {Record<string, unknown>} */
      const message = {
        type: 'role',
        node: rows[o + col.node],
        role: ROLE_NAMES[rows[o + col.value]] ?? 'follower',
        term: term < 0 ? null : term,
        time_ms: rows[o + col.at_ms],
      };
      if (r === first && first > 0) message.skipped = first;
      this.post(message);
    }
  }

  /**
   * @private
   * @param {import('../pkg/election_player.js').Playground} pg
   */
  postViolations(pg) {
    const count = pg.violation_count();
    if (count <= this.violationsSeen) {
      this.violationsSeen = count;
      return;
    }
    /** @type {import('../player/model.js').Violation[]} */
    const all = pg.violations();
    const fresh = all.slice(Math.max(this.violationsSeen, all.length - MAX_VIOLATION_EVENTS));
    const skipped = all.length - this.violationsSeen - fresh.length;
    this.violationsSeen = count;
    fresh.forEach((v, i) => {
      /** @type {Record<string, unknown>} */
      const message = { type: 'violation', check: v.property, description: v.detail, nodes: v.nodes, time_ms: v.at_ms };
      if (i === 0 && skipped > 0) message.skipped = skipped;
      this.post(message);
    });
  }

  /**
   * @private
   * @param {import('../pkg/election_player.js').Playground} pg
   * @param {boolean} now
   */
  postTime(pg, now) {
    // A pause without a move is news too.
    const t = `${pg.now_ms()}|${this.commands.playing()}`;
    if (t === this.lastTimeKey && !now) return;
    const wait = this.lastTimePost + TIME_GAP_MS - performance.now();
    if (now || wait <= 0) {
      if (this.timeTimer !== null) clearTimeout(this.timeTimer);
      this.timeTimer = null;
      this.lastTimeKey = t;
      this.lastTimePost = performance.now();
      this.post({ type: 'time', ...this.commands.state() });
    } else if (this.timeTimer === null) {
      // The last moment of a burst is always posted, after the gap.
      this.timeTimer = setTimeout(() => {
        this.timeTimer = null;
        this.sync(false);
      }, wait);
    }
  }
}
