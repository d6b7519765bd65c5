// @ts-check
/**
 * The trade-off table's rows as the page draws them: one row per
 * algorithm, the textbook's claim beside each measured figure, every
 * measured figure a link to the run behind it (a page address relative
 * to this page, `?at=…#s=…`, which opens that run in the single view).
 * Only drawing: every figure and verdict is the core's row
 * (`election tradeoffs --json`).
 * @module tradeoffs/table
 */

import { h } from '../shared/dom.js';

/**
 * A row of the core's table (core/tools/src/tradeoffs/mod.rs `Row`).
 * @typedef {object} Row
 * @property {string} algorithm
 * @property {string} name
 * @property {{family: string, messages: string, growth: string | null, latency: string, partition_safe: boolean, partition: string, flaky_handled: boolean | null} | null} claim
 * @property {{nodes: number, first: number, failover: number | null, first_link: string, failover_link: string}[]} messages
 * @property {{growth: string, exponent: number} | null} first_growth
 * @property {{growth: string, exponent: number} | null} failover_growth
 * @property {number | null} first_round_trips
 * @property {number | null} failover_round_trips
 * @property {{safe: boolean, schedules: number, property: string | null, link: string | null}} partition
 * @property {{node: number, leader_changes: number, steady_leader_changes: number, leaderless_ms: number, steady_leaderless_ms: number, handled: boolean, link: string} | null} flaky
 * @property {Disagreement[]} disagreements where the measurement differs
 *   from the claim, each with the reason the algorithm's claim gives
 */

/**
 * A measured figure that differs from its claim (core `Disagreement`).
 * @typedef {object} Disagreement
 * @property {'first_growth' | 'failover_growth' | 'partition' | 'flaky'} column
 * @property {string} claimed
 * @property {string} measured
 * @property {string | null} why
 */

/**
 * What the table measured over (the core's `Table` without its rows):
 * the sizes, the seeds and the flaky node's cycle.
 * @typedef {object} TableSpec
 * @property {number[]} nodes
 * @property {[number, number]} seeds
 * @property {number} flaky_period_ms
 * @property {number} flaky_down_ms
 * @property {number} flaky_for_ms
 */

/** What each column a measurement can disagree in is called. */
const COLUMN_NAMES = {
  first_growth: 'Messages of the first election',
  failover_growth: 'Messages of the failover',
  partition: 'Safe under partition',
  flaky: 'Flaky top node',
};

/**
 * The columns' headings: the sizes the messages were measured at, and
 * what the flaky node does, from the core's table.
 * @param {TableSpec} t
 * @returns {{text: string, title?: string}[]}
 */
export function headings(t) {
  const sizes = `${t.nodes.join(' / ')} nodes`;
  const window = num((t.flaky_for_ms + t.flaky_period_ms) / 1000);
  return [
    { text: 'Algorithm' },
    { text: `Messages, first election (${sizes})`, title: 'Election messages with every node starting at once, the mean over the seeds, at each size' },
    { text: 'Growth: claimed, measured' },
    { text: `Messages, failover (${sizes})`, title: 'Election messages after the leader crashed once the cluster settled, at each size' },
    { text: 'Growth' },
    { text: 'Round trips: first, failover' },
    { text: 'Latency, claimed' },
    { text: 'Safe under partition: claimed, measured' },
    {
      text: 'Flaky top node: claimed, measured',
      title:
        `The first leader crashes for ${num(t.flaky_down_ms)} ms of every ${num(t.flaky_period_ms)} ms for ${num(t.flaky_for_ms / 1000)} s; ` +
        `leader changes and time without a leader over those ${window} s, against the same ${window} s with the node steady`,
    },
  ];
}

/** How many columns the table has. */
export const COLUMNS = 9;

/**
 * A number as the table shows it: whole when it is, else one decimal.
 * @param {number} v
 * @returns {string}
 */
export function num(v) {
  return Math.abs(v - Math.round(v)) < 0.05 ? String(Math.round(v)) : v.toFixed(1);
}

/**
 * A link to a run, opening in this page.
 * @param {string} href relative page address from the core
 * @param {string} text
 * @param {string} title
 * @returns {HTMLAnchorElement}
 */
function runLink(href, text, title) {
  return /** @type {HTMLAnchorElement} */ (h('a', { href, title }, text));
}

/**
 * @param {{growth: string, exponent: number} | null} fit
 * @returns {string}
 */
