// @ts-check
/**
 * The lab: write an election algorithm as a script (Rhai) and run it in
 * the page's views. A template picker (the built-in Chang-Roberts and
 * Bully as scripts, exercise skeletons with TODOs and what a correct
 * solution must show: the wasm's `script_templates()`), the editor
 * (editor.js), Run (the script becomes the single view's scenario,
 * `"algorithm": "script"`, with the page's nodes, seed, ring, start and
 * faults, so every view, fault, compare mode, export, experiment and the
 * failure finder work on it, and its link carries it), Reset (back to
 * the template, undoable), and script errors at their line and in words
 * (node, handler, simulated time). Drafts are kept per template
 * (drafts.js). Loaded by lab/open.js the first time the lab opens; runs
 * on the lab's wasm module (shared/panel-wasm.js; the player modules run
 * no scripts).
 *
 * ## The lab
 *
 * The page's side of scripted algorithms (`www/lab/`, the user's guide is
 * docs/lab.md): an editor, the shipped scripts, and Run, which makes the
 * script the single view's run. The lab decides nothing about a script:
 * the lab's module compiles it (`script_check`), runs it and reports its
 * error (`Playground.script_error()`); the lab shows what it says.
 *
 * ```
 *  lab/open.js (first render: the Lab button, lab=1, template=, a script's link)
 *    | first opening: import('./panel.js')  (+ CodeMirror; beside it the lab's wasm module)
 *    v
 *  lab/panel.js  picker (script_templates()) . editor.js . Run . Reset . errors
 *    | Run: the page's scenario JSON (shared/page-scenario.js) with
 *    |      "algorithm": "script", "script": <editor text>
 *    |   -> shared/player-wasm.js playgroundFor (the lab's module runs scripts)
 *    |   -> pageRun().load(pg): stage/page.js adopt (every view, the address's #s=)
 *    v
 *  pageRun().model.onChange: a new run whose script is not the editor's
 *    (a link, Back) -> shown in the editor; a run's script_error() -> at its line
 * ```
 *
 * - **Loading.** `index.html` carries the Lab button, the empty section and
 *   `lab/open.js`, which imports nothing of the lab: the panel, the editor,
 *   CodeMirror and the lab's module load on the first opening (a dynamic
 *   `import()`: in the site build a chunk of its own; the browser test
 *   `lab.test.js` checks that no file of a plain page load holds
 *   CodeMirror). `open.js` opens the lab for `lab=1`, `template=<id>`, and
 *   when the page opens an address whose run is a script (at start-up, and
 *   after a `popstate`/`hashchange` once the page has made the new run).
 * - **The editor** (`editor.js`) is CodeMirror 6 from npm, pinned in
 *   package.json and bundled by `scripts/build/vendor.sh` with esbuild into
 *   one ES module, `www/vendor/codemirror/codemirror.js` (with its `.d.ts`
 *   for tsc and the bundled packages' licences; the site ships them as
 *   `licenses/CodeMirror.LICENSE.txt`; `vendor.sh --check` bundles again
 *   and compares bytes). The names used are those
 *   `scripts/build/codemirror/entry.js`
 *   exports. It is mounted in a **shadow root**: CodeMirror writes its
 *   style rules into a `<style>` element in a document, which the CSP
 *   (`style-src 'self'`) refuses, but into a constructed style sheet in a
 *   shadow root, which it allows; the page's CSS variables inherit into it,
 *   so its theme (`EditorView.theme` in editor.js, the `--code-*` colours
 *   in lab.css) follows light and dark. Typing over a selection is done as
 *   an edit (a `beforeinput` handler), since Chromium's own merge of the
 *   selected lines writes style attributes the CSP refuses. A key typed in
 *   the editor reaches the page's shortcuts from the shadow host:
 *   `keyBelongsTo` (player/shortcuts.js) looks at the element focused inside.
 *   Highlighting (`rhai-mode.js`) is a stream tokenizer: keywords, strings,
 *   numbers, nested block comments, the name after `fn`, `this`, properties.
 * - **Errors at their line.** While typing, a linter (400 ms after the last
 *   key) asks `script_check(text)`. A run is deterministic, so the error
 *   that will stop it is known at Run: on every new run or revision (Run,
 *   a link, the finder's counterexample, a live fault, Restart) the lab
 *   asks `script_error_ahead()` (found with the run's end, on a side run)
 *   and shows it beside the editor in words ("This script stops at 150 ms:
 *   n0's on_timer, line 81: ...") and, while the editor holds the script
 *   that ran, at its line; a run without one clears it. The status line is
 *   rewritten then too: the views' scenario, and where it stops. A column the core does not know underlines the whole line. A
 *   script that does not compile is not run (the page keeps its run); a
 *   scenario error (a script too long for its link names `script`) is said
 *   the same way.
 * - **Run** takes the page's scenario (`pageScenarioJson()`: nodes, seed,
 *   ring, start, network and faults, clicked ones included), sets
 *   `algorithm` and `script`, and hands the run to the page (`stage/page.js`)
 *   through
 *   `shared/page-scenario.js` (`providePageRun`: the model and `load`,
 *   which is `adopt`: every view, the form, the faults, the address's
 *   `#s=` link). The settings form shows `script` as an algorithm of its
 *   own while a script runs (`player/controls.js`), and a settings change
 *   keeps the script and writes its share link, not readable parameters.
 *   **Run on its scenario** uses the template's `scenario` fields instead.
 *   **Compare with** opens `?compare=script,<id>#s=...`; **Find a failure…**
 *   opens the finder, which offers "The page's script" while the page shows
 *   one and sends its source in the request (`finder/panel.js`).
 * - **Drafts** (`drafts.js`, localStorage `election-playground-lab:<slot>`):
 *   the editor's text per template id, the last slot open, and the slot
 *   `link` for a script a link brought (kept with that script, so another
 *   link's script does not take its edits). A link whose script equals the
 *   last slot's draft opens in that slot. Reset replaces the text as one
 *   edit (Ctrl+Z undoes it) and forgets the draft. Storage refused or full
 *   is ignored.
 * - **Tests** (`tests/browser/lab.test.js`, against `dist/`): the
 *   Chang-Roberts template equals `election run --script` (counts, leader,
 *   trace hash); a syntax error at its line, the page still playing, the
 *   text back after a reload; an endless loop's named error; a link (in a
 *   fresh context) and a teacher's `template=` link; a script too long for
 *   its link; the first render's requests; Find a failure on a broken
 *   script equals `election check --script` and its link reopens the
 *   script. While a test holds the play clock the editor's box offers
 *   `__script()` (the whole text; CodeMirror draws only the lines in view).
 * @module lab/panel
 */

