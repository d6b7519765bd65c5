// @ts-check
/**
 * The Experiments panel's charts, drawn by uPlot (vendored under
 * www/vendor/uplot by scripts/build/vendor.sh, MIT licence). The library and its
 * style sheet are loaded the first time a chart is drawn, so the page
 * itself never pays for them. Each chart is a <figure> with a caption,
 * `data-testid` and `data-series` (how many series it draws); uPlot adds a
 * legend row per series.
 * @module experiments/charts
 */

/** Series colours, distinct in light and dark themes. */
export const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

/** @type {Promise<any> | null} */
let loading = null;

/**
 * uPlot, loading it (script and style sheet) on first use.
 * @returns {Promise<any>}
 */
export function loadChartLibrary() {
  const w = /** @type {any} */ (window);
  if (w.uPlot) return Promise.resolve(w.uPlot);
  loading ??= new Promise((resolve, reject) => {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = new URL('../vendor/uplot/uPlot.min.css', import.meta.url).href;
    document.head.append(css);
    const script = document.createElement('script');
    script.src = new URL('../vendor/uplot/uPlot.iife.min.js', import.meta.url).href;
    script.onload = () => (w.uPlot ? resolve(w.uPlot) : reject(new Error('the chart library did not load')));
    script.onerror = () => {
      loading = null;
      reject(new Error('the chart library (www/vendor/uplot) could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * @typedef {object} SeriesSpec
 * @property {string} label
 * @property {string} colour
 * @property {'step' | 'line' | 'points' | 'dashed'} style
 */

/**
 * @typedef {object} ChartSpec
 * @property {string} testid
 * @property {string} title
 * @property {string} xLabel
 * @property {string} yLabel
 * @property {boolean} xLog
 * @property {boolean} [yLog]
 * @property {[number[], ...(number | null)[][]]} columns x then one column per series
 * @property {SeriesSpec[]} series
 * @property {string[]} [notes] lines shown under the chart
 */

/**
 * Draws one chart into a new <figure> appended to `parent`.
 * @param {any} uPlot the library
 * @param {HTMLElement} parent
 * @param {ChartSpec} spec
 * @returns {{figure: HTMLElement, plot: any}}
 */
export function drawChart(uPlot, parent, spec) {
  const figure = document.createElement('figure');
  figure.className = 'exp-chart';
  figure.dataset.testid = spec.testid;
  figure.dataset.series = String(spec.series.length);
  const caption = document.createElement('figcaption');
  caption.textContent = spec.title;
  figure.append(caption);
  parent.append(figure);
  const ink = getComputedStyle(parent).color || '#222';
  const grid = { stroke: 'rgba(128,128,128,0.25)', width: 1 };
  const axis = (/** @type {string} */ label, /** @type {number} */ size) => ({ label, stroke: ink, grid, ticks: grid, labelSize: 18, size });
  const stepped = uPlot.paths.stepped({ align: 1 });
  const width = Math.max(260, Math.min(parent.clientWidth || 600, 720) - 8);
  const plot = new uPlot(
    {
      width,
      height: 220,
      legend: { live: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: false, distr: spec.xLog ? 3 : 1, log: 10 },
        y: spec.yLog ? { distr: 3, log: 10 } : { range: (/** @type {any} */ _u, /** @type {number} */ lo, /** @type {number} */ hi) => [Math.min(0, lo), hi > 0 ? hi : 1] },
      },
      axes: [axis(spec.xLabel, 44), axis(spec.yLabel, spec.yLog ? 76 : 56)],
      series: [
        { label: spec.xLabel },
        ...spec.series.map((s) => ({
          label: s.label,
          stroke: s.colour,
          width: s.style === 'points' ? 0 : 1.5,
          dash: s.style === 'dashed' ? [6, 4] : undefined,
          spanGaps: s.style !== 'points',
          paths: s.style === 'step' ? stepped : s.style === 'points' ? () => null : undefined,
          points: s.style === 'points' ? { show: true, size: 8, stroke: s.colour, fill: s.colour } : { show: false },
        })),
      ],
    },
    spec.columns,
    figure,
  );
  if (spec.notes?.length) {
    figure.append(...spec.notes.map((text) => {
      const p = document.createElement('p');
      p.className = 'note';
      p.textContent = text;
      return p;
    }));
  }
  return { figure, plot };
}
