// @ts-check
/**
 * Chart data from run records: the points of a CDF and of a histogram per
 * group, in the aligned-columns shape uPlot draws (one x column shared by
 * every series). Pure functions over numbers the core reported; nothing
 * here knows an algorithm.
 * @module experiments/series
 */

/**
 * A run's record as the core writes it (the `election sweep --csv`
 * columns; `by_kind` in the algorithm's kind order).
 * @typedef {object} RunRecord
 * @property {number} seed
 * @property {number | null} leader
 * @property {number | null} first_leader_ms
 * @property {number | null} recovery_ms
 * @property {number} messages_sent
 * @property {number} election_messages
 * @property {number} elections
 * @property {number} leader_changes
 * @property {number} leaderless_ms
 * @property {number} split_brain_ms
 * @property {number} violations
 * @property {boolean} settled
 * @property {boolean} truncated
 * @property {string} trace_hash
 * @property {number[]} by_kind
 * @property {string} [script_error] the error that stopped a scripted
 *   run, as `election run` prints it (absent when none did)
 */

/**
 * The values of `metric` of each group's runs; a run without a value
 * (no leader, never recovered) is `null`.
 * @param {RunRecord[]} records every run, in run order
 * @param {number} perGroup runs per group
 * @param {string} metric a record field
 * @returns {(number | null)[][]}
 */
export function groupValues(records, perGroup, metric) {
  /** @type {(number | null)[][]} */
  const out = [];
  for (let i = 0; i < records.length; i += perGroup) {
    out.push(
      records.slice(i, i + perGroup).map((r) => {
        const v = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (r))[metric];
        return typeof v === 'number' ? v : null;
      }),
    );
  }
  return out;
}

/**
 * CDFs of several groups on one x column: for every value x any group
 * took, the fraction of each group's runs at or below x. Runs without a
 * value count in the denominator and never below any x, so a curve that
 * stops below 1 shows the runs that never got there (as in Raft's
 * figure 16).
 * @param {(number | null)[][]} groups
 * @returns {[number[], ...number[][]]} [xs, cdf of group 0, ...]
 */
export function cdfColumns(groups) {
  const sorted = groups.map((g) => g.filter((v) => v !== null).map(Number).sort((a, b) => a - b));
  const xs = [...new Set(sorted.flat())].sort((a, b) => a - b);
  const ys = sorted.map((vals, g) => {
    const n = groups[g].length || 1;
    const col = new Array(xs.length);
    let k = 0;
    for (let i = 0; i < xs.length; i += 1) {
      while (k < vals.length && vals[k] <= xs[i]) k += 1;
      col[i] = k / n;
    }
    return col;
  });
  return [xs, ...ys];
}

/**
 * Smallest and largest of many values (no spread into arguments: a big
 * sweep has more values than a call may take).
 * @param {number[]} values
 * @returns {[number, number]}
 */
function extent(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/**
 * Histograms of several groups over shared bins (equal width, or equal
 * width in log space when `log`): x is each bin's lower edge, y the
 * fraction of the group's runs in the bin.
 * @param {(number | null)[][]} groups
 * @param {number} bins
 * @param {boolean} log
 * @returns {[number[], ...number[][]]}
 */
export function histogramColumns(groups, bins, log) {
  const all = groups.flat().filter((v) => v !== null).map(Number);
  if (all.length === 0) return [[], ...groups.map(() => [])];
  const [lo, hi] = extent(all);
  const tf = log ? Math.log : (/** @type {number} */ v) => v;
  const inv = log ? Math.exp : (/** @type {number} */ v) => v;
  const a = tf(lo);
  const b = tf(hi);
  const count = hi > lo ? bins : 1;
  const width = (b - a) / count || 1;
  const edges = Array.from({ length: count + 1 }, (_, i) => inv(a + i * width));
  const ys = groups.map((g) => {
    const col = new Array(count + 1).fill(0);
    const n = g.length || 1;
    for (const v of g) {
      if (v === null) continue;
      const i = Math.min(count - 1, Math.max(0, Math.floor((tf(v) - a) / width)));
      col[i] += 1 / n;
    }
    // The last edge closes the final step.
    col[count] = col[count - 1];
    return col;
  });
  return [edges, ...ys];
}

/**
 * Whether a log axis suits these values: all positive and spread over
 * more than a factor of 20.
 * @param {(number | null)[][]} groups
 * @returns {boolean}
 */
export function suitsLog(groups) {
  const all = groups.flat().filter((v) => v !== null).map(Number);
  if (all.length === 0) return false;
  const [lo, hi] = extent(all);
  return lo > 0 && hi / lo > 20;
}
