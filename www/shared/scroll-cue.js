// @ts-check
/**
 * A visible cue for a table wider than its box (the compare table on a
 * phone): a line above it, "Scroll sideways for more →", while columns
 * are hidden to the right, and `data-scrolled` / `data-more` on the box
 * for the shadows in compare.css. Follows scrolling and the sizes of the
 * box and of what it holds (never read while nothing changed).
 * @module shared/scroll-cue
 */

/**
 * Adds the cue before `box` (an element that scrolls sideways).
 * @param {HTMLElement} box
 * @param {string} [testId] the cue's `data-testid`
 */
export function addScrollCue(box, testId = 'compare-scroll-hint') {
  const hint = document.createElement('p');
  hint.className = 'scroll-hint';
  hint.dataset.testid = testId;
  hint.textContent = 'Scroll the table sideways for more columns →';
  hint.hidden = true;
  box.before(hint);
  let shown = '';
  const check = () => {
    const more = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    const scrolled = box.scrollLeft > 0;
    const key = `${more}|${scrolled}`;
    if (key === shown) return;
    shown = key;
    box.dataset.more = String(more);
    box.dataset.scrolled = String(scrolled);
    hint.hidden = !more;
  };
  box.addEventListener('scroll', check, { passive: true });
  // The box's size, and its table's (rows added, cells grown).
  const resized = new ResizeObserver(check);
  resized.observe(box);
  for (const child of box.children) resized.observe(child);
}
