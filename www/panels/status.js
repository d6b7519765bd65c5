// @ts-check
/**
 * The readouts: simulated time, leader (and every leader, during split
 * brain), messages sent (total and by kind, which doubles as the colour
 * legend of the messages) and dropped, crashed nodes, and the failed
 * property checks (a count and the list, as the core words them).
 *
 * `[data-testid=sim-time]`, `[data-testid=leader]` and
 * `[data-testid=messages-total]` are a contract with tests and embedding
 * hosts: always current, plain text (ms as a number, the leader's id or
 * `none`, an integer).
 * @module status
 */

import { kindLabel } from '../shared/palette.js';
import { byTestId, setText } from '../shared/dom.js';

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
    setText(this.dropped, String(s.messagesDropped));
    setText(this.violations, String(s.violationCount));
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
    this.kindsList.replaceChildren();
    this.kindCounts = kinds.map((kind, i) => {
      const li = document.createElement('li');
      const [swatch, name] = kindLabel(kind, i);
      const count = document.createElement('span');
      count.className = 'kind-count';
      count.dataset.testid = `sent-${kind}`;
      count.textContent = '0';
      li.append(swatch, name, count);
      this.kindsList.append(li);
      return count;
    });
  }
}
