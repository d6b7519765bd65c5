// @ts-check
/**
 * Where the first picture (first/picture.js, before the page's modules)
 * hands over to the page: the picture laid over the cluster canvas is
 * taken away once the cluster's layers have drawn the same moment
 * (cluster/layers.js), and a press of Play made before the page was
 * ready is kept on the Play button for the page to act on
 * (stage/page.js, once ready).
 * @module first/handoff
 */

/** The Play button's `data-*` key of a press made before the page was
 * ready (`data-early-play="true"`). */
export const EARLY_PLAY = 'earlyPlay';

/** The class of the note the first picture shows where it cannot draw
 * ("Loading the run…", first/picture.js), a `.cluster-first` too. */
export const LOADING_CLASS = 'cluster-loading';

/** Takes away the note that the run loads (the page could not start:
 * its problem is said instead). */
export function dropLoadingNote() {
  document.querySelectorAll(`.${LOADING_CLASS}`).forEach((n) => n.remove());
}

/**
 * Whether Play was pressed (an odd number of times) before the page was
 * ready; forgets it.
 * @returns {boolean}
 */
export function playAskedEarly() {
  const play = document.getElementById('play');
  if (!play) return false;
  const asked = play.dataset[EARLY_PLAY] === 'true';
  delete play.dataset[EARLY_PLAY];
  return asked;
}

/**
 * Takes the first picture away from over `canvas` (the cluster canvas,
 * once its own drawing is on the screen: two frames after it was drawn,
 * the worker's drawing being shown a frame after it is made). Nothing
 * when there is none.
 * @param {HTMLCanvasElement} canvas
 */
export function retireFirstPicture(canvas) {
  const pictures = canvas.parentElement?.querySelectorAll(':scope > .cluster-first');
  if (!pictures?.length) return;
  requestAnimationFrame(() => requestAnimationFrame(() => pictures.forEach((p) => p.remove())));
}
