// @ts-check
/**
 * The URL parameters of embed mode (`?embed=1`), read and checked before
 * anything is drawn: which controls show (`controls=`), the part of the
 * run the scrubber is locked to (`from=`, `to=`), `autoplay=1`, `loop=1`,
 * the play speed (`speed=`) and the host pages allowed to drive the embed
 * through postMessage (`origin=`).
 *
 * Every bad value gives one message naming its parameter and falls back
 * to that parameter's default, so a typo in course notes never leaves a
 * blank frame. The scenario itself (query parameters, `#s=` link,
 * `preset=`) is read by the core, as on the full page.
 * @module embed-params
 */

/** Every control an embed can show, in the order they appear. */
export const CONTROL_NAMES = Object.freeze(['play', 'step', 'reset', 'scrubber', 'speed', 'faults', 'legend']);

/** The controls shown when `controls=` is absent. */
export const DEFAULT_CONTROLS = Object.freeze(['play', 'step', 'scrubber']);


/**
 * What an embed address asks for.
 * @typedef {object} EmbedRequest
 * @property {Set<string>} controls the controls to show
 * @property {number} fromMs start of the scrubber's range, ms
 * @property {number | 'end'} to end of the range, ms, or the run's end
 *   (where `election run` ends it)
 * @property {boolean} autoplay start playing on load
 * @property {boolean} loop at `to`, go back to `from` and keep playing
 * @property {number | null} speed simulated ms per real ms; null: pick one
 *   so the range plays in about `RANGE_PLAY_MS`
 * @property {string[]} origins host origins allowed to send commands and
 *   receive events
 * @property {string[]} problems one readable message per bad parameter
 */

/** Real time the whole range takes to play at the default speed, ms. */
export const RANGE_PLAY_MS = 15000;

/**
 * A time parameter in ms: a finite number, at least 0.
 * @param {string} text
 * @returns {number | null} null when it is not one
 */
function parseMs(text) {
  const trimmed = text.trim();
  const ms = Number(trimmed);
  return trimmed !== '' && Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/**
 * A 0/1 switch (`1`, `true`, `0`, `false`; an empty value means on).
 * @param {URLSearchParams} params
 * @param {string} name
 * @param {string[]} problems
 * @returns {boolean}
 */
function parseSwitch(params, name, problems) {
  const text = params.get(name);
  if (text === null) return false;
  const v = text.trim().toLowerCase();
  if (v === '' || v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  problems.push(`URL parameter \`${name}\`: must be 1 or 0, got ${JSON.stringify(text)}; using 0`);
  return false;
}

/**
 * The `controls=` list: known names, each once; `none` shows no control
 * at all (a picture that plays); empty means the defaults. Unknown names
 * are reported and skipped; a wholly unknown list falls back to the
 * defaults.
 * @param {string | null} text
 * @param {string[]} problems
 * @returns {Set<string>}
 */
function parseControls(text, problems) {
  if (text === null || text.trim() === '') return new Set(DEFAULT_CONTROLS);
  if (text.trim().toLowerCase() === 'none') return new Set();
  const names = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !CONTROL_NAMES.includes(n));
  const known = names.filter((n) => CONTROL_NAMES.includes(n));
  if (unknown.length === 0) return new Set(known);
  const shown = known.length > 0 ? known : [...DEFAULT_CONTROLS];
  problems.push(
    `URL parameter \`controls\`: unknown control${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => JSON.stringify(n)).join(', ')} (known: ${CONTROL_NAMES.join(', ')}, or none); showing ${shown.join(', ')}`,
  );
  return new Set(shown);
}

/**
 * One origin: `https://host[:port]`, no path, query or fragment.
 * @param {string} text
 * @returns {string | null} the normalised origin, or null when it is not one
 */
export function parseOrigin(text) {
  let url;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.origin;
}

/**
 * The `origin=` list (comma-separated). Bad entries are reported and
 * skipped; with none left, only the embed's own origin is allowed.
 * @param {string | null} text
 * @param {string} own the embed's own origin
 * @param {string[]} problems
 * @returns {string[]}
 */
function parseOrigins(text, own, problems) {
  if (text === null) return [own];
  /** @type {string[]} */
  const out = [];
  /** @type {string[]} */
  const bad = [];
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const origin = parseOrigin(part);
    if (origin === null) bad.push(part.trim());
    else if (!out.includes(origin)) out.push(origin);
  }
  if (bad.length > 0 || out.length === 0) {
    const fallback = out.length > 0 ? `allowing ${out.join(', ')}` : `allowing only this page's own origin (${own})`;
    problems.push(
      `URL parameter \`origin\`: ${bad.length > 0 ? `${bad.map((b) => JSON.stringify(b)).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not an origin` : 'is empty'} (write origins like https://notes.example.edu, comma-separated; "*" is not accepted); ${fallback}`,
    );
  }
  return out.length > 0 ? out : [own];
}

/**
 * Reads the embed parameters of an address.
 * @param {string} search `location.search`
 * @param {string} ownOrigin `location.origin`
 * @param {{min: number, max: number}} speeds the allowed play speeds
 * @returns {EmbedRequest}
 */
export function readEmbedRequest(search, ownOrigin, speeds) {
  const params = new URLSearchParams(search);
  /** @type {string[]} */
  const problems = [];

  let fromMs = 0;
  const fromText = params.get('from');
  if (fromText !== null) {
    const ms = parseMs(fromText);
    if (ms === null) {
      problems.push(`URL parameter \`from\`: must be a time in ms, 0 or more, got ${JSON.stringify(fromText)}; using 0`);
    } else {
      fromMs = ms;
    }
  }

  /** @type {number | 'end'} */
  let to = 'end';
  const toText = params.get('to');
  if (toText !== null && toText.trim() !== 'end') {
    const ms = parseMs(toText);
    if (ms === null) {
      problems.push(
        `URL parameter \`to\`: must be a time in ms, 0 or more, or "end", got ${JSON.stringify(toText)}; using the run's end`,
      );
    } else if (ms < fromMs) {
      problems.push(`URL parameter \`to\`: ${ms} ms is before \`from\` (${fromMs} ms); using the run's end`);
    } else {
      to = ms;
    }
  }

  /** @type {number | null} */
  let speed = null;
  const speedText = params.get('speed');
  if (speedText !== null) {
    const v = Number(speedText.trim());
    if (speedText.trim() === '' || !Number.isFinite(v) || v < speeds.min || v > speeds.max) {
      problems.push(
        `URL parameter \`speed\`: must be simulated ms per real ms from ${speeds.min} to ${speeds.max}, got ${JSON.stringify(speedText)}; playing the range in about ${RANGE_PLAY_MS / 1000} s`,
      );
    } else {
      speed = v;
    }
  }

  return {
    controls: parseControls(params.get('controls'), problems),
    fromMs,
    to,
    autoplay: parseSwitch(params, 'autoplay', problems),
    loop: parseSwitch(params, 'loop', problems),
    speed,
    origins: parseOrigins(params.get('origin'), ownOrigin, problems),
    problems,
  };
}
