// @ts-check
/**
 * "Copy embed code": an `<iframe>` snippet for course notes that shows
 * what the page shows (the scenario, faults included, as a share link, at
 * the current moment; in compare mode the same comparison) as an embed
 * (`embed=1`, docs/embed.html). The button puts it on the clipboard and
 * says so in its status line; the snippet also stands in a read-only
 * field, selected, to copy by hand where the clipboard is not allowed.
 *
 * ## Copy embed code
 *
 * **Copy embed code** (`shared/embed-code.js`, wired in `stage/page.js` for
 * Share and in `compare/compare.js` for compare mode) writes an `<iframe>`
 * whose address is the page's own with `embed=1`, `at=` (and `to=` when the
 * moment is after
 * the run's end, where an embed's range ends by default), `compare=` in
 * compare mode, and the scenario as a share fragment.
 * @module shared/embed-code
 */

/** The frame's size for one view, and for a comparison (views side by side and the table). */
export const SINGLE_SIZE = Object.freeze({ width: 640, height: 420 });
export const COMPARE_SIZE = Object.freeze({ width: 860, height: 560 });

/**
 * What a snippet shows.
 * @typedef {object} EmbedTarget
 * @property {string} fragment the share fragment (`s=1.…`,
 *   `Playground.share_fragment()`)
 * @property {number} atMs the moment it opens at (0: the start)
 * @property {number | null} toMs the end of the embed's range when the
 *   moment is after the run's own end (an embed's range ends there by
 *   default, and would clamp the moment); null otherwise
 * @property {string[]} [compare] the algorithms compared, if a comparison
 * @property {string} title what the frame shows, for its `title` (read
 *   by screen readers)
 */

/**
 * The embed's address: this page's own address with `embed=1`, the
 * comparison and the moment, and the scenario as a share link.
 * @param {EmbedTarget} target
 * @param {string} [page] the page's address (`location.href`)
 * @returns {string}
 */
export function embedAddress(target, page = window.location.href) {
  const url = new URL(page);
  const params = new URLSearchParams();
  params.set('embed', '1');
  if (target.compare) params.set('compare', target.compare.join(','));
  if (target.atMs > 0) params.set('at', String(target.atMs));
  if (target.toMs !== null) params.set('to', String(target.toMs));
  url.search = `?${params.toString().replace(/%2C/gi, ',')}`;
  url.hash = target.fragment;
  return url.href;
}

/**
 * Text for an HTML attribute value in double quotes.
 * @param {string} text
 * @returns {string}
 */
function attribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The `<iframe>` snippet for a target.
 * @param {EmbedTarget} target
 * @param {string} [page] the page's address
 * @returns {string}
 */
export function iframeSnippet(target, page = window.location.href) {
  const size = target.compare ? COMPARE_SIZE : SINGLE_SIZE;
  return (
    `<iframe src="${attribute(embedAddress(target, page))}" title="${attribute(target.title)}"` +
    ` width="${size.width}" height="${size.height}" style="border: 1px solid #ccc; max-width: 100%;" loading="lazy"></iframe>`
  );
}

/**
 * The target for a run as it stands: its scenario and moment (the
 * instant finished first, as a share link opens after every event at its
 * time), titled with the algorithm's name, or the comparison's names.
 * @param {import('../pkg/election_player.js').Playground} pg
 * @param {{id: string, name: string}[]} algorithms every algorithm
 * @param {string[]} [compare] the algorithms compared, if a comparison
 * @returns {EmbedTarget}
 */
export function targetOf(pg, algorithms, compare) {
  pg.run_until_ms(pg.now_ms());
  const scenario = JSON.parse(pg.scenario_json());
  const name = (/** @type {string} */ id) => algorithms.find((a) => a.id === id)?.name ?? id;
  const what = compare ? `${compare.map(name).join(' vs ')} compared` : name(scenario.algorithm);
  const atMs = pg.now_ms();
  return {
    fragment: pg.share_fragment(),
    atMs,
    toMs: atMs > pg.end_ms() ? atMs : null,
    compare,
    title: `Election Playground: ${what}, ${scenario.nodes} nodes, seed ${pg.seed()}`,
  };
}

/**
 * Wires a "Copy embed code" button to its field and status line.
 * @param {{button: HTMLElement, field: HTMLTextAreaElement, status: HTMLElement}} parts
 * @param {() => EmbedTarget} current what the page shows now (called on
 *   each click)
 */
export function wireEmbedCode(parts, current) {
  const { button, field, status } = parts;
  button.addEventListener('click', async () => {
    const code = iframeSnippet(current());
    field.value = code;
    field.hidden = false;
    field.select();
    try {
      await navigator.clipboard.writeText(code);
      status.textContent = 'Embed code copied: paste it into your course notes (an iframe of this scenario, at this moment).';
    } catch {
      status.textContent = 'Copying was not allowed here: the embed code is selected below, copy it by hand.';
    }
  });
}
