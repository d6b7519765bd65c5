// @ts-check
/**
 * Numbers as the page writes them, in English: "2,097,152", "430.6".
 * The same text as `toLocaleString('en')`, without `Intl`: a page's
 * first call of it sets up the browser's number formatting, 10 to 12 ms
 * (40 to 50 ms at Lighthouse's mobile CPU), and the page's start-up made
 * that call in its first render, on the way to ready.
 * @module shared/numbers
 */

/**
 * `x` rounded to at most `digits` decimals (half away from zero, no
 * trailing zeros), its whole part in groups of three digits; a negative
 * `x` keeps its sign even when it rounds to 0, as `toLocaleString` does.
 * @param {number} x
 * @param {number} [digits] at most this many decimals (default 0)
 * @returns {string}
 */
export function grouped(x, digits = 0) {
  if (!Number.isFinite(x)) return String(x);
  const scale = 10 ** digits;
  const rounded = Math.round(Math.abs(x) * scale) / scale;
  const [whole, fraction] = rounded.toFixed(digits).split('.');
  const trimmed = (fraction ?? '').replace(/0+$/, '');
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${trimmed ? `.${trimmed}` : ''}`;
}
