// A small line chart on a canvas (used for the NMT training loss): points are
// added as they arrive, the y axis may be logarithmic, the axes are labelled.
import { el } from '../dom.js';
import { track } from './live.js';

const MIN_WIDTH = 200; // the axes, labels and a readable curve need this much

export class LineChart {
  /**
   * @param {{label: string, caption: string, className?: string, logY?: boolean,
   *          width?: number, height?: number, empty?: string, xName?: string, color?: string}} options
   */
  constructor({
    label,
    caption,
    className = 'line-chart',
    logY = false,
    width = 520,
    height = 200,
    empty = 'no data yet',
    xName = 'x',
    color,
  }) {
    this.options = { logY, width, height, empty, xName, color };
    this.points = [];
    this.canvas = el('canvas', { className, attrs: { role: 'img', 'aria-label': label } });
    this.element = el('figure', { className: 'heatmap line-chart-figure' }, this.canvas, el('figcaption', {}, caption));
    // No wider than the figure's container (a phone is narrower than `width`): measured
    // when the figure gets a box on the page and whenever that box changes size.
    this.room = Infinity;
    const fit = () => {
      const room = this.element.parentElement?.clientWidth || Infinity;
      if (room !== this.room) {
        this.room = room;
        this.draw();
      }
    };
    if (globalThis.ResizeObserver) new ResizeObserver(fit).observe(this.element);
    track(this);
  }

  reset() {
    this.points = [];
    this.draw();
  }

  /** Adds a point (skipped when y is not finite, or not positive on a log axis). */
  add(x, y) {
    if (Number.isFinite(y) && (!this.options.logY || y > 0)) this.points.push([x, y]);
    this.draw();
  }

  draw() {
    const { height, logY, empty, xName, color } = this.options;
    const width = Math.min(this.options.width, Math.max(MIN_WIDTH, this.room));
    const dpr = globalThis.devicePixelRatio || 1;
    const { canvas } = this;
    canvas.width = width * dpr;
    canvas.height = height * dpr;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    // The page's theme colours (light or dark), read at every paint; the
    // background stays transparent, so the chart is never a light box on a dark
    // page (nor dark on light) whatever the theme was when it was first painted.
    const styles = getComputedStyle(canvas);
    const themed = (name, fallback) => styles.getPropertyValue(name).trim() || styles.color || fallback;
    ctx.clearRect(0, 0, width, height);
    const left = 48;
    const bottom = height - 24;
    ctx.strokeStyle = themed('--al-muted', '#888');
    ctx.beginPath();
    ctx.moveTo(left, 8);
    ctx.lineTo(left, bottom);
    ctx.lineTo(width - 8, bottom);
    ctx.stroke();
    ctx.fillStyle = themed('--al-fg', '#333');
    ctx.font = '11px system-ui, sans-serif';
    if (this.points.length < 2) {
      ctx.fillText(empty, left + 12, bottom - 12);
      return;
    }
    const xs = this.points.map((p) => p[0]);
    const ys = this.points.map((p) => (logY ? Math.log10(p[1]) : p[1]));
    const x0 = xs[0];
    const x1 = xs[xs.length - 1];
    const yMin = Math.floor(Math.min(...ys));
    const yMax = Math.ceil(Math.max(...ys));
    const x = (s) => left + ((s - x0) / Math.max(1, x1 - x0)) * (width - left - 12);
    const y = (l) => 8 + ((yMax - l) / Math.max(1e-9, yMax - yMin)) * (bottom - 8);
    for (let e = yMin; e <= yMax; e++) ctx.fillText(logY ? `1e${e}` : String(e), 6, y(e) + 4);
    ctx.fillText(`${xName} ${x0}`, left, height - 8);
    ctx.fillText(`${xName} ${x1}`, width - 80, height - 8);
    ctx.strokeStyle = color ?? themed('--al-accent', '#6a3d9a');
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    xs.forEach((s, i) => (i === 0 ? ctx.moveTo(x(s), y(ys[i])) : ctx.lineTo(x(s), y(ys[i]))));
    ctx.stroke();
  }
}
