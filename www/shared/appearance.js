// @ts-check
/**
 * Theme (light / dark) and motion preferences of the page.
 *
 * Theme: follows `prefers-color-scheme` until the user picks one with the
 * theme button (which names the theme it switches to: "Dark theme" in the
 * light one); the pick is kept in localStorage. The stylesheet holds the
 * colours as custom properties; the canvas colours are read from them with
 * getComputedStyle once per theme change and handed to palette.js.
 *
 * Motion: with `prefers-reduced-motion: reduce` messages are drawn still
 * (a line from sender to receiver with a mark by the receiver) instead of
 * moving dots; every canvas says which it does in `data-animated`.
 * @module appearance
 */

import { setCanvasTheme } from './palette.js';

const STORE_KEY = 'election-playground-theme';

/** Whether message animation is off (prefers-reduced-motion). Live binding. */
export let reducedMotion = false;

/** @type {Set<() => void>} */
const listeners = new Set();

/**
 * Calls `fn` after every theme or motion change (to redraw the canvases).
 * @param {() => void} fn
 */
export function onAppearanceChange(fn) {
  listeners.add(fn);
}

/** @returns {'light' | 'dark' | null} the theme the user picked, if any */
function storedTheme() {
  try {
    const v = window.localStorage.getItem(STORE_KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null;
  }
}

/** @returns {'light' | 'dark'} the theme in force */
export function currentTheme() {
  const picked = document.documentElement.dataset.theme;
  if (picked === 'light' || picked === 'dark') return picked;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Puts the theme the user picked (if any) on the page. */
export function applyStoredTheme() {
  const stored = storedTheme();
  if (stored) document.documentElement.dataset.theme = stored;
}

/**
 * Names on the theme button what pressing it does (the other theme).
 * @param {HTMLElement} button
 */
export function labelThemeButton(button) {
  const theme = currentTheme();
  const other = theme === 'dark' ? 'light' : 'dark';
  button.textContent = other === 'dark' ? 'Dark theme' : 'Light theme';
  button.setAttribute('aria-label', `Switch to the ${other} theme (now: ${theme})`);
  button.title = `Switch to the ${other} theme`;
  button.dataset.theme = theme;
}

/** Reads the canvas colours from the CSS variables of the theme in force. */
export function readColours() {
  const css = getComputedStyle(document.documentElement);
  /** @param {string} name @param {string} fallback */
  const v = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  setCanvasTheme({
    ink: v('--ink', '#1a1a1a'),
    faint: v('--faint', '#b8b8b8'),
    canvas: v('--canvas', '#fcfcfb'),
    paper: v('--paper', '#ffffff'),
    muted: v('--canvas-muted', '#6b6b6b'),
  });
}

/** Marks every canvas with whether its messages move. */
function markCanvases() {
  const value = reducedMotion ? 'false' : 'true';
  for (const c of document.querySelectorAll('canvas')) {
    if (c.dataset.animated !== value) c.dataset.animated = value;
  }
}

function changed() {
  readColours();
  markCanvases();
  for (const fn of listeners) fn();
}

/**
 * Applies the stored theme and the motion preference, watches both media
 * queries, and wires the theme button (`#theme-toggle`, if present).
 */
export function setupAppearance() {
  applyStoredTheme();
  const motion = window.matchMedia('(prefers-reduced-motion: reduce)');
  reducedMotion = motion.matches;
  motion.addEventListener('change', () => {
    reducedMotion = motion.matches;
    changed();
  });
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    updateButton();
    changed();
  });

  const button = document.getElementById('theme-toggle');
  // The button names what pressing it does, not the theme in force.
  const updateButton = () => {
    if (button) labelThemeButton(button);
  };
  if (button) {
    button.addEventListener('click', () => {
      const next = currentTheme() === 'dark' ? 'light' : 'dark';
      document.documentElement.dataset.theme = next;
      try {
        window.localStorage.setItem(STORE_KEY, next);
      } catch {
        // Storage may be off (private mode): the pick lasts for this page only.
      }
      updateButton();
      changed();
    });
  }
  updateButton();
  readColours();
  markCanvases();
  // Canvases the compare mode adds later get their mark too.
  new MutationObserver(markCanvases).observe(document.body, { childList: true, subtree: true });
}
