// @ts-check
/**
 * Base64 text to bytes: the one decoder, for a share link's data
 * (shared/player-wasm.js, the URL-safe alphabet) and a standalone page's
 * inline wasm (standalone/inlined.js, the plain one).
 * @module shared/base64
 */

/**
 * The bytes of base64 text, padded or not. Throws on anything else.
 * @param {string} text
 * @param {boolean} [urlSafe] the URL-safe alphabet (`-` and `_`; a share
 *   link's), not the plain one (the inline wasm's, a megabyte not worth
 *   rewriting)
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function base64Bytes(text, urlSafe = false) {
  const binary = atob(urlSafe ? text.replace(/-/g, '+').replace(/_/g, '/') : text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
