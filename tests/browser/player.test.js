// The player in front of a class: the page opens paused with one prompt,
// the default election takes a few seconds to watch, quiet stretches are
// skipped (pacing only: every number stays), narrated presets wait for
// Next at each step, the keys control playback whatever was clicked last,
// and presentation mode fills the window with the cluster.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { baseUrl, collectErrors, launchBrowser } from './helpers.js';
import { latestLog, openPlayground, pageAddress, playFor, playUntil, pressPlay, readouts, ready, setSpeed, settle, testId, waitFrames } from './page.js';

/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  browser = await launchBrowser({ handClock: true });
});
after(async () => {
  await browser?.close();
});

/**
 * Whether the page plays now (the play button's state).
 * @param {import('playwright-core').Page} page
 */
async function playing(page) {
  return (await page.getAttribute('[data-testid=play]', 'aria-pressed')) === 'true';
}

/**
 * Every figure the page shows about the run: the readouts, messages by
 * kind, the metrics and the newest lines of the log.
 * @param {import('playwright-core').Page} page
 */
async function figures(page) {
  return page.evaluate(() => {
    const text = (/** @type {string} */ sel) =>
      [...document.querySelectorAll(sel)].map((n) => (n.textContent ?? '').replace(/\s+/g, ' ').trim());
    return {
      readouts: text('.readouts dd'),
      kinds: text('#kinds li'),
      metrics: text('#metrics'),
      log: text('#log li').slice(0, 60),
      inspector: text('#inspector'),
    };
  });
}

