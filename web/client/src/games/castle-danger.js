// castle-danger.js — Castle Danger's table: the 7x9 board (grass, sand beside the river, the
// river, the Portals d1 and d9) with Kings, Wizards, Builders, Cannons, Walls and Fire drawn
// in SVG, the viewer's side at the bottom, with the files a-g and ranks 1-9 beside it as the log
// and the notation name squares; the moves left this turn and the supply. Click a
// piece, then one of the squares the legal list offers for it (a step, a Wall to build or
// remove, a shot's landing square); the Portal offers the pieces that can be added.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { Chooser, cssValue, dragFrom, dropOn, pick } from './common.js';
import { SeatMark, count, seatClass } from '../ui/seats.js';
import { lastSpots, spotAttrs, spotClass, spotWords } from './last-move.js';
import { explainAttrs } from '../rules/index.js';

/** @typedef {import('../client.js').LegalMove} LegalMove */

const FILES = 'abcdefg';
const NAMES = ['Blue', 'Red'];

/** @param {{kind: string}} props */
export function PieceIcon({ kind }) {
  switch (kind) {
    case 'king':
      return html`<svg viewBox="0 0 40 40" class="piece-svg" aria-hidden="true">
        <path d="M6 30 L8 12 L15 20 L20 8 L25 20 L32 12 L34 30 Z" class="fill"/>
        <rect x="6" y="30" width="28" height="5" rx="1" class="fill dark"/>
        <circle cx="20" cy="8" r="2.5" class="gem"/></svg>`;
    case 'wizard':
      return html`<svg viewBox="0 0 40 40" class="piece-svg" aria-hidden="true">
        <path d="M20 3 L31 31 L9 31 Z" class="fill"/>
        <ellipse cx="20" cy="32" rx="15" ry="4" class="fill dark"/>
        <path d="M20 14 l2 4 4 .5 -3 3 1 4 -4 -2 -4 2 1 -4 -3 -3 4 -.5z" class="gem"/></svg>`;
    case 'builder':
      return html`<svg viewBox="0 0 40 40" class="piece-svg" aria-hidden="true">
        <rect x="17" y="14" width="6" height="23" rx="2" class="fill dark"/>
        <rect x="7" y="6" width="26" height="10" rx="2" class="fill"/></svg>`;
    case 'cannon':
      return html`<svg viewBox="0 0 40 40" class="piece-svg" aria-hidden="true">
        <rect x="15" y="4" width="10" height="24" rx="4" class="fill"/>
        <circle cx="12" cy="30" r="6" class="fill dark"/><circle cx="28" cy="30" r="6" class="fill dark"/></svg>`;
    case 'wall':
      return html`<svg viewBox="0 0 40 40" class="piece-svg wall-svg" aria-hidden="true">
        <rect x="3" y="6" width="34" height="30" class="stone"/>
        <path d="M3 16 H37 M3 26 H37 M14 6 V16 M26 16 V26 M14 26 V36 M26 6 V0" class="mortar"/>
        <rect x="3" y="2" width="7" height="6" class="stone"/><rect x="16.5" y="2" width="7" height="6" class="stone"/>
        <rect x="30" y="2" width="7" height="6" class="stone"/></svg>`;
    case 'fire':
      return html`<svg viewBox="0 0 40 40" class="piece-svg fire-svg" aria-hidden="true">
        <path d="M20 3 C24 12 33 16 30 28 C28 35 12 36 10 28 C8 20 15 18 14 10 C18 14 19 17 20 20 C22 14 21 9 20 3 Z" class="fill"/>
        <path d="M20 20 C24 25 25 30 20 33 C15 31 16 26 20 20 Z" class="flame-core"/></svg>`;
    default:
      return null;
  }
}

/** @param {string} sq */
const rankOf = (sq) => Number(sq.slice(1));

/** The square a legal move starts from, for selection (a Builder for build/remove). @param {LegalMove} m */
function sourcesOf(m) {
  if (m.kind === 'move' || m.kind === 'fire') return [m.from];
  if (m.kind === 'build' || m.kind === 'remove') return m.by || [];
  if (m.kind === 'add') return [m.to];
  return [];
}

/** What a move does to its square, for the square's label. @param {LegalMove} m */
function targetLabel(m) {
  if (m.kind === 'move') return `move ${m.piece} here (1 move)`;
  if (m.kind === 'fire') return `fire ${m.distance} here${m.target ? `, hitting the ${m.target}` : ''}`;
  if (m.kind === 'build') return 'build a Wall here';
  if (m.kind === 'remove') return 'remove this Wall';
  if (m.kind === 'add') return `add a ${m.piece} (${count(m.cost, 'move')})`;
  return m.text;
}

