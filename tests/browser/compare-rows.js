// Reading the compare table in the browser tests (compare mode and the
// compare embed) and checking its rows against `election run --json`.
import assert from 'node:assert/strict';

/**
 * The rows of the compare table: algorithm and the cells by test id.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{algorithm: string, cells: Record<string, string>}[]>}
 */
export async function rows(page) {
  return page.$$eval('[data-testid=compare-table] tbody tr', (trs) =>
    trs.map((tr) => ({
      algorithm: /** @type {HTMLElement} */ (tr).dataset.algorithm ?? '',
      cells: Object.fromEntries(
        [...tr.querySelectorAll('[data-testid]')].map((td) => [
          /** @type {HTMLElement} */ (td).dataset.testid,
          (td.textContent ?? '').trim(),
        ]),
      ),
    })),
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
  const failover = summary.recovery_election_messages;
  const recovery = summary.recovery_ms;
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
 * @param {{algorithm: string, cells: Record<string, string>}[]} shown
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
  }
}
