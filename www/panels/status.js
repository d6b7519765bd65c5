// @ts-check
/**
 * The readouts: simulated time, leader (one line that reads "n3", "no
 * leader" or, during split brain, "2 leaders (split brain): n2, n5"),
 * messages sent (total and by kind, which doubles as the colour legend of
 * the messages) and dropped, crashed nodes, and the failed property checks
 * (a count and the list, as the core words them).
 *
 * `[data-testid=sim-time]`, `[data-testid=leader]` and
 * `[data-testid=messages-total]` are a contract with tests and embedding
 * hosts: always current, plain text (ms as a number, the leader's id or
 * `none`, an integer); so is `[data-testid=leaders]` (every live leader's
 * id, `2, 5`, or `none`). The two leader hooks are kept for machines,
 * hidden from sight and from screen readers; people read
 * `[data-testid=leader-summary]`.
 * @module status
 */

import { kindRows } from './kind-rows.js';
import { byTestId, setText } from '../shared/dom.js';

/**
 * The leader readout in words: `n3`, `no leader`, or with more than one
 * live leader `2 leaders (split brain): n2, n5`.
 * @param {number[]} leaders every live leader's id, in order
 * @returns {string}
 */
export function leaderSummary(leaders) {
  if (leaders.length === 0) return 'no leader';
  const names = leaders.map((id) => `n${id}`).join(', ');
  if (leaders.length === 1) return names;
  return `${leaders.length} leaders (split brain): ${names}`;
}

/**
 * What the run's end is, for its readout's label: `election run` stops
 * where the election settles (docs/ARCHITECTURE.md, Settling rules),
 * at the scenario's `until_ms` when it sets one, at the run limit when the
 * election never settles, or where one of the core's limits stops it
 * (core/engine/src/limits.rs; the number is then followed by the limit:
 * "Stopped at 10 ms: 2,097,152 messages in flight (the limit)"). Playback
 * may go on past it, except past a limit.
 * @param {number | null} endMs the end; null while it is being looked for
 * @param {number | null} untilMs the scenario's `until_ms`, if set
 * @param {number} horizonMs `until_ms`, else the run limit
 * @param {string | null} [limit] the limit that stops the run at its end, in words
 * @returns {[string, string]} label and its longer explanation
 */
export function endLabel(endMs, untilMs, horizonMs, limit = null) {
  if (limit !== null) {
    return [
      'Stopped at',
      `A limit stops the run here: ${limit}. Nothing happens after it; election run stops here too.`,
    ];
  }
  const after = 'Playback may go on past it; election run stops here.';
  if (untilMs !== null) {
    return ['Stops at', `The scenario's until_ms: the run is cut off here, settled or not. ${after}`];
  }
  if (endMs !== null && endMs >= horizonMs) {
    return [
      'Never settles; stops at',
      `The election did not settle before the run limit (${horizonMs} ms of simulated time). ${after}`,
    ];
  }
  return [
    'Settles at',
    `When the election is over: after this moment nothing changes but heartbeats and other background messages (unless you break something). ${after}`,
  ];
}

/** Most violations listed (the latest); the count readout has them all. */
const MAX_ALERTS = 50;

export class StatusView {
  /** @param {HTMLElement} kindsList the `<ul>` of message kinds */
  constructor(kindsList) {
    this.time = byTestId('sim-time');
    this.leader = byTestId('leader');
    this.total = byTestId('messages-total');
    this.crashed = byTestId('crashed-count');
    this.hash = byTestId('trace-hash');
    this.leaders = byTestId('leaders');
    this.summary = byTestId('leader-summary');
    this.endLabel = document.getElementById('end-label');
    this.endStop = document.getElementById('end-stop');
    /** Run revision and end the stopping limit was read for, and it. @private */
    this.stopKey = '';
    /** @private @type {string | null} */
    this.stopText = null;
    /** Run revision the scenario's `until_ms` was read for, and it. @private */
    this.untilKey = -1;
    /** @private @type {number | null} */
    this.untilMs = null;
    this.dropped = byTestId('messages-dropped');
    this.violations = byTestId('violations');
    this.alerts = byTestId('alerts');
    /** Run revision and count the alerts were listed for. @private */
    this.alertsKey = '';
    this.kindsList = kindsList;
    /** @private */
    this.kindsKey = '';
    /** @private @type {HTMLElement[]} */
    this.kindCounts = [];
  }

