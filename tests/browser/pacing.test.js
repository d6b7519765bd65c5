// Playback at the speed of the story: every preset, played from the start
// with Next step pressed at each pause, never leaves more than about 3 s of
// real time without something happening that the story is about (an
// election message sent or delivered, a role, leader or term change, a
// vote, a fault, a step).
//
// How "real time" is measured, and why it cannot flake. The page plays on
// its play clock (www/shared/play-clock.js), which this test holds (as
// every browser test does): each animation frame that plays takes one
// 60 Hz frame, 1/60 s, of the time the test hands it, and plays all of it
// (no wall-clock budget cuts a frame short on the hand). The hand's
// `trail` records, after each simulation task, the real time played so far
// against the simulated time the run stands at. So the real time a stretch
// of the run takes is what a viewer sees on a machine that keeps up with
// 60 frames a second, the same on every machine and every run: a busy
// 2-core CI machine only draws those frames later, which changes how long
// the test takes, never what it measures. What the hand cannot see is a
// burst of events that takes more than a frame's wall-clock budget to
// simulate (the page then plays slower than asked and says so, "running
// at ..."): no preset has one at its default settings (their bursts are a
// few dozen messages), and the speed-lag tests in player.test.js cover it.
// The bound is then 3.5 s: the "about 3 s" plus the resolution of
// the measure (a frame) and the last of a timer's countdown, which plays
// at the asked speed (player/quiet.js, LEAD_REAL_MS).
//
// The story's events come from the CLI's trace of the same preset
// (`election run --preset NAME --json --trace`), not from the page, so the
// page's own idea of what matters is checked against an independent one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser } from './helpers.js';
import { openPlayground, playFor } from './page.js';
import { REPO_ROOT, cliRun } from './reference.js';

/** The CLI (cliRun builds it first). */
const CLI = join(REPO_ROOT, 'target', 'debug', 'election');

/** Most real time between two story events, ms (see the top comment). */
const MAX_QUIET_REAL_MS = 3500;

/** Real time handed to the page at a time, ms. */
const CHUNK_MS = 250;

/** Most real time one preset may play before the test gives up, ms. */
const MAX_PLAY_MS = 180000;

/** Trace event types that are part of the story whatever they carry. */
const STORY_TYPES = new Set([
  'start',
  'election',
  'role',
  'leader',
  'vote',
  'crash',
  'recover',
  'pause',
  'resume',
  'partition',
  'heal',
  'cut',
  'clock',
  'slow',
  'network',
  'flaky',
  'violation',
]);

