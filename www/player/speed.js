// @ts-check
/**
 * Play speed, simulated ms per real ms: its range, the speed a page opens
 * at, how it is written, and the speed slider's value for it (log10).
 * Apart from the player (player/model.js) so the first picture
 * (first/picture.js) can set the slider as the page will.
 * @module player/speed
 */

/** Slowest and fastest play speed, simulated ms per real ms. */
export const MIN_SPEED = 0.001;
export const MAX_SPEED = 1000;

/** The speed a page opens at, simulated ms per real ms: the default
 * Bully election (over at 19 ms) takes about four seconds to watch, a
 * message of 5 ms latency one second to cross. */
export const DEFAULT_SPEED = 0.005;

/**
 * Readable speed: "0.02×", "1×", "250×".
 * @param {number} speed
 * @returns {string}
 */
export function formatSpeed(speed) {
  return `${Number(speed.toPrecision(speed >= 1 ? 3 : 2))}×`;
}

/**
 * Sets a speed slider's range and puts it at `speed` (the slider is
 * log10 of the speed).
 * @param {HTMLInputElement} slider
 * @param {number} [speed]
 */
export function placeSpeedSlider(slider, speed = DEFAULT_SPEED) {
  slider.min = String(Math.log10(MIN_SPEED));
  slider.max = String(Math.log10(MAX_SPEED));
  slider.value = String(Math.log10(speed));
}
