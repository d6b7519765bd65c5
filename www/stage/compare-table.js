// @ts-check
/**
 * The compare table, for the page's compare mode and the compare embed:
 * its columns (header, hover title, test id, how a cell reads the core's
 * row), building the header and a row, and the notes around it (what the
 * theory column's formulas are, and which crashes hit a fixed node rather
 * than each run's own leader). Every number is the core's
 * (`Playground.compare_figures()`); nothing here is worked out. The
 * failover columns read the core's `failover_*` figures, counted only from
 * a fault that removed that run's leader (core/engine/src/metrics.rs,
 * module docs: `failover`); otherwise they read "-" with the reason on
 * hover (`title`) and in the cell's text for screen readers (`setCell`).
 * @module stage/compare-table
 */

import { setText } from '../shared/dom.js';

/**
 * Milliseconds for a cell: up to three decimals, as the CLI's JSON has them.
 * @param {number} ms
 * @returns {string}
 */
export function msText(ms) {
  return String(Math.round(ms * 1000) / 1000);
}

/**
 * One row of the table, as the core reports it (`Playground.compare_figures`).
 * @typedef {object} Figures
 * @property {string} algorithm
 * @property {number} now_ms
 * @property {number} messages_sent
 * @property {number} election_messages
 * @property {number} background_messages
 * @property {number | null} background_per_s
 * @property {number | null} first_leader_ms
 * @property {number} leaderless_ms
 * @property {number} split_brain_ms
 * @property {number | null} recovery_ms
 * @property {number | null} recovery_election_messages
 * @property {number | null} leader_removed_ms
 * @property {number | null} failover_ms
 * @property {number | null} failover_election_messages
 * @property {number} violations
 * @property {number[]} leaders
 * @property {number | null} theory
 * @property {string | null} theory_formula
 */

/**
 * A column after the algorithm's name.
 * @typedef {object} Column
 * @property {string} head header text
 * @property {string} title what the column counts (the header's hover text)
 * @property {string} testid test id of each cell
 * @property {(f: Figures) => string} text the cell, from the core's row
 * @property {(f: Figures) => string | null} [why] why the cell reads "-"
 *   (null when it shows a figure)
 */

/**
 * Why a failover cell reads "-": no fault removed this run's leader, or
 * the cluster has not settled since one did; null when it has a figure.
 * @param {Figures} f
 * @returns {string | null}
 */
export function failoverWhy(f) {
  if (f.leader_removed_ms === null) {
    return "No fault removed this run's leader (a crash or pause of its leader, or a partition that cut it off from a majority), so there is no failover to count; its first election is not one.";
  }
  if (f.failover_ms === null) {
    return `Its leader was removed at ${msText(f.leader_removed_ms)} ms and the cluster has not settled again yet.`;
  }
  return null;
}

/**
 * The columns, in display order: who leads, what the last failover cost
 * (the lesson's question), then the running totals and the theory.
 * @type {readonly Column[]}
 */
export const COLUMNS = Object.freeze([
  {
    head: 'Leader now',
    title: 'Every node that leads right now; two or more is split brain',
    testid: 'compare-leader',
    text: (f) => (f.leaders.length === 0 ? 'none' : f.leaders.map((id) => `n${id}`).join(', ')),
  },
  {
    head: 'Failover: election msgs',
    title:
      'Election messages sent from the last fault that removed this run\'s leader (a crash or pause of its leader, or a partition that cut it off from a majority) until the cluster settled again: what that failover cost. "-" when no fault removed its leader, or until it has settled; hover a "-" for which. (election run --json: failover_election_messages; election compare: failover)',
    testid: 'recovery-messages',
    text: (f) => (f.failover_election_messages === null ? '-' : String(f.failover_election_messages)),
    why: failoverWhy,
  },
  {
    head: 'Recovery (ms)',
    title:
      'Simulated time from the last fault that removed this run\'s leader until the cluster settled again. "-" when no fault removed its leader, or until it has settled. (election run --json: failover_ms)',
    testid: 'recovery-ms',
    text: (f) => (f.failover_ms === null ? '-' : msText(f.failover_ms)),
    why: failoverWhy,
  },
  {
    head: 'Messages sent',
    title: 'Every message sent so far, dropped ones included (election run: messages.sent)',
    testid: 'messages-total',
    text: (f) => String(f.messages_sent),
  },
  {
    head: 'Election messages',
    title: 'Messages sent so far that exist to choose a leader',
    testid: 'election-messages',
    text: (f) => String(f.election_messages),
  },
  {
    head: 'Background / s',
    title: 'Heartbeats, renewals and pings per simulated second so far',
    testid: 'background-per-s',
    text: (f) => (f.background_per_s === null ? '-' : f.background_per_s.toFixed(1)),
  },
  {
    head: 'First leader (ms)',
    title: 'When the first node became leader',
    testid: 'first-leader-ms',
    text: (f) => (f.first_leader_ms === null ? 'not yet' : msText(f.first_leader_ms)),
  },
  {
    head: 'Leaderless (ms)',
    title: 'Time so far with no live leader',
    testid: 'leaderless-ms',
    text: (f) => msText(f.leaderless_ms),
  },
  {
    head: 'Split brain (ms)',
    title: 'Time so far with more than one live leader',
    testid: 'split-brain-ms',
    text: (f) => msText(f.split_brain_ms),
  },
  {
    head: 'Violations',
    title: 'Failed property checks so far',
    testid: 'violation-count',
    text: (f) => String(f.violations),
  },
  {
    head: 'Theory (election msgs)',
    title:
      'The published count (or bound) of election messages for the first election of this scenario, with every node starting and no faults; the formulas are under the table. "-" where none is published or the scenario has faults or not every node starts. The same at every time: compare it with Election messages once the first leader is in.',
    testid: 'theory',
    text: (f) => (f.theory === null ? '-' : String(Math.round(f.theory * 10) / 10)),
  },
]);

