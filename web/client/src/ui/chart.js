// chart.js — a player's rating history for one game as a uPlot line chart (canvas), with the
// same figures in a table beside it for screen readers.
import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * `first` is the number of the rated game of points[0]; `start`, when the history is whole,
 * is the rating before the first rated game, drawn at 0.
 * @param {{points: {rating: number, rd: number}[], title: string, first?: number,
 *          start?: {rating: number, rd: number}|null}} props
 */
export function RatingChart({ points, title, first = 1, start = null }) {
  const box = useRef(/** @type {HTMLDivElement|null} */ (null));
  useEffect(() => {
    if (!box.current || points.length === 0) return undefined;
    // One step per rated game (a date axis spreads a few games over years).
    const all = start ? [start, ...points] : points;
    const xs = all.map((_, i) => i + (start ? 0 : first));
    const ys = all.map((p) => Math.round(p.rating));
    const lo = all.map((p) => Math.round(p.rating - 2 * p.rd));
    const hi = all.map((p) => Math.round(p.rating + 2 * p.rd));
    const width = Math.max(280, Math.min(640, box.current.clientWidth || 600));
    const plot = new uPlot({
      width,
      height: 220,
      title,
      scales: { x: { time: false, range: (_u, lo, hi) => [Math.max(0, lo - 1), hi + 1] } },
      series: [
        { label: 'Game' },
        { label: 'Rating', stroke: '#0072B2', width: 2, points: { show: true } },
        { label: 'low (2 RD)', stroke: '#999', dash: [4, 4] },
        { label: 'high (2 RD)', stroke: '#999', dash: [4, 4] },
      ],
      axes: [{ label: 'rated game', incrs: [1, 2, 5, 10, 20, 50, 100] }, { size: 50 }],
    }, [xs, ys, lo, hi], box.current);
    return () => plot.destroy();
  }, [points, title, first, start]);
  return html`<div class="chart" ref=${box} aria-hidden="true"></div>`;
}
