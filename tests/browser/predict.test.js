// Predict mode (www/ask/predict.js, `predict=1`): the page pauses at a
// decisive moment and asks; a choice plays on; the true answer shown is
// the run's own future, the same figure `election run --json` reports;
// the score counts; seeking back asks again, seeking past does not.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, pageAddress, playFor, playUntil, pressPlay, setSpeed, waitFrames } from './page.js';
import { cliRun } from './reference.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * Pauses the page if it plays.
 * @param {import('playwright-core').Page} page
 */
async function pause(page) {
  if ((await page.getAttribute('#play', 'aria-pressed')) === 'true') await pressPlay(page);
}

/** @param {import('playwright-core').Page} page */
const questionShown = (page) => page.isVisible('[data-testid=question]:not(.answered)');

/**
 * Presses Play and plays until a question is asked.
 * @param {import('playwright-core').Page} page
 */
async function playToQuestion(page) {
  await pressPlay(page);
  // Time is handed only while the page plays (a page that paused at a
  // question would keep it, see tests/browser/page.js playFor): each
  // look waits for the frames that draw where the last task got.
  for (let played = 0; ; played += 100) {
    await waitFrames(page, 2);
    const state = await page.evaluate(() => ({
      asked: document.querySelector('[data-testid=question]:not(.answered)') !== null,
      playing: document.getElementById('play')?.getAttribute('aria-pressed') === 'true',
    }));
    if (state.asked) break;
    assert.ok(state.playing, 'paused without a question');
    assert.ok(played < 30000, 'no question after 30 s of play');
    await playFor(page, 100);
  }
  return {
    kind: /** @type {string} */ (await page.getAttribute('[data-testid=question]:not(.answered)', 'data-kind')),
    atMs: Number(await page.getAttribute('[data-testid=question]:not(.answered)', 'data-at-ms')),
    choices: await page.$$eval('[data-testid=question]:not(.answered) [data-testid=choice]', (bs) =>
      bs.map((b) => JSON.parse(/** @type {HTMLElement} */ (b).dataset.choice ?? 'null')),
    ),
  };
}

/**
 * Plays on until the verdict of the answered question is shown; returns it.
 * @param {import('playwright-core').Page} page
 */
async function playToVerdict(page) {
  await playUntil(page, () => document.querySelector('[data-testid=verdict]') !== null, null, { maxMs: 60000 });
  return {
    answer: JSON.parse((await page.getAttribute('[data-testid=verdict]', 'data-answer')) ?? 'null'),
    right: await page.getAttribute('[data-testid=verdict]', 'data-right'),
    text: ((await page.textContent('[data-testid=verdict]')) ?? '').trim(),
  };
}

/**
 * The CLI's figure a question of `kind` at time 0 asks about, as the
 * question's choices give it.
 * @param {string} kind
 * @param {any} run `election run --json --trace`
 * @param {unknown[]} choices
 */
function cliAnswer(kind, run, choices) {
  switch (kind) {
    case 'leader':
      return run.leader === null ? null : `n${run.leader}`;
    case 'election_messages':
      return run.messages.election;
    case 'split_brain':
      return choices.find((c) => String(c).toLowerCase().startsWith(run.split_brain_ms > 0 ? 'yes' : 'no'));
    case 'first_mover': {
      const send = run.trace.find((/** @type {any} */ e) => e.type === 'send' && e.purpose === 'election');
      return send ? `n${send.from}` : null;
    }
    default:
      return undefined;
  }
}

const CASES = [
  ['bully', 8, 3],
  ['bully', 6, 11],
  ['raft', 5, 2],
  ['raft', 5, 7],
  ['chang-roberts', 8, 3],
];

/** The kinds checked against the CLI's figures at time 0 (`predict=<kind>`). */
const KINDS = ['leader', 'election_messages', 'split_brain'];

