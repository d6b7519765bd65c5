// @ts-check
/**
 * The core's error as plain data that crosses postMessage (an Error's own
 * `field` and `detail` would not survive the copy).
 * @module tradeoffs/errors
 */

import { coreError } from '../panels/field-errors.js';

/**
 * @param {unknown} e
 * @returns {{message: string, field: string, detail: string}}
 */
export function coreErrorOf(e) {
  const { message, field, detail } = coreError(e);
  return { message, field, detail };
}
