// @ts-check
/**
 * The story of a run as the core tells it (`Playground.story_json()`,
 * election_core::story): its captions (one plain sentence from each
 * `at_ms` until the next), its decisive moments and its questions with
 * their true answers (the run's own future). The page decides none of it:
 * this module only reads the JSON once per run and fault list, and finds
 * the caption in force at a time (a binary search over the sorted list).
 * @module ask/story
 */

import { grouped } from '../shared/numbers.js';

/**
 * One caption: what the page shows from `at_ms` until the next.
 * @typedef {object} Caption
 * @property {number} at_ms
 * @property {string} text
 */

/**
 * A choice or an answer: a node as "n3", a count as a number, a range or
 * yes/no as a string.
 * @typedef {string | number} Choice
 */

/**
 * One question at a decisive moment (QuestionKind names: leader,
 * election_messages, first_mover, time_to_leader, split_brain).
 * @typedef {object} Question
 * @property {number} at_ms
 * @property {string} kind
 * @property {string} text
 * @property {Choice[]} choices
 * @property {Choice} answer one of `choices`
 * @property {string} why one line
 */

/**
 * @typedef {object} Story
 * @property {Caption[]} captions sorted by `at_ms`, the first at 0
 * @property {number[]} moments_ms
 * @property {Question[]} questions sorted by `at_ms`
 */

/**
 * What a run offers for its story (every player module's Playground and
 * the panels' modules').
 * @typedef {object} StorySource
 * @property {() => number} fault_count
 */

/** Wall-clock time a story's recording may take when the story is asked
 * for and not told yet, ms: a small run's whole story (told at once, as
 * before), a few milliseconds of a huge one's (one event of a 1,024-node
 * burst sends a thousand messages), whose rest the player makes in pieces
 * between frames (Model.advance). */
export const STORY_SYNC_MS = 12;

/**
 * Whether `pg`'s story is told, after up to `budgetMs` of its recording
 * (a module without `story_ready_within` tells it at once): calls of 1,
 * 2, 4... events until told or the time is spent.
 * @param {object} pg
 * @param {number} [budgetMs] 0: only read what is known
 * @returns {boolean}
 */
export function storyTold(pg, budgetMs = STORY_SYNC_MS) {
  const ready = /** @type {{story_ready_within?: (events: number) => boolean}} */ (pg).story_ready_within;
  if (typeof ready !== 'function') return true;
  if (budgetMs <= 0) return ready.call(pg, 0);
  const start = performance.now();
  for (let events = 1; ; events = Math.min(events * 2, 100_000)) {
    if (ready.call(pg, events)) return true;
    if (performance.now() - start > budgetMs) return false;
  }
}

/** An empty story (a module without the story methods). @type {Story} */
const NO_STORY = Object.freeze({ captions: [], moments_ms: [], questions: [] });

/** The story read per run, with the fault count it was read at.
 * @type {WeakMap<object, {faults: number, story: Story}>} */
const read = new WeakMap();

/**
 * The story of `pg` as it stands (its live faults included): read from
 * the core once per run and fault count.
 * @param {StorySource} pg
 * @returns {Story}
 */
export function storyOf(pg) {
  const faults = pg.fault_count();
  const cached = read.get(pg);
  if (cached && cached.faults === faults) return cached.story;
  // A huge run's story is told in pieces (STORY_SYNC_MS here, the
  // rest between frames): no story until then, and nothing kept, so it is
  // read once told.
  if (!storyTold(pg)) return NO_STORY;
  const fn = /** @type {{story_json?: () => string}} */ (/** @type {unknown} */ (pg)).story_json;
  /** @type {Story} */
  let story = NO_STORY;
  if (typeof fn === 'function') {
    const parsed = JSON.parse(fn.call(pg));
    story = {
      captions: parsed.captions ?? [],
      moments_ms: parsed.moments_ms ?? [],
      questions: [...(parsed.questions ?? [])].sort((a, b) => a.at_ms - b.at_ms),
    };
  }
  read.set(pg, { faults, story });
  return story;
}

/**
 * The index of the caption in force at `ms`: the last whose `at_ms` is at
 * most `ms` (-1 when none is).
 * @param {Caption[]} captions sorted by `at_ms`
 * @param {number} ms
 * @returns {number}
 */
export function captionIndex(captions, ms) {
  let lo = 0;
  let hi = captions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (captions[mid].at_ms <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * A choice as the page writes it.
 * @param {Choice} choice
 * @returns {string}
 */
export function choiceText(choice) {
  return typeof choice === 'number' ? grouped(choice) : String(choice);
}