test('with predict=<kind> the first question is asked before anything moves, and its answer is what election run --json reports', async () => {
  for (const [algorithm, nodes, seed] of CASES) {
    const query = `algorithm=${algorithm}&nodes=${nodes}&seed=${seed}`;
    const run = cliRun(['--algorithm', String(algorithm), '--nodes', String(nodes), '--seed', String(seed), '--trace']);
    for (const kind of KINDS) {
      const { page, errors } = await openPlayground(browser, `/?${query}&predict=${kind}`);
      assert.equal(await page.isChecked('[data-testid=predict]'), true);
      // Fast enough to reach the answer in a few steps of play.
      await setSpeed(page, 0);
      const q = await playToQuestion(page);
      assert.equal(q.atMs, 0, `${query}: the first question is at time 0`);
      assert.equal(q.kind, kind);
      // Asked before the outcome is seen: paused at 0, no message sent yet.
      assert.equal((await page.textContent('[data-testid=messages-total]'))?.trim(), '0', `${query}: nothing ran before the question`);
      assert.ok(q.choices.length >= 3 && q.choices.length <= 4, `${query}: 3 or 4 choices`);
      assert.ok(await page.isVisible('[data-testid=reveal]'));
      // The caption holds back what comes next until the guess is made.
      const held = ((await page.textContent('.stage [data-testid=caption]')) ?? '').trim();
      assert.doesNotMatch(held, /[.!?]\s/, `${query}: only what has happened: "${held}"`);
      await page.click('[data-testid=choice] >> nth=0');
      const verdict = await playToVerdict(page);
      assert.ok(q.choices.some((c) => JSON.stringify(c) === JSON.stringify(verdict.answer)), `${query}: the answer is a choice`);
      assert.deepEqual(verdict.answer, cliAnswer(kind, run, q.choices), `${query}: the ${kind} answer is the CLI's`);
      assert.equal(verdict.right, String(JSON.stringify(q.choices[0]) === JSON.stringify(verdict.answer)));
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
});

test('with predict=1 the first question is who becomes leader: the leader of the CLI', async () => {
  for (const [algorithm, nodes, seed] of CASES.slice(0, 3)) {
    const query = `algorithm=${algorithm}&nodes=${nodes}&seed=${seed}`;
    const run = cliRun(['--algorithm', String(algorithm), '--nodes', String(nodes), '--seed', String(seed)]);
    const { page, errors } = await openPlayground(browser, `/?${query}&predict=1`);
    await setSpeed(page, 0);
    const q = await playToQuestion(page);
    assert.equal(q.kind, 'leader');
    await page.click('[data-testid=reveal]');
    const verdict = await playToVerdict(page);
    assert.deepEqual(verdict.answer, `n${run.leader}`, query);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the score counts right answers; seeking back asks again, seeking past does not pause', async () => {
  const run = cliRun(['--algorithm', 'bully', '--nodes', '8', '--seed', '3', '--trace']);
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=3&predict=1');
  await setSpeed(page, 0);
  assert.equal((await page.textContent('[data-testid=score]'))?.trim(), 'no answers yet');
  let q = await playToQuestion(page);
  const truth = cliAnswer(q.kind, run, q.choices);
  const right = q.choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(truth));
  assert.ok(right >= 0, `the CLI's answer ${truth} is among ${JSON.stringify(q.choices)}`);
  // Keys 1-4 choose.
  await page.keyboard.press(String(right + 1));
  await playToVerdict(page);
  assert.equal((await page.textContent('[data-testid=score]'))?.trim(), '1 of 1 right');
  // Back to the start: the question again; a wrong choice this time.
  await pause(page);
  await page.evaluate(() => document.getElementById('restart')?.click());
  await pause(page);
  q = await playToQuestion(page);
  assert.equal(q.atMs, 0);
  const wrong = q.choices.findIndex((c) => JSON.stringify(c) !== JSON.stringify(truth));
  await page.click(`[data-testid=choice] >> nth=${wrong}`);
  const verdict = await playToVerdict(page);
  assert.equal(verdict.right, 'false');
  assert.equal((await page.textContent('[data-testid=score]'))?.trim(), '1 of 2 right');
  await page.close();

  // Opened past the first question: playing does not stop for it.
  const past = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=3&predict=1&at=1');
  await setSpeed(past.page, 0);
  await pressPlay(past.page);
  await playUntil(past.page, () => Number(document.querySelector('[data-testid=sim-time]')?.textContent) > 50, null, { maxMs: 20000 });
  assert.equal(await questionShown(past.page), false);
  assert.deepEqual(errors, []);
  assert.deepEqual(past.errors, []);
  await past.page.close();
});

test('Reveal plays on and marks the answer without a score; the switch writes predict=1', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=2');
  await setSpeed(page, 0);
  assert.equal(await page.isChecked('[data-testid=predict]'), false);
  await page.check('[data-testid=predict]');
  assert.match(await pageAddress(page), /[?&]predict=1/);
  await playToQuestion(page);
  await page.click('[data-testid=reveal]');
  const verdict = await playToVerdict(page);
  assert.equal(verdict.right, '');
  assert.equal((await page.textContent('[data-testid=score]'))?.trim(), 'no answers yet');
  await page.uncheck('[data-testid=predict]');
  assert.doesNotMatch(await pageAddress(page), /predict=/);
  assert.equal(await page.isVisible('[data-testid=question]'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a question in presentation mode at 1920x1080 and on a 390x844 phone: in the window, large enough to tap', async () => {
  for (const [viewport, extra, minFont] of /** @type {const} */ ([
    [{ width: 1920, height: 1080 }, '&present=1', 28],
    [{ width: 390, height: 844 }, '', 15],
  ])) {
    const { page, errors } = await openPlayground(browser, `/?algorithm=bully&nodes=8&seed=3&predict=1${extra}`, viewport);
    await playToQuestion(page);
    const boxes = await page.$$eval('[data-testid=choice], [data-testid=reveal]', (bs) =>
      bs.map((b) => {
        const r = b.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width, font: parseFloat(getComputedStyle(b).fontSize) };
      }),
    );
    for (const b of boxes) {
      assert.ok(b.height >= 44 && b.width >= 44, `a touch target: ${JSON.stringify(b)}`);
      assert.ok(b.top >= 0 && b.bottom <= viewport.height && b.left >= 0 && b.right <= viewport.width, `in the window: ${JSON.stringify(b)}`);
      assert.ok(b.font >= minFont, `type ${b.font} px`);
    }
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
