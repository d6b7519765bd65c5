// @ts-check
/**
 * The one transport of the stage's embeds: play, pause, step, seek and
 * the real-time playing of 1 to 4 runs, locked to a range `[from, to]`
 * (an embed's `from=`, `to=`, `loop=`, `at=`). Seeking clamps, playing
 * stops at `to` (or goes back to `from` with `loop`), a step never goes
 * past it. The runs are behind a `Clock`: one run (`modelClock`, a Model)
 * or a comparison on one shared clock (`runsClock`, stage/runs.js), so
 * the single and the compare embed move time by the same rules.
 *
 * Nothing here decides anything about an algorithm: it moves the runs'
 * clock; the core says what happens.
 * @module stage/transport
 */

/** How close to `to` counts as there, ms (time is whole microseconds). */
export const AT_END_MS = 1e-4;

/**
 * The part of the run the scrubber is locked to.
 * @typedef {object} Range
 * @property {number} fromMs
 * @property {number | 'end'} to ms, or the run's end as `election run` sees it
 */

/**
 * What a transport moves: one run or a comparison's runs, behind one face.
 * @typedef {object} Clock
 * @property {() => number} nowMs simulated time, ms
 * @property {() => boolean} playing
 * @property {(on: boolean) => void} setPlaying
 * @property {() => number} speed simulated ms per real ms
 * @property {(speed: number) => void} setSpeed
 * @property {(ms: number, runEnd: boolean) => void} seek goes to `ms`; with
 *   `runEnd`, to the run's end exactly as `election run` ends it, still
 *   playing if it was
 * @property {() => number | undefined} nextEventMs the earliest next event
 * @property {() => boolean} step to the next event; false when there is none
 * @property {(realMs: number, budgetMs: number, endMs: number) => boolean} play
 *   plays `realMs` of real time within `budgetMs`, never past `endMs`;
 *   whether it is still playing short of `endMs`
 * @property {() => void} halt stops playing at the end of the range
 * @property {(reason: string) => void} setStopReason what the status says
 * @property {() => number} endMs the run's end (`election run`'s), ms
 * @property {() => number} horizonMs the last time the run can reach, ms
 * @property {(fault: object) => void} inject a fault now (every run's)
 */

/**
 * One run as a Clock.
 * @param {import('../player/model.js').Model} model
 * @returns {Clock}
 */
export function modelClock(model) {
  return {
    nowMs: () => model.nowMs,
    playing: () => model.playing,
    setPlaying: (on) => model.setPlaying(on),
    speed: () => model.speed,
    setSpeed: (speed) => model.setSpeed(speed),
    seek(ms, runEnd) {
      if (!runEnd) {
        model.seek(ms);
        return;
      }
      const playing = model.playing;
      model.runToEnd();
      if (playing) model.setPlaying(true);
    },
    nextEventMs: () => model.playground.next_event_ms(),
    step: () => model.step(),
    play(realMs, budgetMs, endMs) {
      const now = model.nowMs;
      if (now >= endMs - AT_END_MS) return false;
      // Never past the end: at most the real time left until it.
      model.advance(Math.min(realMs, (endMs - now) / model.speed), budgetMs);
      // Stopped by itself before the end (nothing left to happen): the
      // rest of the range is quiet, so it counts as reaching it.
      return model.nowMs < endMs - AT_END_MS && model.playing;
    },
    halt: () => model.setPlaying(false),
    setStopReason(reason) {
      model.stopReason = reason;
    },
    endMs: () => model.playground.end_ms(),
    horizonMs: () => model.playground.horizon_ms(),
    inject: (fault) => model.inject(fault),
  };
}

/**
 * A comparison's runs (stage/runs.js) as a Clock.
 * @param {import('./runs.js').CompareRuns} runs
 * @returns {Clock}
 */
export function runsClock(runs) {
  return {
    nowMs: () => runs.nowMs,
    playing: () => runs.playing,
    setPlaying: (on) => runs.setPlaying(on),
    speed: () => runs.speed,
    setSpeed(speed) {
      runs.speed = speed;
    },
    // The shared end is a time like any other for the runs.
    seek: (ms) => runs.seek(ms),
    nextEventMs() {
      const next = /** @type {number[]} */ (runs.runs.map((r) => r.model.playground.next_event_ms()).filter((t) => t !== undefined));
      return next.length === 0 ? undefined : Math.min(...next);
    },
    step: () => runs.step(),
    play(realMs, budgetMs, endMs) {
      runs.tick(realMs, budgetMs, endMs);
      return runs.playing;
    },
    // The runs stop by themselves at the end (tick).
    halt() {},
    setStopReason(reason) {
      runs.stopReason = reason;
    },
    endMs: () => runs.endMs(),
    horizonMs: () => runs.horizonMs(),
    inject: (fault) => runs.injectAll(fault),
  };
}

/**
 * The end of a range for runs, ms.
 * @param {Pick<Clock, 'endMs' | 'horizonMs'>} runs
 * @param {Range} range
 * @returns {number}
 */
export function rangeEnd(runs, range) {
  const end = range.to === 'end' ? runs.endMs() : Math.min(range.to, runs.horizonMs());
  return Math.max(range.fromMs, end);
}

