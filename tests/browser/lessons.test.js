// Lessons on the page (panels/lessons.js, docs/lessons.md): a lesson
// round-trips through a `#l=` link and a standalone export; the editor of
// "Make a lesson from this run" makes a link that opens the same lesson and
// names a bad field; Next step and Space step through a lesson in
// presentation mode; a bad `#l=` link shows one message naming the field.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { collectErrors, launchBrowser } from './helpers.js';
import { openPlayground, playFor, readouts, ready } from './page.js';
import { REPO_ROOT, cliRun, cliRunScenario, encodeShare } from './reference.js';

const DIR = mkdtempSync(join(tmpdir(), 'election-lessons-'));
const TEMPLATE = join(DIR, 'standalone.html');

/** A lesson a teacher wrote: Bully, its leader crashed at 300 ms by a step. */
const LESSON = {
  lesson: 1,
  title: 'Bully: crash the leader',
  summary: 'Six nodes elect n5; crash it and watch n4 take over.',
  scenario: { version: 1, algorithm: 'bully', nodes: 6, seed: 3 },
  steps: [
    { at_ms: 0, text: 'Every node starts an election at once.', question: { kind: 'leader' } },
    { at_ms: 300, text: 'The leader crashes.', fault: { crash: 5 } },
    { at_ms: 600, text: 'Who noticed first?', view: 'log' },
  ],
};

/** The scenario a lesson runs: its steps' faults at their times. */
function lessonScenario(lesson) {
  const faults = lesson.steps.filter((s) => s.fault).map((s) => ({ at_ms: s.at_ms, ...s.fault }));
  return { ...lesson.scenario, faults: [...(lesson.scenario.faults ?? []), ...faults] };
}

