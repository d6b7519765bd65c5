// Reading the compare table in the browser tests (compare mode and the
// compare embed) and checking its rows against `election run --json`.
import assert from 'node:assert/strict';

/**
 * The rows of the compare table: algorithm, the cells by test id (their
 * shown text, without the screen-reader text after a "-"), and the
 * reasons of the cells that give one (`title`), by test id.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{algorithm: string, cells: Record<string, string>, why: Record<string, string>}[]>}
 */
export async function rows(page) {
  return page.$$eval('[data-testid=compare-table] tbody tr', (trs) =>
    trs.map((tr) => {
      const tds = /** @type {HTMLElement[]} */ ([...tr.querySelectorAll('[data-testid]')]);
      const shown = (/** @type {HTMLElement} */ td) =>
        [...td.childNodes]
          .filter((n) => !(n instanceof HTMLElement && n.classList.contains('visually-hidden')))
          .map((n) => n.textContent ?? '')
          .join('')
          .trim();
      return {
        algorithm: /** @type {HTMLElement} */ (tr).dataset.algorithm ?? '',
        cells: Object.fromEntries(tds.map((td) => [td.dataset.testid, shown(td)])),
        why: Object.fromEntries(tds.filter((td) => td.title !== '').map((td) => [td.dataset.testid, td.title])),
      };
    }),
  );
}

/** @param {import('playwright-core').Page} page */
export async function sharedTime(page) {
  return Number(await page.textContent('[data-testid=compare-time]'));
}

/**
 * The cell texts `election run --json` (`summary`) stands for, by test id.
 * @param {any} summary
 * @returns {Record<string, string>}
 */
function expectedCells(summary) {
  // Only from a fault that removed this run's leader (metrics module
  // docs: `failover`).
  const failover = summary.failover_election_messages;
  const recovery = summary.failover_ms;
  return {
    'compare-leader': summary.leaders.length === 0 ? 'none' : summary.leaders.map((/** @type {number} */ id) => `n${id}`).join(', '),
    // What the last failover cost: "-" until the cluster settled after it.
    'recovery-messages': failover === null ? '-' : String(failover),
    'recovery-ms': recovery === null ? '-' : String(recovery),
    'messages-total': String(summary.messages.sent),
    'election-messages': String(summary.messages.election),
    'leaderless-ms': String(summary.leaderless_ms),
    'split-brain-ms': String(summary.split_brain_ms),
    'violation-count': String(summary.violations.length),
  };
}

/**
 * Checks every row against the CLI run of its algorithm until `t`: each
 * of its cells that stands for a field of `election run --json` (the
 * compact table of an embed has fewer), the leader and the failover
 * cells always.
 * @param {{algorithm: string, cells: Record<string, string>, why?: Record<string, string>}[]} shown
 * @param {(algorithm: string, t: number) => any} cli
 * @param {number} t
 */
export function assertRowsMatch(shown, cli, t) {
  for (const row of shown) {
    const summary = cli(row.algorithm, t);
    assert.equal(summary.end_ms, t, 'the CLI stopped where asked');
    for (const [id, text] of Object.entries(expectedCells(summary))) {
      const always = ['compare-leader', 'recovery-messages', 'recovery-ms'].includes(id);
      if (!always && !(id in row.cells)) continue;
      assert.equal(row.cells[id], text, `${id} of ${row.algorithm} at ${t} ms`);
    }
    // A "-" in a failover cell says why, as the CLI's figures have it.
    const why = row.why?.['recovery-messages'];
    if (summary.leader_removed_ms === null) assert.match(why ?? '', /^No fault removed this run's leader/, `${row.algorithm} at ${t} ms`);
    else if (summary.failover_ms === null) assert.match(why ?? '', /^Its leader was removed at /, `${row.algorithm} at ${t} ms`);
    else assert.equal(why, undefined, `${row.algorithm} at ${t} ms: a figure, no reason`);
  }
}
