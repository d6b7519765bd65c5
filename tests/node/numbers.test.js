// The page writes numbers without Intl (www/shared/numbers.js): the same
// text as toLocaleString('en-US') with at most 0 or 1 decimals, which
// Node's own Intl gives here. No browser, no wasm.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grouped } from '../../www/shared/numbers.js';

test('grouped writes what toLocaleString writes', () => {
  const chosen = [0, 1, 12, 999, 1000, 12345, 1234567, 2097152, 1e15, -5, -1234, -0.04, 0.04, 430.6, 430.65, 1.25, 1.05, 999.95, 0.5, 100.96];
  // A seeded walk over magnitudes and decimals (a 32-bit LCG), so a
  // failure names a value that reproduces it.
  let state = 12345;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  const walked = Array.from({ length: 20000 }, () => (next() % 100_000_000) / 10 ** (next() % 4));
  for (const x of [...chosen, ...walked]) {
    for (const digits of [0, 1]) {
      assert.equal(grouped(x, digits), x.toLocaleString('en-US', { maximumFractionDigits: digits }), `grouped(${x}, ${digits})`);
    }
  }
});

test('grouped writes non-finite numbers as String does', () => {
  assert.equal(grouped(Infinity), 'Infinity');
  assert.equal(grouped(Number.NaN), 'NaN');
});