/**
 * Checks a range against runs: `from` must come before their end, `to`
 * within their horizon.
 * @param {Pick<Clock, 'endMs' | 'horizonMs'>} runs
 * @param {Range} range
 * @param {string} what "this run" or "these runs", for the message
 * @returns {{field: 'from' | 'to', message: string} | null}
 */
export function rangeProblem(runs, range, what = 'this run') {
  if (range.to !== 'end' && range.to > runs.horizonMs()) {
    return { field: 'to', message: `${range.to} ms is after the last time ${what} can reach (${runs.horizonMs()} ms)` };
  }
  const end = range.to === 'end' ? runs.endMs() : range.to;
  if (range.fromMs > end) {
    return { field: 'from', message: `${range.fromMs} ms is after the end of the range (${end} ms)` };
  }
  return null;
}

export class Transport {
  /**
   * @param {Clock} clock the runs
   * @param {Range} range changed in place by `load` (a single embed's host)
   * @param {boolean} loop at `to`, back to `from` and on playing
   */
  constructor(clock, range, loop) {
    this.clock = clock;
    this.range = range;
    /** @private */
    this.loop = loop;
  }

  /** @returns {number} the end of the range, ms */
  toMs() {
    return rangeEnd(this.clock, this.range);
  }

  /**
   * Checks the address's range (`from=`, `to=`) against the runs; a bad
   * end is named and replaced by the runs' end, a bad start by 0.
   * @param {string[]} problems filled with what was wrong
   * @param {{what: string, whose: string}} words "this run", "the run's"
   *   (or "these runs", "the runs'")
   */
  checkRange(problems, words) {
    const bad = rangeProblem(this.clock, this.range, words.what);
    if (bad?.field === 'to') {
      problems.push(`URL parameter \`to\`: ${bad.message}; using ${words.whose} end`);
      this.range.to = 'end';
    }
    const badFrom = rangeProblem(this.clock, this.range, words.what);
    if (badFrom) {
      problems.push(`URL parameter \`from\`: ${badFrom.message}; using 0`);
      this.range.fromMs = 0;
    }
  }

  /**
   * The speed asked for, or one that plays the range in about `playMs`.
   * @param {number | null} asked
   * @param {number} playMs
   */
  pickSpeed(asked, playMs) {
    const span = this.toMs() - this.range.fromMs;
    this.clock.setSpeed(asked ?? Math.max(span, 1) / playMs);
  }

  /**
   * Goes to `ms`, clamped to the range; at the run's end exactly as
   * `election run` ends it.
   * @param {number} ms
   * @returns {number} the time gone to
   */
  goTo(ms) {
    const end = this.toMs();
    const target = Math.min(Math.max(ms, this.range.fromMs), end);
    this.clock.seek(target, this.range.to === 'end' && target >= end);
    return target;
  }

  /** Starts playing (from `from` again when at the end of the range). */
  play() {
    if (this.clock.nowMs() >= this.toMs() - AT_END_MS) this.goTo(this.range.fromMs);
    this.clock.setPlaying(true);
  }

  /** Play, or pause when playing. */
  toggle() {
    if (this.clock.playing()) this.clock.setPlaying(false);
    else this.play();
  }

  /** @returns {boolean} false when nothing is left before `to` */
  step() {
    const end = this.toMs();
    const next = this.clock.nextEventMs();
    if (next === undefined || next > end) {
      this.clock.setPlaying(false);
      this.clock.setStopReason(this.endReason(end));
      return false;
    }
    const stepped = this.clock.step();
    if (this.clock.nowMs() > end) this.goTo(end);
    return stepped;
  }

  /**
   * Plays `realMs` of real time within `budgetMs` (the player's task, see
   * player/player.js), stopping at `to` (or going back to `from` with
   * `loop`).
   * @param {number} realMs
   * @param {number} budgetMs
   */
  advance(realMs, budgetMs) {
    const end = this.toMs();
    if (this.clock.play(realMs, budgetMs, end)) return;
    if (this.loop) {
      this.clock.seek(this.range.fromMs, false);
      this.clock.setPlaying(true);
    } else {
      this.clock.halt();
      this.goTo(end);
      this.clock.setStopReason(this.endReason(end));
    }
  }

  /**
   * Where the runs open: the address's `at` (clamped to the range, and
   * named when it had to be) or `from`; then playing with `autoplay`,
   * unless the reader asked for less motion.
   * @param {number | 'end' | null} at
   * @param {boolean} autoplay
   * @param {string[]} problems
   */
  open(at, autoplay, problems) {
    const { fromMs } = this.range;
    if (at === 'end') {
      this.goTo(this.toMs());
    } else {
      const asked = at ?? fromMs;
      const clamped = Math.min(Math.max(asked, fromMs), this.toMs());
      if (at !== null && clamped !== asked) {
        problems.push(`URL parameter \`at\`: ${asked} ms is outside ${fromMs}..${this.toMs()} ms (\`from\`..\`to\`); opening at ${clamped} ms`);
      }
      this.goTo(clamped);
    }
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (autoplay && !reduceMotion) this.play();
  }

  /**
   * @private
   * @param {number} end
   * @returns {string}
   */
  endReason(end) {
    return `the end of this part (${end} ms)`;
  }
}