/** The columns of the compact table (the compare embed), by test id. */
export const COMPACT = Object.freeze(['compare-leader', 'recovery-messages', 'recovery-ms', 'election-messages', 'violation-count']);

/**
 * The columns whose test ids are in `ids` (all when absent), in display order.
 * @param {readonly string[]} [ids]
 * @returns {Column[]}
 */
export function columns(ids) {
  return COLUMNS.filter((c) => !ids || ids.includes(c.testid));
}

/**
 * Writes a cell: its text and, when it reads "-" for a reason, the reason
 * as its hover text and, for screen readers, as visually hidden text
 * after the "-" (the cell's first text node stays the figure).
 * @param {HTMLElement} td
 * @param {string} text
 * @param {string | null} why
 */
export function setCell(td, text, why) {
  if (why === null) {
    if (td.hasAttribute('title')) td.removeAttribute('title');
    if (td.childNodes.length > 1) td.replaceChildren(text);
    else setText(td, text);
    return;
  }
  if (td.title === why && td.firstChild?.textContent === text) return;
  td.title = why;
  const hidden = document.createElement('span');
  hidden.className = 'visually-hidden';
  hidden.textContent = ` (${why})`;
  td.replaceChildren(text, hidden);
}

/**
 * Fills a header row: the algorithm column, then one header per column,
 * each with its title.
 * @param {HTMLTableRowElement} row
 * @param {readonly Column[]} cols
 */
export function fillHead(row, cols) {
  const first = document.createElement('th');
  first.scope = 'col';
  first.textContent = 'Algorithm';
  const heads = cols.map((c) => {
    const th = document.createElement('th');
    th.scope = 'col';
    th.title = c.title;
    th.dataset.column = c.testid;
    th.textContent = c.head;
    return th;
  });
  row.replaceChildren(first, ...heads);
}

/**
 * One row of the table: `<tr data-algorithm>` with the name as its header
 * cell and an empty cell per column.
 * @param {string} id algorithm id
 * @param {string} name human name
 * @param {readonly Column[]} cols
 * @returns {{tr: HTMLTableRowElement, cells: HTMLTableCellElement[]}}
 */
export function makeRow(id, name, cols) {
  const tr = document.createElement('tr');
  tr.dataset.algorithm = id;
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = name;
  tr.append(th);
  const cells = cols.map((c) => {
    const td = document.createElement('td');
    td.dataset.testid = c.testid;
    td.className = 'mono';
    tr.append(td);
    return td;
  });
  return { tr, cells };
}

/**
 * The notes under the table that explain the theory column, as the rows
 * have it now: one formula per row that shows a figure, or why the
 * column is empty when the scenario's faults or start set rule the
 * published figures out.
 * @param {{name: string, figures: Figures}[]} rows
 * @param {{faults?: unknown[], start?: unknown}} scenario the scenario
 *   compared (`scenario_json()`, parsed)
 * @returns {string[]}
 */
export function theoryNotes(rows, scenario) {
  const lines = rows
    .filter((r) => r.figures.theory !== null && r.figures.theory_formula !== null)
    .map((r) => `Theory for ${r.name}: ${r.figures.theory_formula}.`);
  if (lines.length > 0) return lines;
  const faulted = Array.isArray(scenario.faults) && scenario.faults.length > 0;
  const partStart = scenario.start !== undefined && scenario.start !== 'all';
  if (faulted || partStart) {
    return [
      `Theory shows "-": the published counts are for one election with every node starting and no faults, and this scenario ${faulted ? 'has faults' : 'does not start every node'}.`,
    ];
  }
  return [];
}

/**
 * A line for every crash in the scenario of a fixed node (not `"leader"`):
 * in a comparison that node is crashed in every run, whichever node each
 * one has elected.
 * @param {{faults?: unknown[]}} scenario
 * @returns {string[]}
 */
export function fixedCrashNotes(scenario) {
  if (!Array.isArray(scenario.faults)) return [];
  return scenario.faults
    .filter((f) => typeof f === 'object' && f !== null && typeof (/** @type {any} */ (f).crash) === 'number')
    .map((f) => {
      const { crash, at_ms: at } = /** @type {{crash: number, at_ms: number}} */ (f);
      return `n${crash} is crashed at ${msText(at)} ms in every run (a fixed node, not each one's leader).`;
    });
}