import { h, messageOf, setText } from '../shared/dom.js';
import { pageRun, pageScenarioJson } from '../shared/page-scenario.js';
import { playgroundFor } from '../shared/player-wasm.js';
import { ALGORITHMS, SCRIPT_TEMPLATES } from '../pkg/panel-data.js';
import { TEMPLATE_ID } from '../shared/url.js';
import { LINK_SLOT, dropDraft, lastSlot, loadDraft, saveDraft } from './drafts.js';
import { createEditor } from './editor.js';

/**
 * A shipped script (`script_templates()`).
 * @typedef {object} Template
 * @property {string} id
 * @property {string} name
 * @property {'template' | 'exercise'} kind
 * @property {string} description
 * @property {string} scenario JSON text of the scenario fields it is meant to run with
 * @property {string} source
 */

/**
 * A script error as the wasm reports it (a run's, or a compile error
 * with node, handler and time null).
 * @typedef {object} ScriptError
 * @property {number | null} node
 * @property {string | null} handler
 * @property {number | null} line
 * @property {number | null} column
 * @property {number | null} at_ms
 * @property {string} message
 */

/**
 * `line 3, column 7` (or less, when unknown).
 * @param {ScriptError} e
 * @returns {string}
 */
function where(e) {
  if (e.line === null) return '';
  return e.column === null ? `line ${e.line}` : `line ${e.line}, column ${e.column}`;
}

/**
 * A run's script error in words: when the script stops, which node, in
 * which handler, at which line, and why ("This script stops at 150 ms:
 * n0's on_timer, line 81: Function not found: brodcast"). The run is
 * deterministic, so this is said at Run, before playback reaches it.
 * @param {ScriptError} e
 * @returns {string}
 */
