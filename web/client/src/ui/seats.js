// seats.js — how seats look everywhere: a colour from a colour-blind-safe palette (Okabe and
// Ito) picked by the seat's name, plus a shape, so colour is never the only cue.
import { html } from 'htm/preact';

const BY_NAME = { blue: 'blue', red: 'red', green: 'green', gold: 'gold', purple: 'purple' };
const ORDER = ['blue', 'red', 'green', 'gold', 'purple'];
const SHAPES = { blue: '●', red: '▲', green: '■', gold: '◆', purple: '★' };

/** The CSS class of a seat: by its name when it has a known one, else by its number.
 * @param {number} seat @param {string} [name] */
export function seatClass(seat, name) {
  const key = name ? BY_NAME[name.toLowerCase()] : undefined;
  return `seat-${key || ORDER[seat % ORDER.length]}`;
}

/** A seat's shape marker. @param {{seat: number, name?: string}} props */
export function SeatMark({ seat, name }) {
  const key = (name && BY_NAME[name.toLowerCase()]) || ORDER[seat % ORDER.length];
  return html`<span class=${`mark ${seatClass(seat, name)}`} aria-hidden="true">${SHAPES[key]}</span>`;
}

/** "1 point", "2 points": a count with its noun in the right number.
 * @param {number} n @param {string} one @param {string} [many] */
export function count(n, one, many) {
  return `${n} ${n === 1 ? one : many || `${one}s`}`;
}