  /**
   * @param {import('../player/model.js').Snapshot} s
   * @param {import('../player/model.js').Model} model to list the violations from
   */
  render(s, model) {
    setText(this.time, String(s.nowMs));
    setText(this.leader, s.leader === undefined ? 'none' : String(s.leader));
    setText(this.total, String(s.messagesSent));
    setText(this.crashed, String(s.nodes.filter((n) => !n.alive).length));
    setText(this.hash, s.traceHash);
    setText(this.leaders, s.leaders.length === 0 ? 'none' : s.leaders.join(', '));
    this.writeSummary(s.leaders);
    setText(this.dropped, String(s.messagesDropped));
    setText(this.violations, String(s.violationCount));
    this.labelEnd(model);
    const alertsKey = `${model.revision}:${s.violationCount}`;
    if (alertsKey !== this.alertsKey) {
      this.alertsKey = alertsKey;
      this.listViolations(s.violationCount === 0 ? [] : model.violations());
    }
    const key = s.kinds.join(',');
    if (key !== this.kindsKey) {
      this.kindsKey = key;
      this.buildKinds(s.kinds);
    }
    s.sentByKind.forEach((count, i) => {
      if (this.kindCounts[i]) setText(this.kindCounts[i], String(count));
    });
  }

  /**
   * Writes the leader readout. During split brain its head ("2 leaders
   * (split brain):") is kept on one line, so a narrow panel breaks it
   * before the names, not inside the words.
   * @private
   * @param {number[]} leaders
   */
  writeSummary(leaders) {
    const text = leaderSummary(leaders);
    if (this.summary.textContent === text) return;
    const split = leaders.length > 1;
    this.summary.classList.toggle('split-brain', split);
    if (!split) {
      this.summary.textContent = text;
      return;
    }
    const cut = text.indexOf(': ') + 1;
    const head = document.createElement('span');
    head.className = 'nowrap';
    head.textContent = text.slice(0, cut);
    this.summary.replaceChildren(head, text.slice(cut));
  }

  /**
   * Names the run's end for what it is (see `endLabel`); the number
   * beside it is written by the controls.
   * @private
   * @param {import('../player/model.js').Model} model
   */
  labelEnd(model) {
    if (!this.endLabel) return;
    const pg = model.playground;
    if (this.untilKey !== model.revision) {
      this.untilKey = model.revision;
      const until = JSON.parse(pg.scenario_json()).until_ms;
      this.untilMs = typeof until === 'number' ? until : null;
    }
    const end = model.endMs();
    const stopKey = `${model.revision}:${end}`;
    if (stopKey !== this.stopKey) {
      this.stopKey = stopKey;
      /** @type {{message: string} | null | undefined} */
      const stop = end === null ? null : pg.end_stopped_by?.();
      this.stopText = stop ? stop.message : null;
    }
    const [label, title] = endLabel(end, this.untilMs, pg.horizon_ms(), this.stopText);
    setText(this.endLabel, label);
    if (this.endLabel.title !== title) this.endLabel.title = title;
    if (this.endStop) setText(this.endStop, this.stopText === null ? '' : `: ${this.stopText}`);
  }

  /**
   * The violations, latest first: "1234.5 ms split_brain: n2, n5 each
   * lead their own side of the partition (split brain)".
   * @private
   * @param {import('../player/model.js').Violation[]} list
   */
  listViolations(list) {
    this.alerts.replaceChildren(
      ...list
        .slice(-MAX_ALERTS)
        .reverse()
        .map((v) => {
          const li = document.createElement('li');
          const what = document.createElement('strong');
          what.textContent = v.property;
          li.append(`${v.at_ms} ms `, what, `: ${v.detail}`);
          return li;
        }),
    );
    this.alerts.hidden = list.length === 0;
  }

  /**
   * @private
   * @param {string[]} kinds
   */
  buildKinds(kinds) {
    this.kindCounts = kindRows(this.kindsList, kinds);
  }

}
