// @ts-check
/**
 * Saving files from the page: a Blob handed to the browser as a download
 * (an `<a download>` clicked once), and the file names the exports share
 * (`election-bully-n8-seed3-at1234ms.trace.json`), so a course note's
 * figure and its numbers are easy to pair up.
 * @module download
 */

/**
 * Offers `blob` as a download named `name`.
 * @param {Blob} blob
 * @param {string} name
 */
export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the next task; the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Offers `text` as a download.
 * @param {string} text
 * @param {string} name
 * @param {string} type MIME type
 */
export function saveText(text, name, type) {
  saveBlob(new Blob([text], { type: `${type};charset=utf-8` }), name);
}

/**
 * The common start of export file names: algorithm, nodes, seed and, when
 * not at 0, the moment (`at1234.5ms`).
 * @param {import('../player/model.js').Playground} pg
 * @param {boolean} [withTime] include the current time
 * @returns {string}
 */
export function fileStem(pg, withTime = true) {
  const stem = `election-${pg.algorithm()}-n${pg.node_count()}-seed${pg.seed()}`;
  const now = pg.now_ms();
  return withTime && now > 0 ? `${stem}-at${now}ms` : stem;
}