function fitText(fit) {
  return fit ? `${fit.growth} (slope ${fit.exponent.toFixed(2)})` : '-';
}

/**
 * The cells of one measured row.
 * @param {Row} row
 * @returns {HTMLTableRowElement}
 */
export function rowElement(row) {
  const c = row.claim;
  const sizes = (/** @type {'first' | 'failover'} */ which) => {
    const cell = h('td', { class: 'mono', 'data-testid': `tradeoffs-${which}` });
    row.messages.forEach((m, i) => {
      if (i > 0) cell.append(' / ');
      const v = which === 'first' ? m.first : m.failover;
      const href = which === 'first' ? m.first_link : m.failover_link;
      cell.append(v === null ? '-' : runLink(href, num(v), `${row.name}, ${m.nodes} nodes: the first seed's run`));
    });
    return cell;
  };
  const p = row.partition;
  const partition = h('td', { 'data-testid': 'tradeoffs-partition', 'data-safe': String(p.safe) }, `claimed ${c?.partition ?? 'not stated'} · measured `);
  partition.append(
    p.safe || !p.link
      ? `yes (${p.schedules} schedules)`
      : runLink(p.link, `no (${p.property ?? 'a violation'})`, 'The shrunk counterexample, at the moment of the violation'),
  );
  const f = row.flaky;
  const flaky = h('td', { 'data-testid': 'tradeoffs-flaky' }, `claimed ${c?.flaky_handled == null ? 'not stated' : c.flaky_handled ? 'yes' : 'no'} · measured `);
  if (f) {
    flaky.append(
      runLink(
        f.link,
        `${f.handled ? 'yes' : 'no'}: ${num(f.leader_changes)} leader ${num(f.leader_changes) === '1' ? 'change' : 'changes'} and ${num(f.leaderless_ms)} ms without a leader, ` +
          `against ${num(f.steady_leader_changes)} and ${num(f.steady_leaderless_ms)} ms with n${f.node} steady`,
        `n${f.node} crashes and recovers periodically`,
      ),
    );
  } else flaky.append('-');
  const rt = (/** @type {number | null} */ v) => (v === null ? '-' : num(v));
  return /** @type {HTMLTableRowElement} */ (
    h(
      'tr',
      { 'data-algorithm': row.algorithm },
      h('th', { scope: 'row' }, row.name),
      sizes('first'),
      h('td', {}, `claimed ${c?.messages ?? 'not stated'} · measured ${fitText(row.first_growth)}`),
      sizes('failover'),
      h('td', {}, fitText(row.failover_growth)),
      h('td', { class: 'mono', 'data-testid': 'tradeoffs-round-trips' }, `${rt(row.first_round_trips)} / ${rt(row.failover_round_trips)}`),
      h('td', {}, c?.latency ?? '-'),
      partition,
      flaky,
    )
  );
}

/**
 * The reasons under an algorithm's row, one line per disagreement: where,
 * what was claimed and measured, and why (the algorithm's claim's words);
 * nothing when the measurement agrees with the claim.
 * @param {Row} row
 * @returns {HTMLTableRowElement[]}
 */
export function whyRows(row) {
  if (!row.disagreements?.length) return [];
  const items = row.disagreements.map((d) =>
    h(
      'li',
      { 'data-column': d.column },
      h('strong', {}, `${COLUMN_NAMES[d.column] ?? d.column}: `),
      `claimed ${d.claimed}, measured ${d.measured}. `,
      d.why ?? 'No reason is recorded for this difference.',
    ),
  );
  return [
    /** @type {HTMLTableRowElement} */ (
      h(
        'tr',
        { class: 'tradeoffs-why', 'data-why-for': row.algorithm },
        h('td', { colspan: String(COLUMNS), 'data-testid': 'tradeoffs-why' }, h('span', { class: 'why-head' }, `Why ${row.name} differs from the claim:`), h('ul', {}, ...items)),
      )
    ),
  ];
}

/**
 * The row of an algorithm still being measured.
 * @param {string} id
 * @param {string} name
 * @returns {HTMLTableRowElement}
 */
export function pendingRow(id, name) {
  return /** @type {HTMLTableRowElement} */ (
    h('tr', { 'data-algorithm': id, class: 'pending' }, h('th', { scope: 'row' }, name), h('td', { colspan: String(COLUMNS - 1) }, 'measuring…'))
  );
}