export function describeRunError(e) {
  const when = e.at_ms === null ? '' : ` at ${e.at_ms} ms`;
  const who = e.node === null ? (e.handler ?? '') : `n${e.node}'s ${e.handler ?? 'handler'}`;
  const at = where(e);
  const place = [who, at].filter((p) => p !== '').join(', ');
  return `This script stops${when}: ${place ? `${place}: ` : ''}${e.message}`;
}

/**
 * The scenario fields a template is meant to run with, in words.
 * @param {Record<string, any>} s
 * @returns {string}
 */
function scenarioWords(s) {
  const parts = [];
  if (s.nodes !== undefined) parts.push(`${s.nodes} nodes`);
  if (s.ring !== undefined) parts.push(`${s.ring} ring`);
  if (s.start === 'all') parts.push('every node starting');
  else if (s.start === 'none') parts.push('nobody starting (a timeout starts it)');
  else if (Array.isArray(s.start)) parts.push(`${s.start.map((/** @type {number} */ i) => `n${i}`).join(', ')} starting`);
  for (const f of s.faults ?? []) {
    const [kind, target] = Object.entries(f).find(([k]) => k !== 'at_ms') ?? ['fault', ''];
    const whom = target === 'leader' ? ' the leader' : typeof target === 'number' ? ` n${target}` : '';
    parts.push(`${kind}${whom} at ${f.at_ms} ms`);
  }
  return parts.join(', ');
}

/**
 * Opens an address of this page as a link would, without a reload (as
 * the finder opens its counterexample): stage/page.js reopens from it.
 * @param {string} search `?...` or ''
 * @param {string} hash `#...`
 */
