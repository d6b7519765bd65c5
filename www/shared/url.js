// @ts-check
/**
 * The page's address: what it asks for on load and what Share writes.
 *
 * Scenario parameters (`?algorithm=bully&nodes=8`, `#s=1.<data>`) are read
 * by the core (`Playground.from_url`); this module only handles the page's
 * own parameters `at` (`at=<ms>` or `at=end`: open the run at that time,
 * paused), `present` (`present=1`: presentation mode, player/present.js)
 * and `predict` (`predict=1`: Predict mode, ask/predict.js) and writes links. `compare` (compare.js), `preset` (presets.js), `lab`
 * and `template` (lab/open.js) are the page's too.
 * @module url
 */

/** The parameters of embed mode (besides the scenario's and the page's `at`, `preset`). */
export const EMBED_PARAMS = Object.freeze(['embed', 'controls', 'from', 'to', 'autoplay', 'loop', 'speed', 'origin']);

/**
 * Whether the address asks for embed mode (`embed=1`).
 * @param {string} search `location.search`
 * @returns {boolean}
 */
export function isEmbed(search) {
  // Only the documented value (docs/embed.html): any other is said and
  // the full page opens (readPage's problems).
  return new URLSearchParams(search).get('embed')?.trim() === '1';
}

/**
 * The `compare` parameter of an address (null when there is none).
 * @param {string} search `location.search`
 * @returns {string | null}
 */
export function compareParam(search) {
  return new URLSearchParams(search).get('compare');
}

/**
 * What the address asks for.
 * @typedef {object} PageRequest
 * @property {string} query `location.search`
 * @property {string} fragment `location.hash`
 * @property {number | 'end' | null} at where to open the run (null: start)
 * @property {boolean} [present] whether to open in presentation mode (`present=1`)
 * @property {boolean} [predict] whether to open in Predict mode (`predict=1`,
 *   or a list of question kinds to ask, `predict=leader,split_brain`)
 * @property {string[] | null} [predictKinds] the kinds `predict=` lists
 *   (null: the core's choice at each moment)
 * @property {string[]} problems readable problems with page parameters
 * @property {string} [scenario] scenario JSON that the page opens instead
 *   of the address's (a standalone page's inline scenario,
 *   www/standalone/inlined.js)
 * @property {string} [lesson] the `#l=` link of a lesson the page shows
 *   instead of the address's (a standalone page's inline lesson;
 *   `scenario` is then the lesson's run)
 */

/** Parameters of the page itself (not scenario fields). */
const PAGE_PARAMS = ['at', 'compare', 'preset', 'present', 'predict', 'tradeoffs', 'lab', 'template'];

/** What a `template=` id of the lab looks like (which ids exist, the lab knows). */
export const TEMPLATE_ID = /^[a-z0-9-]{1,40}$/;

/** Latest time `at` may name: one day, as for any scenario time. */
const MAX_AT_MS = 86_400_000;

/**
 * Text from the address as a message may quote it: control and
 * bidirectional-override characters escaped (`\u{202e}`), so it cannot
 * reverse or hide the words around it, and at most 80 characters.
 * @param {string} text
 * @returns {string}
 */
export function printable(text) {
  const chars = [...text];
  const shown = chars
    .slice(0, 80)
    .map((c) =>
      /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(c)
        ? `\\u{${c.codePointAt(0)?.toString(16)}}`
        : c,
    )
    .join('');
  return chars.length > 80 ? `${shown}…` : shown;
}

/**
 * Reads the current address.
 * @param {string[]} scenarioParams the query parameters the core reads
 * @param {Location} [where]
 * @returns {PageRequest}
 */