/** `#l=1.<data>`: the `#s=` codec over the lesson's JSON. */
function lessonLink(lesson) {
  return `#l=${encodeShare(lesson)}`;
}

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  execFileSync('node', ['scripts/build/standalone.mjs', '--out', TEMPLATE], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * The lesson as the panel shows it.
 * @param {import('playwright-core').Page} page
 */
async function shownLesson(page) {
  return {
    visible: await page.isVisible('#narration'),
    title: ((await page.textContent('#narration-title')) ?? '').trim(),
    steps: await page.$$eval('[data-testid=narration] li', (items) =>
      items.map((li) => ({
        time: (li.querySelector('.step-time')?.textContent ?? '').trim(),
        text: (li.querySelector('.step-text')?.textContent ?? '').trim(),
        current: li.getAttribute('aria-current') === 'step',
      })),
    ),
  };
}

/**
 * Checks that `page` shows LESSON (or `lesson`) with its run.
 * @param {import('playwright-core').Page} page
 * @param {string} what
 * @param {typeof LESSON} [lesson]
 */
async function assertShowsLesson(page, what, lesson = LESSON) {
  const shown = await shownLesson(page);
  assert.equal(shown.visible, true, `${what}: the lesson is shown`);
  assert.equal(shown.title, lesson.title, `${what}: title`);
  assert.deepEqual(
    shown.steps.map((s) => [s.time, s.text]),
    lesson.steps.map((s) => [`${s.at_ms} ms`, s.text]),
    `${what}: steps`,
  );
}

test('a #l= link opens the lesson: its steps, its faults at their times, what the CLI runs', async () => {
  const { page, errors } = await openPlayground(browser, `/?at=end${lessonLink(LESSON)}`);
  await assertShowsLesson(page, 'the link');
  const expected = cliRunScenario(lessonScenario(LESSON));
  const end = await readouts(page);
  assert.equal(end.messages, expected.messages.sent);
  assert.equal(end.time, expected.end_ms);
  assert.equal(await page.textContent('[data-testid=trace-hash]'), expected.trace_hash);
  assert.equal(await page.isVisible('[data-testid=error]'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Copy lesson link and the standalone export give back the same lesson', async () => {
  const { page, errors } = await openPlayground(browser, `/${lessonLink(LESSON)}`);
  await page.click('[data-testid=lesson-copy-shown]');
  await page.waitForFunction(() => /#l=1\./.test(document.querySelector('[data-testid=lesson-share-status]')?.textContent ?? ''));
  const href = /(http\S+#l=1\.\S+)/.exec((await page.textContent('[data-testid=lesson-share-status]')) ?? '')?.[1];
  assert.ok(href, 'the link is shown');
  const again = await openPlayground(browser, href);
  await assertShowsLesson(again.page, 'the copied link');
  assert.deepEqual(again.errors, []);
  await again.page.close();

  // Download lesson as a standalone page: one file, offline, the same lesson.
  await page.route(/\/standalone\.html$/, (route) => route.fulfill({ path: TEMPLATE, contentType: 'text/html' }));
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=lesson-download]')]);
  const path = join(mkdtempSync(join(DIR, 'download-')), file.suggestedFilename());
  await file.saveAs(path);
  assert.match((await page.textContent('[data-testid=lesson-share-status]')) ?? '', /^Saved bully-3\.html/);
  assert.deepEqual(errors, []);
  await page.close();

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.setOffline(true);
  await context.route(/^(https?|wss?):/, (route) => route.abort());
  const offline = await context.newPage();
  const offlineErrors = collectErrors(offline);
  await offline.goto(pathToFileURL(path).href);
  await ready(offline, 30000);
  await assertShowsLesson(offline, 'the standalone page');
  // It runs the lesson's scenario, faults and all.
  await offline.click('[data-testid=narration] li[data-step="2"] .step-time');
  const atStep = cliRunScenario(lessonScenario(LESSON), ['--until-ms', '600']);
  assert.equal((await readouts(offline)).messages, atStep.messages.sent);
  assert.deepEqual(offlineErrors, []);
  await context.close();
});

/**
 * `election <args>` as text (cliRun builds the binary once if needed).
 * @param {string[]} args
 * @returns {string}
 */
function cli(args) {
  cliRun(['--nodes', '1']);
  return execFileSync(join(REPO_ROOT, 'target', 'debug', 'election'), args, { cwd: REPO_ROOT, encoding: 'utf8' });
}

/**
 * Opens `file` from file:// with the network off.
 * @param {string} file
 */
async function openOffline(file) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.setOffline(true);
  await context.route(/^(https?|wss?):/, (route) => route.abort());
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(pathToFileURL(file).href);
  await ready(page, 30000);
  return { page, errors, close: () => context.close() };
}

test('a lesson file round-trips: election lesson check, its link on the page, election html --lesson', async () => {
  const file = join(DIR, 'bully-crash.lesson.json');
  writeFileSync(file, JSON.stringify(LESSON, null, 2));
  assert.match(cli(['lesson', 'check', file]), /^ok/);
  const link = cli(['lesson', 'link', file]).trim();
  assert.match(link, /^#l=1\./);
  const { page, errors } = await openPlayground(browser, `/${link}`);
  await assertShowsLesson(page, 'election lesson link');
  // The page's link of the lesson it shows is the CLI's, character for character.
  await page.click('[data-testid=lesson-copy-shown]');
  await page.waitForFunction(() => /#l=1\./.test(document.querySelector('[data-testid=lesson-share-status]')?.textContent ?? ''));
  const shown = (await page.textContent('[data-testid=lesson-share-status]')) ?? '';
  assert.equal(/#l=1\.\S+/.exec(shown)?.[0], link);
  assert.deepEqual(errors, []);
  await page.close();

  const html = join(DIR, 'bully-crash.html');
  cli(['html', '--lesson', file, '-o', html, '--template', TEMPLATE]);
  const opened = await openOffline(html);
  await assertShowsLesson(opened.page, 'election html --lesson');
  assert.deepEqual(opened.errors, []);
  await opened.close();
});

test("a step's question is the run's own: asked at its step, answered as election quiz answers it", async () => {
  const file = join(DIR, 'bully-crash.scenario.json');
  writeFileSync(file, JSON.stringify(lessonScenario(LESSON)));
  const quiz = JSON.parse(cli(['quiz', '--scenario', file, '--json', '--at', '0', '--kind', 'leader']));
  const expected = quiz.questions[0];
  const { page, errors } = await openPlayground(browser, `/${lessonLink(LESSON)}`);
  const card = page.locator('[data-testid=lesson-question] [data-testid=question]');
  await card.waitFor();
  assert.equal(((await card.textContent()) ?? '').includes(expected.text), true, await card.textContent() ?? '');
  // The prompt to press Play gives way to the question (it showed beside
  // it, in presentation mode over the drawing).
  const prompt = await page
    .waitForSelector('[data-testid=start-prompt]', { state: 'hidden', timeout: 5000 })
    .then(() => 'hidden', () => 'shown');
  assert.equal(prompt, 'hidden', 'no "Press Play" while a question waits');
  const choices = await page.$$eval('[data-testid=lesson-question] [data-testid=choice]', (bs) =>
    bs.map((b) => JSON.parse(/** @type {HTMLElement} */ (b).dataset.choice ?? 'null')),
  );
  assert.deepEqual(choices, expected.choices);
  await page.click('[data-testid=lesson-question] [data-testid=reveal]');
  await page.waitForSelector('[data-testid=lesson-question] [data-testid=verdict]:not([hidden])');
  assert.match((await page.textContent('[data-testid=lesson-question] [data-testid=verdict]')) ?? '', new RegExp(String(expected.answer)));
  // The next step (the crash) asks nothing: the question goes.
  await page.click('[data-testid=narration-next]');
  await playFor(page, 3000);
  assert.equal((await readouts(page)).time, 300);
  assert.equal(await page.isVisible('[data-testid=lesson-question]'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Make a lesson from this run: the editor makes a link that opens the same lesson, and names a bad field', async () => {
  const scenario = { version: 1, algorithm: 'bully', nodes: 5, seed: 2, faults: [{ at_ms: 250, crash: 4 }] };
  const { page, errors } = await openPlayground(browser, `/#s=${encodeShare(scenario)}`);
  await page.click('[data-testid=lesson-make]');
  await page.waitForSelector('[data-testid=lesson-editor]:not([hidden])');
  const steps = page.locator('[data-testid=lesson-step-edit]');
  assert.ok((await steps.count()) >= 1, 'the crash is a step');
  // The crash's step, with its time, narration to fill in.
  const crash = steps.filter({ hasText: 'crash' }).first();
  assert.equal(await crash.locator('[data-part=at_ms]').inputValue(), '250');
  assert.equal(await crash.locator('[data-part=text]').inputValue(), '');

  // A bad time: one message naming the field, its input marked.
  await page.fill('[data-testid=lesson-title]', 'Bully: n4 crashes');
  await crash.locator('[data-part=at_ms]').fill('-5');
  await page.click('[data-testid=lesson-copy]');
  await page.waitForSelector('[data-testid=lesson-error]:not([hidden])');
  const field = await crash.locator('[data-part=at_ms]').getAttribute('data-field');
  assert.match((await page.textContent('[data-testid=lesson-error]')) ?? '', new RegExp(field?.replace(/[[\].]/g, '\\$&') ?? 'x'));
  assert.equal(await crash.locator('[data-part=at_ms]').getAttribute('aria-invalid'), 'true');

  // Fixed: the link opens the lesson written.
  await crash.locator('[data-part=at_ms]').fill('250');
  await crash.locator('[data-part=text]').fill('n4 crashes: who takes over?');
  await crash.locator('[data-part="question.kind"]').selectOption('leader');
  await page.click('[data-testid=lesson-copy]');
  await page.waitForSelector('[data-testid=lesson-link]:not([hidden])');
  assert.equal(await page.isVisible('[data-testid=lesson-error]'), false);
  const href = await page.inputValue('[data-testid=lesson-link]');
  assert.match(href, /#l=1\./);
  assert.deepEqual(errors, []);
  await page.close();

  const opened = await openPlayground(browser, href);
  const shown = await shownLesson(opened.page);
  assert.equal(shown.title, 'Bully: n4 crashes');
  assert.ok(
    shown.steps.some((s) => s.time === '250 ms' && s.text === 'n4 crashes: who takes over?'),
    JSON.stringify(shown.steps),
  );
  // The same run: the crash at 250 ms.
  await opened.page.evaluate(() => document.getElementById('to-end')?.click());
  const expected = cliRunScenario(scenario);
  assert.equal(await opened.page.textContent('[data-testid=trace-hash]'), expected.trace_hash);
  assert.deepEqual(opened.errors, []);
  await opened.page.close();
});

test('in presentation mode Next step and Space step through a lesson; Space pauses, Play still plays', async () => {
  // A preset is a lesson: bully-partition's steps at 0, 500 and 698.005 ms...
  const { page, errors } = await openPlayground(browser, '/?preset=bully-partition&present=1', { width: 1920, height: 1080 });
  assert.equal(await page.evaluate(() => document.body.classList.contains('presenting')), true);
  assert.equal(await page.isVisible('[data-testid=narration-next]'), true, 'Next step is on screen');
  // Space: on to the next step (500 ms), within about 3 s.
  await page.keyboard.press('Space');
  await playFor(page, 3000);
  assert.equal((await readouts(page)).time, 500);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  // The Next step button: on to the third.
  await page.click('[data-testid=narration-next]');
  await playFor(page, 3000);
  assert.equal((await readouts(page)).time, 698.005);
  assert.equal((await shownLesson(page)).steps.findIndex((s) => s.current), 2);
  // While it plays, Space pauses.
  await page.keyboard.press('Space');
  await playFor(page, 100);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  // Play and Pause stay on the bar.
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad #l= link shows one message naming the field, and the page works', async () => {
  const bad = { ...LESSON, steps: [{ at_ms: 0, text: 'Guess.', question: { kind: 'favourite_colour' } }] };
  const { page, errors } = await openPlayground(browser, `/${lessonLink(bad)}`);
  const message = ((await page.textContent('[data-testid=error]')) ?? '').trim();
  assert.match(message, /steps\[0\]\.question\.kind/);
  assert.equal(message.split('\n').filter((l) => l.trim() !== '').length, 1, message);
  assert.equal(await page.isVisible('#narration'), false);
  assert.equal(await page.isVisible('#cluster'), true);
  // A damaged link: named too.
  const damaged = await openPlayground(browser, '/#l=1.not-a-lesson');
  assert.match((await damaged.page.textContent('[data-testid=error]')) ?? '', /\bl\b|lesson|link/);
  assert.deepEqual(damaged.errors, []);
  await damaged.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embed plays a #l= lesson with its step under the view', async () => {
  const { page, errors } = await openPlayground(browser, `/?embed=1&at=400${lessonLink(LESSON)}`, { width: 640, height: 400 });
  assert.equal(((await page.textContent('[data-testid=embed-lesson]')) ?? '').trim(), `Step 2 of 3: ${LESSON.steps[1].text}`);
  const open = await page.getAttribute('[data-testid=embed-open]', 'href');
  assert.match(open ?? '', /#l=1\./);
  assert.doesNotMatch(open ?? '', /embed=1/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson with "predict": true turns Predict on, and its step\'s own question is the only one asked at its moment', async () => {
  const worked = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'lessons', 'crash-the-leader.json'), 'utf8'));
  assert.equal(worked.predict, true);
  const { page, errors } = await openPlayground(browser, `/${lessonLink(worked)}`);
  await page.locator('[data-testid=lesson-question] [data-testid=question]').waitFor();
  assert.equal(await page.isChecked('#predict'), true);
  // Time 0 is a decisive moment for Predict as well as the lesson's first
  // step: the step's question stands alone.
  assert.equal(await page.locator('[data-testid=question]').count(), 1);
  // While the crash step asks who starts the election, the caption says
  // only what has happened; once answered, all of it (who, and when).
  await page.click('[data-testid=lesson-question] [data-testid=reveal]');
  await page.click('[data-testid=narration-next]');
  await playFor(page, 3000);
  assert.equal((await readouts(page)).time, 1000);
  await page.locator('[data-testid=lesson-question] [data-testid=question][data-kind=first_mover]').waitFor();
  assert.equal(((await page.textContent('[data-testid=caption]')) ?? '').trim(), 'n4, the leader, has crashed.');
  await page.click('[data-testid=lesson-question] [data-testid=reveal]');
  await page.waitForFunction(() => /starts an election/.test(document.querySelector('[data-testid=caption]')?.textContent ?? ''));
  assert.deepEqual(errors, []);
  await page.close();
});