function openAddress(search, hash) {
  history.pushState(null, '', new URL(`${window.location.pathname}${search}${hash}`, window.location.href));
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/**
 * Builds the lab inside `section`: at once, with the shipped scripts the
 * build wrote (www/pkg/panel-data.js); what needs the lab's wasm module
 * (checking the script, Run) waits for it, which loads meanwhile.
 * @param {HTMLElement} section
 * @param {() => void} close
 * @param {Promise<import('../shared/panel-wasm.js').LabWasm>} lab the lab's
 *   wasm module, loading (shared/panel-wasm.js)
 * @returns {Promise<{focus: () => void}>}
 */
export async function createLab(section, close, lab) {
  /** The lab's wasm module once it is in: until then nothing is checked. @type {import('../shared/panel-wasm.js').LabWasm | null} */
  let tools = null;
  // Until the lab's module is in (about 700 KB gzip: a second on 5 Mbps,
  // a few on a phone's link) the status line says so, and what a Run
  // pressed meanwhile does (`runWaiting`).
  let runWaiting = false;
  let loadFailed = false;
  const page = pageRun();
  if (!page) throw new Error('the page has no single view to run a script in');
  const templates = /** @type {Template[]} */ (SCRIPT_TEMPLATES);
  const byId = new Map(templates.map((t) => [t.id, t]));
  const algorithms = ALGORITHMS;

  // ---- the markup
  const title = h('h2', { id: 'lab-title', tabindex: -1 }, 'Lab: your own election algorithm');
  const closeButton = h('button', { type: 'button', 'data-testid': 'lab-close' }, 'Close lab');
  closeButton.addEventListener('click', close);
  const picker = /** @type {HTMLSelectElement} */ (h('select', { id: 'lab-template', 'data-testid': 'lab-template' }));
  const groups = {
    template: h('optgroup', { label: 'Algorithms written as scripts' }),
    exercise: h('optgroup', { label: 'Exercises (skeletons with TODOs)' }),
  };
  for (const t of templates) groups[t.kind].append(new Option(t.name, t.id));
  const linkOption = new Option('The script from the link', LINK_SLOT);
  linkOption.hidden = true;
  picker.append(groups.template, groups.exercise, linkOption);
  const runButton = h('button', { type: 'button', class: 'lab-run', 'data-testid': 'lab-run', 'aria-keyshortcuts': 'Control+Enter' }, 'Run');
  const ownButton = h('button', { type: 'button', 'data-testid': 'lab-run-own' }, 'Run on its scenario');
  const resetButton = h('button', { type: 'button', 'data-testid': 'lab-reset' }, 'Reset');
  const compareWith = /** @type {HTMLSelectElement} */ (h('select', { 'data-testid': 'lab-compare-with', 'aria-label': 'Algorithm to compare with' }));
  for (const a of algorithms) compareWith.append(new Option(a.name, a.id, false, a.id === 'chang-roberts'));
  const compareButton = h('button', { type: 'button', 'data-testid': 'lab-compare' }, 'Compare with');
  const findButton = h('button', { type: 'button', 'data-testid': 'lab-find-failure' }, 'Find a failure…');
  const bar = h(
    'div',
    { class: 'lab-bar' },
    h('label', { class: 'lab-pick' }, 'Start from ', picker),
    runButton,
    ownButton,
    resetButton,
    h('span', { class: 'lab-compare' }, compareButton, compareWith),
    findButton,
  );
  const description = h('p', { class: 'lab-description', 'data-testid': 'lab-description' });
  const meant = h('p', { class: 'note', 'data-testid': 'lab-meant' });
  const errorBox = h('p', { class: 'lab-error', role: 'alert', 'data-testid': 'lab-error', hidden: true });
  const status = h('p', { class: 'note lab-status', role: 'status', 'data-testid': 'lab-status' });
  const editorBox = h('div', { class: 'lab-editor', 'data-testid': 'lab-editor' });
  const contract = h(
    'details',
    { class: 'lab-contract' },
    h('summary', {}, 'The contract (what a script may use)'),
    h(
      'ul',
      {},
      h('li', {}, h('code', {}, 'fn on_start(ctx)'), ', ', h('code', {}, 'fn on_message(ctx, from, msg)'), ', ', h('code', {}, 'fn on_timer(ctx, name)'), ': one node\'s handlers; ', h('code', {}, 'this'), ' is its state (empty at boot and after a crash), ', h('code', {}, 'ctx.persist'), ' survives a crash.'),
      h('li', {}, h('code', {}, 'ctx.id'), ', ', h('code', {}, 'ctx.n'), ', ', h('code', {}, 'ctx.peers'), ', ', h('code', {}, 'ctx.next'), ', ', h('code', {}, 'ctx.prev'), ', ', h('code', {}, 'ctx.starts'), ', ', h('code', {}, 'ctx.now_ms'), '.'),
      h('li', {}, h('code', {}, 'ctx.send(to, msg)'), ', ', h('code', {}, 'ctx.send_next(msg)'), ', ', h('code', {}, 'ctx.broadcast(msg)'), ' with ', h('code', {}, 'msg = #{ kind: "ELECTION", id: ctx.id }'), ' (', h('code', {}, 'background: true'), ' for heartbeats).'),
      h('li', {}, h('code', {}, 'ctx.set_timer(name, ms)'), ', ', h('code', {}, 'ctx.cancel_timer(name)'), ', ', h('code', {}, 'ctx.random(lo, hi)'), ', ', h('code', {}, 'ctx.random_timeout_us()'), ', ', h('code', {}, 'ctx.log(text)'), '.'),
      h('li', {}, h('code', {}, 'ctx.become_leader()'), ', ', h('code', {}, 'ctx.become_follower(id)'), ', ', h('code', {}, 'ctx.become_candidate()'), ', ', h('code', {}, 'ctx.set_term(t)'), ', ', h('code', {}, 'ctx.vote(term, id)'), '; optional ', h('code', {}, 'fn claims()'), ': "classical", "consensus" or "several_leaders".'),
    ),
    h('p', { class: 'note' }, 'The same script runs in the command line: ', h('code', {}, 'election run --script FILE'), ', ', h('code', {}, 'election check --script FILE'), '.'),
  );
  section.replaceChildren(
    h('div', { class: 'exp-head' }, title, closeButton),
    h(
      'p',
      { class: 'note' },
      'Write what one node does when it starts, receives a message or a timer fires. Run shows your script in the views below, on the page\'s nodes, seed, ring, start and faults (change them in Settings and Faults); every view, fault, Compare, export and the failure finder then work on it, and Copy link shares it. Ctrl+Enter runs.',
    ),
    bar,
    h('div', { class: 'lab-body' }, editorBox, h('div', { class: 'lab-side' }, errorBox, status, description, meant, contract)),
  );

  // ---- state
  /** The slot shown (a template id, or LINK_SLOT). */
  let slot = templates[0].id;
  /** The script a link brought (the link slot's base). @type {string | null} */
  let linkScript = null;
  /** The last compile check. @type {{text: string, error: ScriptError | null}} */
  let checked = { text: '', error: null };
  /** The error that stopped the page's run of `script`. @type {{script: string, error: ScriptError} | null} */
  let runError = null;

  /** @param {string} text @returns {ScriptError | null} */
  const compileError = (text) => {
    if (!tools) return null;
    if (checked.text !== text) checked = { text, error: /** @type {ScriptError | null} */ (tools.script_check(text)) };
    return checked.error;
  };
  /** @param {string} text */
  const showError = (text) => {
    errorBox.hidden = text === '';
    setText(errorBox, text);
  };
  /** @returns {string} the source a slot starts from */
  const sourceOf = (/** @type {string} */ id) => (id === LINK_SLOT ? (linkScript ?? '') : (byId.get(id)?.source ?? ''));

  const editor = createEditor(editorBox, {
    text: '',
    label: 'Script',
    changed(text) {
      saveDraft(slot, text, slot === LINK_SLOT ? (linkScript ?? undefined) : undefined);
    },
    errors(text) {
      const e = compileError(text);
      if (e) return [{ line: e.line, column: e.column, message: e.message }];
      if (runError && runError.script === text) {
        return [{ line: runError.error.line, column: runError.error.column, message: describeRunError(runError.error) }];
      }
      return [];
    },
    run: () => run(false),
  });
  /** The status line while the views run no script: empty once the lab's module is in (or could not load). */
  const sayIdle = () =>
    setText(
      status,
      tools || loadFailed ? '' : runWaiting ? 'Loading the script interpreter: your script runs as soon as it is in…' : 'Loading the script interpreter…',
    );
  sayIdle();
  // Once the lab's module is in, the script is checked.
  lab.then(
    (m) => {
      tools = m;
      sayIdle();
      editor.recheck();
    },
    (err) => {
      loadFailed = true;
      sayIdle();
      showError(`The lab's code could not load: ${messageOf(err)}`);
    },
  );

  /**
   * Shows slot `id` in the editor: its draft, or its source.
   * @param {string} id
   */
  const show = (id) => {
    slot = id;
    picker.value = id;
    linkOption.hidden = linkScript === null;
    const base = sourceOf(id);
    editor.setText(loadDraft(id, base) ?? base);
    saveDraft(id, editor.text(), id === LINK_SLOT ? base : undefined);
    const t = byId.get(id);
    setText(description, t ? t.description : 'The script that came with the link (the page\'s scenario). Reset goes back to it.');
    description.classList.toggle('lab-exercise', t?.kind === 'exercise');
    ownButton.hidden = !t;
    setText(meant, t ? `Meant to run with: ${scenarioWords(JSON.parse(t.scenario))}.` : '');
  };

  /** The page's run's script, when the page shows one. @returns {string | null} */
  const pageScript = () => {
    const json = pageScenarioJson();
    if (!json) return null;
    const s = JSON.parse(json);
    return s.algorithm === 'script' && typeof s.script === 'string' ? s.script : null;
  };

  /**
   * Shows a script the page opened (a link): in the slot it was written
   * in when a draft there is the same text, else in the link slot.
   * @param {string} script
   */
  const adoptPageScript = (script) => {
    if (script === editor.text()) return;
    const last = lastSlot();
    if (last && last !== LINK_SLOT && byId.has(last) && loadDraft(last) === script) {
      show(last);
      return;
    }
    linkScript = script;
    show(LINK_SLOT);
  };

  /**
   * Runs the editor's script in the page's views (made by the wasm
   * module that runs scripts, shared/player-wasm.js).
   * @param {boolean} own with the template's scenario instead of the page's
   * @returns {Promise<void>}
   */
  const run = async (own) => {
    if (!tools) {
      runWaiting = true;
      sayIdle();
    }
    try {
      tools ??= await lab;
    } catch (err) {
      showError(`Not run: the lab's code could not load: ${messageOf(err)}`);
      return;
    } finally {
      if (runWaiting) {
        runWaiting = false;
        sayIdle();
      }
    }
    const text = editor.text();
    const e = compileError(text);
    if (e) {
      showError(`Not run: ${where(e) || 'the script'}: ${e.message}`);
      editor.recheck();
      return;
    }
    /** @type {Record<string, any>} */
    const scenario = JSON.parse(pageScenarioJson() ?? '{"version": 1}');
    const t = byId.get(slot);
    if (own && t) Object.assign(scenario, { faults: [] }, JSON.parse(t.scenario));
    scenario.algorithm = 'script';
    scenario.script = text;
    let pg;
    try {
      pg = await playgroundFor(JSON.stringify(scenario));
    } catch (err) {
      showError(`Not run: ${messageOf(err)}`);
      return;
    }
    showError('');
    runError = null;
    page.load(pg);
    // The new run's status line and, the run being deterministic, the
    // error that will stop it (said now, not when playback reaches it).
    watch();
  };

  // ---- the page's run: a script from a link, the error that stops it, the status line
  let seenRevision = -1;
  /**
   * Says what the views run now: the scenario in words, and where the
   * script stops if it does (`script` null: not a script).
   * @param {any} pg the page's playground
   * @param {string | null} script
   * @param {ScriptError | null} e
   */
  const sayStatus = (pg, script, e) => {
    if (script === null) {
      sayIdle();
      return;
    }
    const s = JSON.parse(pg.scenario_json());
    const scene = `${scenarioWords(s)}, seed ${pg.seed()}${s.faults.length ? '' : ', no faults'}`;
    const next = e ? `It stops at ${e.at_ms} ms on the error above.` : 'Press Play, Step or To end.';
    setText(status, `Running in the views below: ${scene}. ${next}`);
  };
  /**
   * On each new run or revision (Run, a link, the finder's
   * counterexample, Back, a live fault, Restart): the script in the
   * editor, the error that stops this run or none (an old one is
   * cleared), the status line.
   */
  const watch = () => {
    const model = page.model;
    if (model.revision === seenRevision) return;
    seenRevision = model.revision;
    const script = pageScript();
    if (script !== null) adoptPageScript(script);
    const pg = /** @type {any} */ (model.playground);
    const e = /** @type {ScriptError | null} */ (
      script !== null && typeof pg.script_error_ahead === 'function' ? pg.script_error_ahead() : null
    );
    const had = runError !== null;
    runError = e && script !== null ? { script, error: e } : null;
    if (runError) {
      const stale = runError.script !== editor.text() ? ' (in the script that ran; the editor\'s text has changed since)' : '';
      showError(`${describeRunError(runError.error)}${stale}`);
    } else if (had) {
      showError('');
    }
    sayStatus(pg, script, e);
    editor.recheck();
  };
  page.model.onChange(watch);

  // ---- controls
  picker.addEventListener('change', () => {
    show(picker.value);
    showError('');
    editor.focus();
  });
  runButton.addEventListener('click', () => run(false));
  ownButton.addEventListener('click', () => run(true));
  resetButton.addEventListener('click', () => {
    editor.replace(sourceOf(slot));
    dropDraft(slot);
    setText(status, slot === LINK_SLOT ? 'Back to the link\'s script (Ctrl+Z brings your text back).' : 'Back to the template (Ctrl+Z brings your text back).');
    showError('');
    editor.focus();
  });
  compareButton.addEventListener('click', async () => {
    if (pageScript() !== editor.text()) await run(false);
    const script = pageScript();
    if (script === null || script !== editor.text()) return;
    const pg = page.model.playground;
    openAddress(`?compare=script,${encodeURIComponent(compareWith.value)}`, `#${pg.share_fragment()}`);
  });
  findButton.addEventListener('click', async () => {
    if (pageScript() !== editor.text()) await run(false);
    const finder = /** @type {HTMLDetailsElement | null} */ (document.getElementById('finder'));
    if (!finder) return;
    finder.open = true;
    finder.scrollIntoView({ block: 'start' });
  });

  // ---- what opens first: a teacher's `template=`, a link's script, the last draft
  const params = new URLSearchParams(window.location.search);
  const asked = params.get('template');
  const script = pageScript();
  if (asked !== null && byId.has(asked)) {
    show(asked);
  } else {
    // A malformed one the page's banner has said (shared/url.js).
    if (asked !== null && TEMPLATE_ID.test(asked)) {
      showError(`URL parameter \`template\`: no template "${asked.slice(0, 40)}"; known: ${templates.map((t) => t.id).join(', ')}`);
    }
    const last = lastSlot();
    if (script !== null) {
      show(last && byId.has(last) ? last : templates[0].id);
      adoptPageScript(script);
    } else {
      show(last && byId.has(last) ? last : templates[0].id);
    }
  }
  watch();
  return { focus: () => title.focus() };
}
