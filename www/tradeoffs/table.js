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
 */

/** The columns' headings. */
export const HEADINGS = [
  'Algorithm',
  'Messages, first election',
  'Growth: claimed, measured',
  'Messages, failover',
  'Growth',
  'Round trips: first, failover',
  'Latency, claimed',
  'Safe under partition: claimed, measured',
  'Flaky top node: claimed, measured',
];

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
        `${f.handled ? 'yes' : 'no'}: ${num(f.leader_changes)} leader changes (${num(f.steady_leader_changes)} steady), ${num(f.leaderless_ms)} ms leaderless (${num(f.steady_leaderless_ms)})`,
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
 * The row of an algorithm still being measured.
 * @param {string} id
 * @param {string} name
 * @returns {HTMLTableRowElement}
 */
export function pendingRow(id, name) {
  return /** @type {HTMLTableRowElement} */ (
    h('tr', { 'data-algorithm': id, class: 'pending' }, h('th', { scope: 'row' }, name), h('td', { colspan: String(HEADINGS.length - 1) }, 'measuring…'))
  );
}
