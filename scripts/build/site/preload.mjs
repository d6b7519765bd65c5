// The inline script of the built index.html that loads the page's bundle
// and preloads the wasm player module the address needs
// (scripts/build/site/build.mjs, top comment), once the first paint (the
// first picture, www/first/picture.js) is done: a static `<link
// rel=preload>` can name one module only, and the page has one per
// algorithm family. The script runs while the HTML is parsed: it
// reads `compare=` (the compare module), else `algorithm=`, else
// `preset=`, from the address with the table the
// wasm build wrote (www/pkg/modules.js; the same rule as
// www/shared/player-wasm.js moduleForAddress); after the first paint it
// adds a preload of that module's wasm and a modulepreload of its glue
// chunk and of the bundle's static chunks, and the bundle's module
// script, so all of them download together. A `#s=` share link that names neither
// preloads nothing: the module its scenario needs is known only once the
// link is inflated, which takes a promise (player-wasm.js moduleForLink;
// the page then loads that module). The
// page's Content-Security-Policy allows the script by its sha256 hash. Its
// work done, it takes itself out of the document, which then holds no
// inline script (what tests/browser/hostile.test.js looks for).
//
// ## The preload script
//
// **The preload script** (`scripts/build/site/preload.mjs`). The first
// render needs the player module of the address's algorithm family
// (www/shared/player-wasm.js, Which module plays a run), and a static `<link
// rel=preload>` can name only one. So the built `index.html` has, where
// the source has `<!-- wasm-preload -->`, one small inline script, allowed
// by its sha256 in the page's Content-Security-Policy, that reads
// `algorithm=`, else `preset=`, from the address with the table the wasm
// build wrote (`www/pkg/modules.js`, the same rule as
// `shared/player-wasm.js` `moduleForAddress`) and adds a `preload` of that
// module's hashed wasm (`as=fetch`, `crossorigin`, what the glue's fetch
// matches) and a `modulepreload` of its glue chunk; the default module's
// otherwise. A `#s=` share link that names neither preloads nothing: the
// page inflates the link with the browser's `DecompressionStream` (at most
// 64 KiB, the core's limit) to read its `algorithm` and loads that module
// first (`moduleForLink`); the core then reads the link in full. Where that
// fails (an old browser, a damaged link) the default module loads and
// `openRun` moves to the module the core names. The development page (`DEV=1`)
// has no preload: the line is only a comment there.
//
// **After the first paint** (issue 30): the page's bundle and the wasm are
// asked for in the task after the first frame, not by tags the browser's
// preload scanner finds while the HTML arrives. The first paint (the
// inline style sheet and the first picture) then waits for no other
// request and shares the link with none; on the slow profile the HTML is
// what the link carries until then anyway. Lighthouse's simulated mobile
// load counts a script or a preload fetched before the first paint as
// holding it (its LCP went from 1.0 to 3.2 s by the 245 KB wasm).
//
// **Except a compare link or an embed**, which the first picture never
// draws (www/first/scenario.js): nothing of theirs is drawn before the
// wasm is in, so the script asks for their module (the compare module
// or the family's player) at once, while the rest of the HTML arrives,
// and the bundle after the first frame as elsewhere (a module script
// run before the document is parsed would find half a page). A/B, cold,
// 5 Mbps, to ready: a compare link 1.18 to 1.07 s, an embed 0.85 to
// 0.74 s (docs/PERFORMANCE.md, Panels).
import { createHash } from 'node:crypto';

/**
 * The script's text.
 * @param {{algorithmModule: Record<string, string>, presetModule: Record<string, string>, defaultModule: string,
 *   compareModule: string, files: Record<string, {wasm: string, glue: string}>, page: {script: string, chunks: string[]}}} table
 *   module names (`compareModule`: the one a `compare=` address opens with);
 *   each player module's wasm and glue chunk as URLs relative to the page; the page's bundle and the chunks it
 *   imports statically
 * @returns {string}
 */
export function preloadScript(table) {
  const players = new Set([
    ...Object.values(table.algorithmModule),
    ...Object.values(table.presetModule),
    table.defaultModule,
    table.compareModule,
  ]);
  /** @type {Record<string, [string, string]>} */
  const files = {};
  for (const name of [...players].sort()) {
    const f = table.files[name];
    if (!f) throw new Error(`preload: no built wasm or glue chunk for the module ${name}`);
    files[name] = [f.wasm, f.glue];
  }
  const data = JSON.stringify({ a: table.algorithmModule, p: table.presetModule, d: table.defaultModule, c: table.compareModule, f: files, m: table.page });
  if (/<\/script|<!--/i.test(data)) throw new Error('the table cannot be inlined as is');
  return (
    `(()=>{const t=${data},q=new URLSearchParams(location.search),` +
    `k=(m,v)=>(v=(q.get(v)||'').trim())&&Object.hasOwn(t[m],v)?t[m][v]:null,` +
    `n=q.has('compare')?t.c:k('a','algorithm')||k('p','preset'),` +
    `s=new URLSearchParams(location.hash.slice(1)).has('s'),` +
    `f=t.f[n||t.d]||t.f[t.d],` +
    `l=(r,h,w)=>{const e=document.createElement('link');e.rel=r;e.href=h;` +
    `if(w){e.as='fetch';e.type='application/wasm';e.crossOrigin='anonymous'}document.head.append(e)},` +
    `w=()=>{if(n||!s){l('preload',f[0],1);l('modulepreload',f[1])}},` +
    `b=()=>{for(const c of t.m.chunks)l('modulepreload',c);` +
    `const e=document.createElement('script');e.type='module';e.src=t.m.script;document.head.append(e)};` +
    `if(q.has('compare')||q.get('embed')?.trim()==='1'){w();requestAnimationFrame(()=>setTimeout(b,0))}` +
    `else requestAnimationFrame(()=>setTimeout(()=>{w();b()},0));document.currentScript?.remove()})()`
  );
}

/**
 * The CSP source expression of an inline script or style sheet:
 * `'sha256-<base64>'`.
 * @param {string} text
 * @returns {string}
 */
export function scriptHash(text) {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