test('the opening prompt covers no node, also when a service sits in the middle', async () => {
  for (const [path, size] of /** @type {const} */ ([
    ['/', { width: 1280, height: 720 }],
    ['/?preset=multi-paxos-duel', { width: 1280, height: 720 }],
    ['/?algorithm=raft&nodes=5&fencing=true', { width: 1920, height: 1080 }],
    // A phone: the circle fills its box, so the prompt goes under it.
    ['/?algorithm=raft', { width: 390, height: 844 }],
    ['/?preset=multi-paxos-duel', { width: 390, height: 844 }],
  ])) {
    const { page, errors } = await openPlayground(browser, path, size);
    assert.equal(await page.isVisible('[data-testid=start-prompt]'), true, path);
    const covered = await page.evaluate(() => {
      const p = /** @type {HTMLElement} */ (document.querySelector('[data-testid=start-prompt]')).getBoundingClientRect();
      return [...document.querySelectorAll('#node-layer .node-button')]
        .filter((b) => {
          const r = b.getBoundingClientRect();
          return r.left < p.right && p.left < r.right && r.top < p.bottom && p.top < r.bottom;
        })
        .map((b) => b.id);
    });
    assert.deepEqual(covered, [], `${path}: the prompt covers ${covered.join(', ')}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the page opens paused at 0 with one prompt; the default election takes a few seconds', async () => {
  const { page, errors } = await openPlayground(browser, '/');
  assert.equal(await playing(page), false, 'paused');
  assert.equal((await readouts(page)).time, 0);
  assert.equal(await page.isVisible('[data-testid=start-prompt]'), true);
  assert.match(
    await page.$eval('[data-testid=start-prompt]', (e) => /** @type {HTMLElement} */ (e).innerText),
    /^Press Play or Space to start;\s*click a node to crash it\.$/,
  );
  // Time handed to it waits for Play.
  await page.evaluate(() => {
    /** @type {any} */ (window).__playClock.budget = 500;
  });
  await waitFrames(page, 10);
  assert.equal((await readouts(page)).time, 0);
  await page.evaluate(() => {
    /** @type {any} */ (window).__playClock.budget = 0;
  });

  await page.keyboard.press(' ');
  assert.equal(await playing(page), true);
  await playFor(page, 100);
  assert.equal(await page.isVisible('[data-testid=start-prompt]'), false, 'the prompt goes once playing');
  const end = Number(await page.textContent('#end-ms'));
  assert.equal(end, 19.041, 'the default election (Bully, 8 nodes) settles at 19.041 ms');
  const played = 100 + (await playUntil(page, (t) => Number(document.querySelector('[data-testid=sim-time]')?.textContent) >= t, end, { stepMs: 50 }));
  assert.ok(played >= 3000 && played <= 6000, `the election takes ${played} ms of real time to watch`);
  // Restart does not bring the prompt back.
  await page.click('#restart');
  assert.equal(await page.isVisible('[data-testid=start-prompt]'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('after the leader crashes, the wait for the failure detector is short and says so', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=1&at=19.041');
  assert.equal(await page.isChecked('[data-testid=skip-quiet]'), true, 'on by default');
  await page.click('[data-testid=node-7]');
  assert.equal(await testId(page, 'crashed-count'), '1');
  await page.click('[data-testid=play]');
  // Nothing on the wire: the quiet stretch until n0's timer fires (at
  // 202.293 ms) is skipped, and the note says how long it is.
  await playFor(page, 100);
  assert.match(await testId(page, 'quiet-note'), /^Skipping 18\d ms of quiet time/);
  const played = 100 + (await playUntil(page, () => /LeaderTimeout fires/.test(document.getElementById('log')?.textContent ?? ''), null, { stepMs: 50 }));
  assert.ok(played <= 1500, `the failure detector's wait took ${played} ms of real time (36 s without skipping)`);
  assert.equal(await testId(page, 'quiet-note'), '', 'no note once something happens');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the quiet-time note covers no node and no label, at 1920x1080 and on a phone', async () => {
  // Issue 29: "Skipping … ms of quiet time" sat over the bottom node's
  // label (1920x1080, the default run, after Play).
  for (const [viewport, touch] of /** @type {const} */ ([
    [{ width: 1920, height: 1080 }, false],
    [{ width: 390, height: 844 }, true],
  ])) {
    const page = await browser.newPage({ viewport, hasTouch: touch, isMobile: touch });
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/?algorithm=bully&nodes=8&seed=1&at=19.041`);
    await ready(page);
    await page.evaluate(() => document.querySelector('[data-testid=node-7]')?.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    assert.equal(await testId(page, 'crashed-count'), '1');
    await pressPlay(page);
    await playFor(page, 100);
    assert.match(await testId(page, 'quiet-note'), /^Skipping \d+ ms of quiet time/);
    const overlaps = () => page.evaluate(() => {
      const note = /** @type {HTMLElement} */ (document.querySelector('[data-testid=quiet-note]')).getBoundingClientRect();
      const canvas = /** @type {any} */ (document.getElementById('cluster'));
      const box = canvas.getBoundingClientRect();
      const d = canvas.__drawn;
      /** @type {string[]} */
      const out = [];
      d.centres.forEach((/** @type {{x: number, y: number}} */ c, /** @type {number} */ id) => {
        // The node with its crown above and two lines of words under it.
        const half = Math.max(d.radius, d.font * 4);
        const node = { left: box.left + c.x - half, right: box.left + c.x + half, top: box.top + c.y - d.radius * 1.6, bottom: box.top + c.y + d.radius + 3 + d.font * 2.4 };
        if (note.left < node.right && note.right > node.left && note.top < node.bottom && note.bottom > node.top) out.push(`n${id}`);
      });
      // Presenting, the readouts take a corner of the drawing too.
      const readouts = /** @type {HTMLElement} */ (document.querySelector('[data-testid=present-readouts]')).getBoundingClientRect();
      if (readouts.width > 0 && note.left < readouts.right && note.right > readouts.left && note.top < readouts.bottom && note.bottom > readouts.top) out.push('the readouts');
      return out;
    });
    assert.deepEqual(await overlaps(), [], `${viewport.width}x${viewport.height}: the note is over these nodes' words`);
    if (!touch) {
      await page.keyboard.press('p');
      await settle(page);
      assert.equal(await page.evaluate(() => document.body.classList.contains('presenting')), true);
      assert.deepEqual(await overlaps(), [], `${viewport.width}x${viewport.height}, presenting: the note is over these`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('quiet-time skipping changes no number: crash the leader, play to the same moment with and without', async () => {
  /** @type {Record<string, unknown>[]} */
  const seen = [];
  /** @type {number[]} */
  const times = [];
  for (const skip of [true, false]) {
    const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=1&until_ms=260&at=19.041');
    if (!skip) await page.click('[data-testid=skip-quiet]');
    assert.equal(await page.isChecked('[data-testid=skip-quiet]'), skip);
    await setSpeed(page, -1); // 0.1x: the run without skipping takes 2.4 s
    await page.click('[data-testid=node-7]');
    await page.click('[data-testid=play]');
    times.push(await playUntil(page, () => document.querySelector('[data-testid=play]')?.getAttribute('aria-pressed') === 'false', null, { stepMs: 100 }));
    await settle(page);
    assert.equal((await readouts(page)).time, 260, 'stopped at the scenario end');
    seen.push(await figures(page));
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(seen[0], seen[1], 'the same figures with and without skipping');
  // Quiet until 40 ms (0.4 s at 0.1x) before n0's timer fires at 202.293
  // ms: those 143 ms take 1.43 s at 0.1x, 0.6 s skipped.
  assert.ok(times[1] - times[0] >= 700, `skipping played faster: ${times[0]} ms against ${times[1]} ms`);
});

test('the choice to skip quiet time is remembered', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/?at=0`);
  await ready(page);
  await page.click('[data-testid=skip-quiet]');
  await page.reload();
  await ready(page);
  assert.equal(await page.isChecked('[data-testid=skip-quiet]'), false);
  await context.close();
});

test('a narrated preset waits for Next at each step', async () => {
  const { page, errors } = await openPlayground(browser, '/?preset=chang-roberts-best');
  assert.equal(await page.isChecked('[data-testid=narration-wait]'), true, 'on for narrated presets');
  await setSpeed(page, -1);
  await page.click('[data-testid=play]');
  await playUntil(page, () => document.querySelector('[data-testid=play]')?.getAttribute('aria-pressed') === 'false', null);
  assert.equal((await readouts(page)).time, 6.269, 'paused at step 2');
  assert.match((await page.textContent('#stop-reason')) ?? '', /step 2 of 4; press Next step/);
  assert.equal(await page.getAttribute('[data-testid=narration] li[data-step="1"]', 'aria-current'), 'step');

  await page.click('[data-testid=narration-next]');
  assert.equal(await playing(page), true);
  await playUntil(page, () => document.querySelector('[data-testid=play]')?.getAttribute('aria-pressed') === 'false', null);
  assert.equal((await readouts(page)).time, 60.604, 'paused at step 3');

  // Unticked, it plays on past the steps.
  await page.click('[data-testid=narration-wait]');
  await page.click('[data-testid=play]');
  await playFor(page, 1500);
  assert.ok((await readouts(page)).time > 121.578, 'played past the last step');
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Presses `key` after clicking `selector` (paused), and checks that Space
 * toggles playback without touching the nodes, and S steps.
 * @param {import('playwright-core').Page} page
 * @param {string} what
 */
async function keysStillPlay(page, what) {
  const nodes = await page.$$eval('.node-button', (bs) => bs.map((b) => b.getAttribute('aria-label')));
  const crashed = await testId(page, 'crashed-count');
  assert.equal(await playing(page), false, what);
  await page.keyboard.press(' ');
  assert.equal(await playing(page), true, `${what}: Space plays`);
  await page.keyboard.press(' ');
  assert.equal(await playing(page), false, `${what}: Space pauses`);
  assert.equal(await testId(page, 'crashed-count'), crashed, `${what}: no node changed`);
  assert.deepEqual(await page.$$eval('.node-button', (bs) => bs.map((b) => b.getAttribute('aria-label'))), nodes, what);
  // A step is the next event: later, or another one at the same time
  // (a fault made part way through an instant keeps the rest of it).
  const moment = async () => ({ time: (await readouts(page)).time, log: (await latestLog(page, 1))[0] });
  const before = await moment();
  await page.keyboard.press('s');
  const after = await moment();
  assert.ok(after.time > before.time || after.log !== before.log, `${what}: S steps: ${JSON.stringify([before, after])}`);
}

test('keys control playback whatever was clicked last: a node, Restart, Partition', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=1&at=19.041');
  await page.click('[data-testid=node-7]');
  assert.equal(await testId(page, 'crashed-count'), '1');
  await keysStillPlay(page, 'after clicking n7');
  assert.equal(await testId(page, 'crashed-count'), '1', 'n7 stays crashed');

  await page.click('#restart');
  await keysStillPlay(page, 'after Restart');

  await page.check('#side-a input[type=checkbox] >> nth=0');
  await page.click('#fault-partition');
  await keysStillPlay(page, 'after Partition');

  // Enter still presses the focused button; typing in a field is typing.
  await page.focus('#pause-ms');
  await page.keyboard.press(' ');
  assert.equal(await playing(page), false, 'Space in a number field is not playback');
  await page.focus('#seed');
  await page.keyboard.type('s');
  assert.equal(await playing(page), false);
  // The help lists the keys and says where they work.
  await page.keyboard.press('Escape');
  await page.click('#help-open');
  const help = (await page.textContent('[data-testid=help]')) ?? '';
  assert.match(help, /except while typing/);
  assert.match(help, /Presentation mode/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Space plays on a checkbox, a select or a radio button, clicked or tabbed to; Enter ticks the box', async () => {
  // Issue 29: Space on a focused "Skip quiet time" box ticked it (and the
  // page remembered the change) instead of playing.
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=1&at=19.041');
  const ticked = () => page.isChecked('[data-testid=skip-quiet]');
  assert.equal(await ticked(), true);
  await page.click('[data-testid=skip-quiet]');
  assert.equal(await ticked(), false, 'a click unticks it');
  await keysStillPlay(page, 'after clicking Skip quiet time');
  assert.equal(await ticked(), false, 'Space left it as it was');
  // Tabbed to (the keyboard's focus, :focus-visible), the same.
  await page.focus('#speed');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'skip-quiet');
  await keysStillPlay(page, 'after tabbing to Skip quiet time');
  assert.equal(await ticked(), false);
  await page.keyboard.press('Enter');
  assert.equal(await ticked(), true, 'Enter ticks it');
  assert.equal(await playing(page), false, 'and does not play');
  // A select: Space and letters play, the arrows choose.
  await page.click('#fault-node');
  await page.keyboard.press('Escape');
  const chosen = await page.inputValue('#fault-node');
  await keysStillPlay(page, 'after clicking the fault node list');
  assert.equal(await page.inputValue('#fault-node'), chosen, 'no type-ahead: s stepped');
  await page.focus('#fault-node');
  await page.keyboard.press('ArrowDown');
  assert.notEqual(await page.inputValue('#fault-node'), chosen, 'the arrow chooses');
  // A radio button (the Experiments panel's kind of sweep).
  await page.click('[data-testid=experiments-open]');
  await page.waitForSelector('[data-testid=exp-kind-nodes]');
  await page.click('[data-testid=exp-kind-nodes]');
  await page.keyboard.press(' ');
  assert.equal(await playing(page), true, 'Space plays on a radio button');
  await page.keyboard.press(' ');
  assert.equal(await playing(page), false);
  assert.equal(await page.isChecked('[data-testid=exp-kind-nodes]'), true);
  // The help says so.
  await page.click('#help-open');
  assert.match((await page.textContent('[data-testid=help]')) ?? '', /Enter.*ticks a focused box/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('clicking a node at 0 ms changes only that node: the readouts stay those of 0 ms before any start', async () => {
  // Issue 29: the page opens at 0 ms with no leader and 0 messages;
  // clicking n3 there showed "leader n7, 31 msgs" at the same 0 ms.
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=1');
  assert.deepEqual(await readouts(page), { messages: 0, leader: 'none', time: 0 });
  await page.click('[data-testid=node-3]');
  assert.equal(await testId(page, 'crashed-count'), '1');
  assert.deepEqual(await readouts(page), { messages: 0, leader: 'none', time: 0 }, 'the same moment, n3 crashed');
  assert.equal(await page.textContent('#timeline-out'), '0.000 ms');
  // Played on, the run is the one with n3 dead from the start.
  await pressPlay(page);
  await playUntil(page, () => document.querySelector('[data-testid=leader]')?.textContent?.trim() === '7', null, { stepMs: 50 });
  assert.equal(await testId(page, 'crashed-count'), '1');
  assert.deepEqual(errors, []);
  await page.close();
});

test('one moment per frame: every readout shows the same time and the numbers of that time while playing', async () => {
  // Issue 29: "Time 15.649 ms" beside "Simulated time 15.377 ms" in the
  // same frame (the readout groups took turns).
  const { page, errors } = await openPlayground(browser, '/?algorithm=raft&nodes=5&seed=2');
  await pressPlay(page);
  /** @type {string[]} */
  const seen = [];
  for (let frame = 0; frame < 90; frame += 1) {
    await playFor(page, 1000 / 60);
    const shown = await page.evaluate(() => {
      const text = (/** @type {string} */ sel) => (document.querySelector(sel)?.textContent ?? '').trim();
      return {
        bar: text('#timeline-out').replace(/ ms$/, ''),
        now: text('[data-testid=sim-time]'),
        present: text('[data-testid=present-time]'),
        sent: text('[data-testid=messages-total]'),
        presentSent: text('[data-testid=present-messages]'),
      };
    });
    assert.equal(Number(shown.bar), Number(shown.now), `frame ${frame}: ${JSON.stringify(shown)}`);
    assert.equal(Number(shown.present), Number(shown.now), `frame ${frame}: ${JSON.stringify(shown)}`);
    assert.equal(shown.presentSent.replace(/,/g, ''), shown.sent, `frame ${frame}: ${JSON.stringify(shown)}`);
    seen.push(shown.now);
  }
  assert.ok(new Set(seen).size > 3, `the readouts moved: ${seen}`);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * The share of the viewport the canvases matching `selector` cover.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
async function coverage(page, selector) {
  return page.$$eval(selector, (canvases) => {
    const area = canvases.reduce((sum, c) => {
      const r = c.getBoundingClientRect();
      return sum + r.width * r.height;
    }, 0);
    return area / (window.innerWidth * window.innerHeight);
  });
}

/**
 * How far apart the node buttons are, left to right, px.
 * @param {import('playwright-core').Page} page
 */
async function spread(page) {
  return page.$$eval('#node-layer .node-button', (bs) => {
    const xs = bs.map((b) => b.getBoundingClientRect().left);
    return Math.max(...xs) - Math.min(...xs);
  });
}

test('present=1 at 1920x1080: the cluster covers most of the window; Esc leaves, P comes back', async () => {
  const { page, errors } = await openPlayground(browser, '/?algorithm=bully&nodes=8&seed=1&present=1', { width: 1920, height: 1080 });
  assert.equal(await page.isVisible('[data-testid=error]'), false, 'present is a known parameter');
  const share = await coverage(page, '#cluster');
  assert.ok(share >= 0.6, `the cluster covers ${(share * 100).toFixed(0)}% of the window`);
  assert.equal(await page.isVisible('header.top'), false);
  assert.equal(await page.isVisible('.faults-panel'), false);
  assert.equal(await page.isVisible('[data-testid=play]'), true, 'the transport bar stays');
  assert.equal(await page.getAttribute('[data-testid=present]', 'aria-pressed'), 'true');
  const big = await spread(page);

  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('header.top'), true);
  assert.ok(!(await pageAddress(page)).includes('present'), await pageAddress(page));
  await page.waitForFunction((b) => {
    const xs = [...document.querySelectorAll('#node-layer .node-button')].map((n) => n.getBoundingClientRect().left);
    return Math.max(...xs) - Math.min(...xs) < b * 0.8;
  }, big);
  assert.ok((await coverage(page, '#cluster')) < 0.6);

  // P again: the canvas grows back and the nodes are laid out for it.
  await page.keyboard.press('p');
  assert.match(await pageAddress(page), /[?&]present=1/);
  assert.ok((await coverage(page, '#cluster')) >= 0.6);
  await page.waitForFunction((b) => {
    const xs = [...document.querySelectorAll('#node-layer .node-button')].map((n) => n.getBoundingClientRect().left);
    return Math.max(...xs) - Math.min(...xs) >= b * 0.99;
  }, big);
  // A key (a user's gesture) also asks for the browser's full screen; the
  // Present button leaves both.
  await page.waitForFunction(() => document.fullscreenElement === document.documentElement);
  await page.click('[data-testid=present]');
  assert.match(await pageAddress(page), /\?algorithm=bully&nodes=8&seed=1$/);
  await page.waitForFunction(() => document.fullscreenElement === null);
  // Leaving the full screen the browser's way (its own Esc) leaves
  // presentation mode too.
  await page.click('[data-testid=present]');
  await page.waitForFunction(() => document.fullscreenElement !== null);
  await page.evaluate(() => document.exitFullscreen());
  await page.waitForFunction(() => !document.body.classList.contains('presenting'));
  assert.ok(!(await pageAddress(page)).includes('present'), await pageAddress(page));
  assert.deepEqual(errors, []);
  await page.close();
});

test('present=1 in compare mode: the compare views fill the window, with their cost table', async () => {
  const { page, errors } = await openPlayground(browser, '/?compare=bully,raft&present=1&at=0', { width: 1920, height: 1080 });
  const share = await coverage(page, '.compare-canvas');
  // The cost table shares the window with the views (what the failover
  // cost is the question a class is asked), so the views take a little
  // less of it than they did alone.
  assert.ok(share >= 0.5, `the views cover ${(share * 100).toFixed(0)}% of the window`);
  assert.equal(await page.isVisible('[data-testid=compare-table]'), true);
  assert.equal(await page.isVisible('#compare-play'), true);
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('[data-testid=compare-table]'), true);
  assert.deepEqual(errors, []);
  await page.close();
});