/** @type {import('playwright-core').Browser} */
let browser;
/** @type {{name: string, steps: {at_ms: number}[]}[]} */
let presets;
before(async () => {
  browser = await launchBrowser({ handClock: true });
  cliRun(['--preset', 'bully-partition']); // builds the CLI
  const out = execFileSync(CLI, ['presets', '--json'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  presets = JSON.parse(out);
});
after(async () => {
  await browser?.close();
});

/**
 * The simulated times, ms, of the story's events in the CLI's run of
 * preset `name` (to where `election run` ends), sorted, without repeats.
 * @param {string} name
 * @returns {number[]}
 */
function storyTimes(name) {
  // (The trace of a busy preset is megabytes: more than execFileSync's default buffer.)
  const out = execFileSync(CLI, ['run', '--preset', name, '--trace', '--json'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const run = JSON.parse(out);
  /** @type {Map<number, string>} message id -> purpose */
  const purpose = new Map();
  /** @type {Set<number>} */
  const times = new Set();
  for (const e of run.trace) {
    const ms = e.at_us / 1000;
    if (e.type === 'send') purpose.set(e.id, e.purpose);
    const election =
      (e.type === 'send' || e.type === 'deliver' || e.type === 'drop') && purpose.get(e.id) === 'election';
    if (election || STORY_TYPES.has(e.type)) times.add(ms);
  }
  return [...times].sort((a, b) => a - b);
}

/**
 * Plays preset `name` as a teacher would: Next step at each pause, until
 * the run has passed `untilMs`. Returns the trail ([real ms, simulated ms]
 * after each simulation task).
 * @param {string} name
 * @param {number} untilMs
 * @returns {Promise<[number, number][]>}
 */
async function playWithNext(name, untilMs) {
  const { page, errors } = await openPlayground(browser, `/?preset=${name}`);
  await page.evaluate(() => {
    /** @type {any} */ (window).__playClock.trail = [];
  });
  try {
    for (let played = 0; ; played += CHUNK_MS) {
      assert.ok(played <= MAX_PLAY_MS, `${name}: not past ${untilMs} ms after ${MAX_PLAY_MS} ms of play`);
      const state = await page.evaluate(() => {
        const trail = /** @type {any} */ (window).__playClock.trail;
        return {
          sim: trail.length > 0 ? trail[trail.length - 1][1] : 0,
          playing: document.getElementById('play')?.getAttribute('aria-pressed') === 'true',
        };
      });
      if (state.sim >= untilMs) break;
      // Paused (at a step, or at the start): Next step, as a teacher does.
      if (!state.playing) await page.evaluate(() => document.getElementById('narration-next')?.click());
      await playFor(page, CHUNK_MS);
    }
    assert.deepEqual(errors, [], name);
    return await page.evaluate(() => /** @type {any} */ (window).__playClock.trail);
  } finally {
    await page.close();
  }
}

/**
 * The real time at which the run first stood at or past `ms`.
 * @param {[number, number][]} trail
 * @param {number} ms
 * @returns {number}
 */
function realAt(trail, ms) {
  const found = trail.find(([, sim]) => sim >= ms);
  if (!found) throw new Error(`the run never reached ${ms} ms`);
  return found[0];
}

test('each preset, played with Next step at each pause, never stands still for more than about 3 s', async (t) => {
  /** @type {string[]} */
  const failures = [];
  for (const preset of presets) {
    const steps = preset.steps.map((s) => s.at_ms);
    const times = [...new Set([...storyTimes(preset.name), ...steps])].sort((a, b) => a - b);
    const last = times[times.length - 1];
    const trail = await playWithNext(preset.name, last);
    let worst = { gap: 0, from: 0, to: 0 };
    for (let i = 1; i < times.length; i++) {
      const gap = realAt(trail, times[i]) - realAt(trail, times[i - 1]);
      if (gap > worst.gap) worst = { gap, from: times[i - 1], to: times[i] };
    }
    t.diagnostic(`${preset.name}: longest quiet ${Math.round(worst.gap)} ms of real time (${worst.from} to ${worst.to} ms)`);
    if (worst.gap > MAX_QUIET_REAL_MS) {
      failures.push(
        `preset=${preset.name}: ${Math.round(worst.gap)} ms of real time from ${worst.from} ms to ${worst.to} ms with nothing but background traffic`,
      );
    }
  }
  assert.deepEqual(failures, []);
});

test('Next step reaches the next step within about 3 s, moving frame by frame', async () => {
  // raft-split-votes: from the crash's aftermath (step 4) to the last step
  // is over 13 s of simulated time, 45 minutes at the default speed.
  const preset = presets.find((p) => p.name === 'raft-split-votes');
  assert.ok(preset);
  const from = preset.steps[preset.steps.length - 2].at_ms;
  const to = preset.steps[preset.steps.length - 1].at_ms;
  const { page, errors } = await openPlayground(browser, `/?preset=raft-split-votes&at=${from}`);
  await page.evaluate(() => {
    /** @type {any} */ (window).__playClock.trail = [];
  });
  await page.evaluate(() => document.getElementById('narration-next')?.click());
  await playFor(page, 3000);
  /** @type {[number, number][]} */
  const trail = await page.evaluate(() => /** @type {any} */ (window).__playClock.trail);
  const there = trail.find(([, sim]) => sim >= to);
  assert.ok(there, `step at ${to} ms reached within 3 s (got to ${trail[trail.length - 1]?.[1]} ms)`);
  assert.ok(there[0] <= 3000, `${there[0]} ms of real time`);
  // Visibly: many frames on the way, none of them a jump over most of it.
  const onTheWay = trail.filter(([, sim]) => sim > from && sim < to);
  assert.ok(onTheWay.length >= 30, `${onTheWay.length} frames on the way`);
  let biggest = 0;
  for (let i = 1; i < trail.length; i++) biggest = Math.max(biggest, trail[i][1] - trail[i - 1][1]);
  assert.ok(biggest < (to - from) / 10, `the largest frame moved ${biggest} ms of ${to - from} ms`);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false', 'paused at the step');
  assert.equal(Number(await page.textContent('[data-testid=sim-time]')), to);
  assert.deepEqual(errors, []);
  await page.close();
});