/** @param {import('./index.js').BoardProps} props */
export function CastleDangerBoard({ view, legal, you, send, status, last }) {
  const marks = lastSpots('castle-danger', last);
  const [selected, setSelected] = useState(/** @type {string|null} */ (null));
  const [choice, setChoice] = useState(/** @type {LegalMove[]|null} */ (null));
  const moves = legal || [];
  const bySquare = new Map();
  for (const p of view.pieces) bySquare.set(p.square, { kind: p.piece, seat: p.seat, fired: p.fired });
  for (const w of view.walls) bySquare.set(w, { kind: 'wall', seat: -1, fired: false });
  const fire = new Map(view.fire.map((f) => [f.square, f.seat]));
  const sources = new Set(moves.flatMap(sourcesOf));
  const targets = new Map();
  if (selected) {
    for (const m of moves) {
      if (m.kind === 'add') continue;
      if (!sourcesOf(m).includes(selected)) continue;
      if (!targets.has(m.to)) targets.set(m.to, []);
      targets.get(m.to).push(m);
    }
  }
  const flip = you === 1;
  const ranks = [];
  for (let r = 9; r >= 1; r--) ranks.push(r);
  if (flip) ranks.reverse();
  const files = flip ? [...FILES].reverse() : [...FILES];
  const endMove = moves.find((m) => m.kind === 'end');
  const adds = moves.filter((m) => m.kind === 'add');
  // A game ended by resignation, agreement, time or a claim is over though its position is not:
  // the board then says so rather than whose turn it was.
  const ongoing = view.result === 'ongoing' && (status === 'live' || status === undefined);

  /** @param {string} sq */
  function click(sq) {
    setChoice(null);
    if (selected && targets.has(sq)) {
      pick(targets.get(sq), send, setChoice);
      return;
    }
    const addsHere = adds.filter((m) => m.to === sq);
    if (addsHere.length && !bySquare.has(sq)) {
      setSelected(null);
      setChoice(addsHere);
      return;
    }
    setSelected(sources.has(sq) && selected !== sq ? sq : null);
  }

  return html`<div class="cd">
    <div class="cd-info">
      <span>Turn ${view.turn}${view.turn_limit ? ` of ${view.turn_limit}` : ''}</span>
      <span class=${`cd-moves ${seatClass(view.to_move === 'red' ? 1 : 0)}`} data-testid="moves-left">
        ${ongoing ? `${view.to_move === 'red' ? 'Red' : 'Blue'}: ${count(view.moves_left, 'move')} left` : resultText(view.result)}</span>
      ${view.add_open && ongoing && html`<span class="muted">Portal open (add costs ${view.add_cost})</span>`}
    </div>
    <div class="cd-main">
      <div class="cd-frame">
      <div class="cd-ranks" aria-hidden="true" data-testid="cd-ranks">${ranks.map((r) => html`<span key=${r}>${r}</span>`)}</div>
      <div class="cd-board" role="grid" aria-label="Castle Danger board">
        ${ranks.map((r) => html`<div role="row" class="cd-row" key=${r}>
          ${files.map((f) => {
            const sq = `${f}${r}`;
            const piece = bySquare.get(sq);
            const terrain = r === 5 ? 'river' : r === 4 || r === 6 ? 'sand' : 'grass';
            const portal = sq === 'd1' || sq === 'd9';
            const isSource = sources.has(sq) || adds.some((m) => m.to === sq);
            const ts = targets.get(sq);
            const fireSeat = fire.get(sq);
            const label = [sq, terrain === 'river' ? 'river' : terrain, portal ? 'Portal' : '',
              piece ? (piece.kind === 'wall' ? 'Wall' : `${NAMES[piece.seat]} ${piece.kind}${piece.fired ? ' (fired)' : ''}`) : '',
              fireSeat !== undefined ? `${NAMES[fireSeat]} Fire` : '',
              ts ? ts.map(targetLabel).join(' or ') : '', selected === sq ? 'selected' : '',
              spotWords(marks, `sq:${sq}`)].filter(Boolean).join(', ');
            return html`<button type="button" role="gridcell" key=${sq}
              class=${`sq ${terrain}${portal ? ' portal' : ''}${isSource ? ' source' : ''}${ts ? ' target' : ''}${selected === sq ? ' selected' : ''}${spotClass(marks, `sq:${sq}`)}`}
              data-square=${sq} ...${spotAttrs(marks, `sq:${sq}`)}
              ...${explainAttrs('castle-danger', piece ? piece.kind : fireSeat !== undefined ? 'fire' : portal ? 'portal' : terrain === 'river' ? 'river' : '')} aria-label=${label} disabled=${!isSource && !ts}
              ...${sources.has(sq) ? dragFrom(() => { setChoice(null); setSelected(sq); }) : {}}
              ...${ts ? dropOn(() => click(sq)) : {}}
              onClick=${() => click(sq)}>
              ${fireSeat !== undefined && html`<span class=${`cd-fire ${seatClass(fireSeat)}`}><${PieceIcon} kind="fire" />
                <${SideMark} seat=${fireSeat} /></span>`}
              ${piece && html`<span class=${`cd-piece ${piece.kind === 'wall' ? 'wall' : seatClass(piece.seat)}${piece.fired ? ' fired' : ''}`}>
                <${PieceIcon} kind=${piece.kind} />${piece.kind !== 'wall' && html`<${SideMark} seat=${piece.seat} />`}</span>`}
              ${ts && ts.some((m) => m.kind === 'fire') && html`<span class="cd-dist">${ts.find((m) => m.kind === 'fire').distance}</span>`}
            </button>`;
          })}
        </div>`)}
      </div>
      <span></span>
      <div class="cd-files" aria-hidden="true" data-testid="cd-files">${files.map((f) => html`<span key=${f}>${f}</span>`)}</div>
      </div>
      <div class="cd-aside">
        <${Chooser} moves=${choice} send=${send} onCancel=${() => setChoice(null)} label=${choiceLabel} />
        <div class="cd-actions">
          ${endMove && html`<button type="button" data-move="end" onClick=${() => send(endMove)}>
            End turn${endMove.forfeit ? ` (forfeit ${endMove.forfeit})` : ''}</button>`}
        </div>
        <${Supply} view=${view} />
      </div>
    </div>
  </div>`;
}