export function readAddress(scenarioParams, where = window.location) {
  const params = new URLSearchParams(where.search);
  /** @type {string[]} */
  const problems = [];
  /** @type {number | 'end' | null} */
  let at = null;
  const atText = params.get('at');
  if (atText !== null) {
    const trimmed = atText.trim();
    // Plain decimals only: Number() would also take "0x10" or "1e23".
    const ms = /^\d{1,9}(\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
    if (trimmed === 'end') {
      at = 'end';
    } else if (ms <= MAX_AT_MS) {
      at = ms;
    } else {
      problems.push(
        `URL parameter \`at\`: must be a time in ms from 0 to ${MAX_AT_MS} or "end", got "${printable(atText)}"; starting at 0`,
      );
    }
  }
  let present = false;
  const presentText = params.get('present');
  if (presentText !== null) {
    const v = presentText.trim().toLowerCase();
    if (v === '' || v === '1' || v === 'true') present = true;
    else if (v !== '0' && v !== 'false') {
      problems.push(`URL parameter \`present\`: must be 1 or 0, got "${printable(presentText)}"; not presenting`);
    }
  }
  let predict = false;
  /** @type {string[] | null} */
  let predictKinds = null;
  const predictText = params.get('predict');
  if (predictText !== null) {
    const v = predictText.trim().toLowerCase();
    if (v === '' || v === '1' || v === 'true') predict = true;
    else if (/^[a-z_]+(,[a-z_]+)*$/.test(v) && v !== 'false') {
      // Which kinds to ask (ask/predict.js names a kind the core does not know).
      predict = true;
      predictKinds = v.split(',');
    } else if (v !== '0' && v !== 'false') {
      problems.push(
        `URL parameter \`predict\`: must be 1, 0 or question kinds (such as leader,split_brain), got "${printable(predictText)}"; Predict is off`,
      );
    }
  }
  // `tradeoffs=1` opens the trade-offs panel (tradeoffs/open.js reads it).
  const tradeoffsText = params.get('tradeoffs');
  if (tradeoffsText !== null && !['0', '1'].includes(tradeoffsText.trim())) {
    problems.push(`URL parameter \`tradeoffs\`: must be 1 or 0, got "${printable(tradeoffsText)}"; the trade-offs panel stays closed`);
  }
  // `lab=1` and `template=<id>` open the lab (lab/open.js reads them).
  const labText = params.get('lab');
  if (labText !== null && !['0', '1'].includes(labText.trim())) {
    problems.push(`URL parameter \`lab\`: must be 1 or 0, got "${printable(labText)}"; the lab stays closed`);
  }
  const templateText = params.get('template');
  if (templateText !== null && !TEMPLATE_ID.test(templateText)) {
    problems.push(
      `URL parameter \`template\`: must be the id of a script in the lab (such as ring-exercise), got "${printable(templateText)}"; the lab stays closed`,
    );
  }
  const embedText = params.get('embed');
  if (embedText !== null && !['0', '1'].includes(embedText.trim())) {
    problems.push(`URL parameter \`embed\`: must be 1 or 0, got "${printable(embedText)}"; the full page opens`);
  }
  const known = new Set([...scenarioParams, ...PAGE_PARAMS]);
  for (const key of new Set(params.keys())) {
    if (EMBED_PARAMS.includes(key)) {
      // embed/params.js reads and checks these in embed mode.
      if (key !== 'embed' && !isEmbed(where.search)) {
        problems.push(`URL parameter \`${key}\` only applies to an embedded figure (add embed=1); ignored`);
      }
    } else if (!known.has(key)) {
      problems.push(
        `URL parameter \`${printable(key)}\` is not known and was ignored (known: ${[...known].join(', ')})`,
      );
    }
  }
  return { query: where.search, fragment: where.hash, at, present, predict, predictKinds, problems };
}

/**
 * Puts the full scenario into the address (`?at=<ms>#s=...`, opening at
 * `atMs` paused) without reloading, and returns the new address.
 * @param {string} fragment `s=1.<data>` from `Playground.share_fragment()`
 * @param {number} atMs
 * @param {boolean} [push] as a new history entry (Back returns to the
 *   address before), instead of replacing the current one
 * @returns {string}
 */
export function writeShareAddress(fragment, atMs, push = false) {
  const query = atMs > 0 ? `?at=${atMs}` : '';
  const url = new URL(`${window.location.pathname}${query}#${fragment}`, window.location.href);
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
  return url.href;
}

/**
 * Puts readable settings into the address (`?algorithm=..&nodes=..`),
 * dropping any share fragment (the settings replace that scenario).
 * @param {string} query without the `?`
 */
export function writeSettingsAddress(query) {
  const url = new URL(`${window.location.pathname}?${query}`, window.location.href);
  history.replaceState(null, '', url);
}

/**
 * Puts `present=1` into the address, or takes it out, leaving the rest
 * as it is (no reload, no new history entry).
 * @param {boolean} on
 */
export function writePresentAddress(on) {
  writeFlagAddress('present', on);
}

/**
 * Puts `<name>=<value>` into the address, or takes it out, leaving the
 * rest as it is (no reload, no new history entry): `present`, `predict`.
 * @param {'present' | 'predict'} name
 * @param {boolean} on
 * @param {string} [value]
 */
export function writeFlagAddress(name, on, value = '1') {
  const flag = new RegExp(`^${name}(=|$)`);
  const kept = window.location.search
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => part !== '' && !flag.test(part));
  if (on) kept.push(`${name}=${value}`);
  const query = kept.length > 0 ? `?${kept.join('&')}` : '';
  const url = `${window.location.pathname}${query}${window.location.hash}`;
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    history.replaceState(history.state, '', url);
  }
}
