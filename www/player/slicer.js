// @ts-check
// Slicer: runs a long piece of work of the core (the simulation, the
// search for a run's end) in calls of a bounded amount of work (the
// core counts an event and the messages it sent), sized
// from how long the last calls took, until a wall-clock budget is spent.
// What a frame's task may not cut is then a single call, which is kept
// near a sixth of the budget.

/** Events of a slicer's first call: a single event may send a thousand
 * messages (a 1024-node Bully burst: 2,000 events at time 0 took 94 ms
 * in one call), so the count starts small and at most doubles. */
export const FIRST_CALL_EVENTS = 1;

/** Most events one call may be sized to. */
const MOST_CALL_EVENTS = 200_000;

export class Slicer {
  constructor() {
    /** Events the next call asks for. */
    this.perCall = FIRST_CALL_EVENTS;
  }

  /** Starts sizing over (a new run, whose events may cost anything). */
  reset() {
    this.perCall = FIRST_CALL_EVENTS;
  }

  /**
   * Calls `call` with an event count until it says it is done or the
   * budget is spent.
   * @param {(events: number) => boolean} call runs about that many
   *   events; true once the work is done
   * @param {number} budgetMs wall-clock budget, ms
   * @returns {boolean} whether the work is done
   */
  run(call, budgetMs) {
    const start = performance.now();
    for (;;) {
      const t0 = performance.now();
      const done = call(this.perCall);
      const took = performance.now() - t0;
      if (done) return true;
      // Aim each call at a sixth of the budget. The cost of an event varies
      // a hundredfold (a timer against a broadcast to 1,023 nodes), so the
      // count at most doubles from one call to the next: a stretch of cheap
      // events must not size a call that then meets costly ones (measured:
      // single calls of 10 to 30 ms in the 1024-node burst when it could
      // grow twentyfold at once).
      const want = (this.perCall * (budgetMs / 6)) / Math.max(took, 0.05);
      const next = Math.min(2 * this.perCall, (this.perCall + want) / 2);
      // Down to one event a call: in the 1024-node burst a single event
      // (an election broadcast to the higher nodes) sends up to 1,023
      // messages, and calls of 100 events took 3 to 10 ms.
      this.perCall = Math.round(Math.min(MOST_CALL_EVENTS, Math.max(1, next)));
      if (performance.now() - start + took > budgetMs) return false;
    }
  }
}