/** The side's shape in a piece's corner (● Blue, ▲ Red), as in the seats bar: the two sides'
 * pieces are told apart by more than their colour. @param {{seat: number}} props */
function SideMark({ seat }) {
  return html`<span class="cd-side" aria-hidden="true"><${SeatMark} seat=${seat} /></span>`;
}

/** @param {LegalMove} m */
function choiceLabel(m) {
  if (m.kind === 'add') return `Add ${m.piece}${m.cost ? ` (${count(m.cost, 'move')})` : ' (free)'}`;
  if (m.kind === 'fire') return `Fire ${m.distance}`;
  if (m.kind === 'move') return `Move ${m.piece}`;
  if (m.kind === 'build') return 'Build a Wall';
  if (m.kind === 'remove') return 'Remove the Wall';
  return m.text;
}

/** @param {string} result */
function resultText(result) {
  if (result === 'blue-won') return 'Blue wins';
  if (result === 'red-won') return 'Red wins';
  if (result === 'draw') return 'Drawn';
  return 'Game over';
}

/** @param {{view: any}} props */
function Supply({ view }) {
  const s = view.supply;
  return html`<dl class="cd-supply">
    ${['blue', 'red'].map((side, i) => html`<div class=${seatClass(i)}>
      <dt>${NAMES[i]} supply</dt>
      <dd>Wizards ${s[side].wizard}, Builders ${s[side].builder}, Cannons ${s[side].cannon}, Fire ${s[side].fire}</dd></div>`)}
    <div><dt>Walls left</dt><dd>${s.walls}</dd></div>
  </dl>`;
}

export { rankOf };

/** Where this board shows a move besides its own button, for the guided game's coach to point
 * at (ui/coach.js): the squares it starts from and goes to, and the first Builder or Cannon
 * that makes it. @param {any} m @returns {string[]} */
export function coachSpots(m) {
  return [m.from, m.to, ...(m.by || []).slice(0, 1)].filter((sq) => sq).map((sq) => `[data-square="${cssValue(sq)}"]`);
}

export { coachWords, coachWarning } from './castle-danger-coach.js';

/** A thing of the rules page's "what each piece does", drawn as the board draws it (a Blue
 * piece); null for what is a square, not a piece (the Portal, the river). @param {string} key */
export function glossaryArt(key) {
  if (!['king', 'wizard', 'builder', 'cannon', 'wall', 'fire'].includes(key)) return null;
  return html`<span class=${`cd-art ${seatClass(0)}`}><${PieceIcon} kind=${key} /></span>`;
}
