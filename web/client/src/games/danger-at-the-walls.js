// danger-at-the-walls.js — Danger at the Walls' table: the five walls in a row, each showing
// who controls it and its Flag; on each side the Archers fanned next to the wall, the Cannon
// behind them (buried Cannons under it) and the Leaders behind that, the viewer's side below.
// Play as the rulebook says: pick a card from your hand (several Archers at once), then a
// wall; the Spy and the Assassin then pick their card on the board; an Attack names Cannon or
// Archers; the refill draws from the personal or the main deck. Only legal plays are offered.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { Chooser, Pile, cssValue, dragFrom, dropOn, pick } from './common.js';
import { SeatMark, seatClass } from '../ui/seats.js';
import { LastTag, lastSpots, spotAttrs, spotClass } from './last-move.js';
import { explain, explainAttrs } from '../rules/index.js';

/** @typedef {import('../client.js').LegalMove} LegalMove */

const SIDES = ['blue', 'red'];

/** @param {string} name */
const kindOf = (name) => (name.startsWith('archer') ? 'archer' : name.startsWith('cannon') ? 'cannon' : name);
/** @param {string} name */
const valueOf = (name) => (/-(\d)$/.test(name) ? name.slice(-1) : '');

/** @param {{kind: string}} props */
function DwIcon({ kind }) {
  switch (kind) {
    case 'archer':
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><path d="M4 20 L18 6 M14 5 h5 v5 M4 20 l3 -1 M4 20 l1 -3 M6 15 l3 3" class="ic"/></svg>`;
    case 'cannon':
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><circle cx="8" cy="17" r="4" class="icf"/><path d="M8 15 L20 6 L22 9 L10 18 Z" class="icf"/></svg>`;
    case 'flag':
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><path d="M5 22 V3 M5 4 h13 l-3 4 3 4 H5" class="ic"/></svg>`;
    case 'attack':
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><circle cx="12" cy="12" r="7" class="icf"/><path d="M2 12 h3 M19 12 h3 M12 2 v3 M12 19 v3" class="ic"/></svg>`;
    case 'noble': // a money bag
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><path d="M9 3 h6 l-2 4 c5 2 7 7 6 11 c-1 3 -4 3 -7 3 c-3 0 -6 0 -7 -3 c-1 -4 1 -9 6 -11 Z" class="icf"/></svg>`;
    case 'engineer': // gears
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><path d="M12 2 l2 3 3 -1 1 3 3 1 -1 3 3 2 -3 2 1 3 -3 1 -1 3 -3 -1 -2 3 -2 -3 -3 1 -1 -3 -3 -1 1 -3 -3 -2 3 -2 -1 -3 3 -1 1 -3 3 1 Z" class="icf"/><circle cx="12" cy="12" r="3.5" fill="#fff"/></svg>`;
    case 'assassin': // a knife
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><path d="M20 3 L8 15 L10 17 L21 5 Z" class="icf"/><path d="M8 15 L4 19 L6 21 L10 17" class="ic"/></svg>`;
    case 'wizard': // a star
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><path d="M12 2 l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.8-6.2 3.8 1.6-7L2 9.2l7.1-.6z" class="icf"/></svg>`;
    case 'builder': // a hammer
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><rect x="10.5" y="9" width="3" height="13" rx="1" class="icf"/><rect x="5" y="3" width="14" height="6" rx="1" class="icf"/></svg>`;
    case 'spy': // a spyglass
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><path d="M3 14 L16 5 L19 9 L6 18 Z" class="icf"/><circle cx="18.5" cy="6.5" r="3" class="ic"/></svg>`;
    default: // the crowned Leaders: General and King
      return html`<svg viewBox="0 0 24 24" class="dw-icon" aria-hidden="true"><path d="M4 18 L5 8 L9 12 L12 5 L15 12 L19 8 L20 18 Z" class="icf"/></svg>`;
  }
}

/** A Danger at the Walls card by name ("archer-2", "cannon-7", "spy"). @param {{name: string|null, side?: string, small?: boolean}} props */
export function DwCard({ name, side, small }) {
  if (!name) return html`<span class="card back dw-back" role="img" aria-label="face-down card"></span>`;
  const kind = kindOf(name);
  const value = valueOf(name);
  // The name said is the one printed: "Archer 1", "Spy"; pointed at, what it does (rules/index.js).
  const label = value ? `${cap(kind)} ${value}` : cap(name);
  const key = value ? kind : name;
  return html`<span class=${`card dw dwc-${kind}${side ? ` ${seatClass(SIDES.indexOf(side))}` : ''}${small ? ' small' : ''}`}
    data-card=${name} role="img" aria-label=${label} title=${explain('danger-at-the-walls', key) || label} ...${explainAttrs('danger-at-the-walls', key)}>
    <span class="dw-val" aria-hidden="true">${value}</span>
    <${DwIcon} kind=${kind} />
    <span class="dw-name" aria-hidden="true">${value ? kind : name}</span>
  </span>`;
}

/** @param {string[]} cards */
const key = (cards) => [...cards].sort().join('+');

/** @param {import('./index.js').BoardProps} props */
export function DangerAtTheWallsBoard({ view, legal, you, send, last }) {
  const marks = lastSpots('danger-at-the-walls', last);
  const [sel, setSel] = useState(/** @type {number[]} */ ([]));
  const [choice, setChoice] = useState(/** @type {LegalMove[]|null} */ (null));
  const moves = legal || [];
  const mine = you === 1 ? 'red' : 'blue';
  const theirs = mine === 'blue' ? 'red' : 'blue';
  const hand = view.hand || [];
  const selCards = sel.map((i) => hand[i]);
  const selKey = key(selCards);
  const candidates = sel.length ? moves.filter((m) => m.cards && key(m.cards) === selKey) : [];
  const wallMoves = (/** @type {number} */ w) => candidates.filter((m) => m.wall === w && m.kind !== 'spy' && m.kind !== 'assassin');
  const boardTargets = candidates.filter((m) => m.kind === 'spy' || m.kind === 'assassin');
  const discards = candidates.filter((m) => m.kind === 'discard');
  const draws = moves.filter((m) => m.kind === 'draw');
  const playable = new Set(moves.flatMap((m) => m.cards || []));

  /** @param {number} i */
  function toggle(i) {
    setChoice(null);
    const card = hand[i];
    if (sel.includes(i)) {
      setSel(sel.filter((j) => j !== i));
      return;
    }
    const archers = kindOf(card) === 'archer' && sel.every((j) => kindOf(hand[j]) === 'archer');
    setSel(archers ? [...sel, i] : [i]);
  }
  /** @param {number} w */
  function clickWall(w) {
    pick(wallMoves(w), send, setChoice);
  }
  /** The board card a Spy or Assassin play would hit. @param {number} w @param {string} side @param {string} name */
  const targetMove = (w, side, name) =>
    side === theirs ? boardTargets.find((m) => m.wall === w && m.target === name) : undefined;

  /** One side of one wall: Archers fanned by the wall, the Cannon, the Leaders behind. @param {any} wall @param {string} side */
  const sideOf = (wall, side) => {
    const s = wall[side];
    const top = s.cannons.length ? s.cannons[s.cannons.length - 1] : null;
    const spied = view.spy && view.spy.wall === wall.wall && side === 'blue' && !view.spy.buried ? view.spy.covers : null;
    const spyMove = boardTargets.find((m) => m.wall === wall.wall && m.target === 'spy');
    let spyShown = false;
    /** @param {string} name @param {string} [extra] */
    const cardAt = (name, extra) => {
      const tm = targetMove(wall.wall, side, name);
      const body = html`<${DwCard} name=${name} side=${side} small=${true} />`;
      let spiedMark = null;
      if (spied === name && !spyShown) {
        spyShown = true;
        const spyCard = html`<${DwCard} name="spy" side="red" small=${true} />`;
        spiedMark = spyMove
          ? html`<button type="button" class="dw-spied card-btn target" data-move=${spyMove.text}
              onClick=${(/** @type {Event} */ e) => { e.stopPropagation(); send(spyMove); }}>${spyCard}<span class="sr-only">: ${spyMove.text}</span></button>`
          : html`<span class="dw-spied" title="the Spy covers this card">${spyCard}<span class="sr-only"> covers it</span></span>`;
      }
      if (tm) {
        return html`<button type="button" class=${`card-btn target ${extra || ''}`} data-move=${tm.text}
          onClick=${() => send(tm)}>${body}<span class="sr-only">: ${tm.text}</span>${spiedMark}</button>`;
      }
      return html`<span class=${`card-slot ${extra || ''}`}>${body}${spiedMark}</span>`;
    };
    const parts = [
      html`<div class="dw-archers">${s.archers.map((a) => cardAt(a))}</div>`,
      html`<div class="dw-cannon">${top && cardAt(top)}${s.cannons.length > 1 && html`<span class="dw-buried small">+${s.cannons.length - 1} under</span>`}</div>`,
      html`<div class="dw-leaders">${s.leaders.map((l) => cardAt(l))}</div>`,
    ];
    // The Archers lie next to the wall, the Leaders farthest from it: the opponent's side reads
    // downwards towards the wall, the viewer's upwards from it.
    const spot = `dw:${side}:${wall.wall}`;
    return html`<div class=${`dw-side ${seatClass(SIDES.indexOf(side))} ${side === mine ? 'near' : 'far'}${spotClass(marks, spot)}`} role="group"
      aria-label=${`${side === 'blue' ? 'Blue' : 'Red'} at wall ${wall.wall}, strength ${s.strength}`} ...${spotAttrs(marks, spot)}>
      <${LastTag} marks=${marks} spot=${spot} />
      ${side === mine ? parts : parts.slice().reverse()}
      <span class="dw-strength">${s.strength}</span>
    </div>`;
  };

  return html`<div class="dw-board">
    <div class="dw-counts small">
      <span class=${seatClass(SIDES.indexOf(theirs))}>${cap(theirs)}: ${view.hand_sizes[theirs]} in hand, personal deck ${view.personal_deck_sizes[theirs]}</span>
      <span>Main deck ${view.main_deck_size} · Flags ${view.flags_on_board}/3 · walls ${view.walls_controlled.blue} Blue, ${view.walls_controlled.red} Red</span>
    </div>
    <div class="dw-walls">
      ${view.walls.map((wall) => {
        const wm = wallMoves(wall.wall);
        const flagged = !!wall.flag;
        return html`<div class="dw-col" key=${wall.wall}>
          ${sideOf(wall, theirs)}
          <button type="button" class=${`dw-wall ${seatClass(SIDES.indexOf(wall.control))}${wm.length ? ' target' : ''}`}
            data-wall=${wall.wall} disabled=${!wm.length} ...${explainAttrs('danger-at-the-walls', 'wall')} data-move=${wm.length === 1 ? wm[0].text : undefined}
            ...${wm.length ? dropOn(() => clickWall(wall.wall)) : {}}
            aria-label=${`wall ${wall.wall}, held by ${cap(wall.control)}${flagged ? `, locked by ${cap(wall.flag.by)}'s Flag` : ''}${wm.length ? `: ${wm.map((m) => m.text).join(' or ')}` : ''}`}
            onClick=${() => clickWall(wall.wall)}>
            <svg viewBox="0 0 60 30" class="dw-wall-svg" aria-hidden="true">
              <rect x="1" y="6" width="58" height="23" class="stone"/>
              <path d="M1 14 H59 M1 22 H59 M12 6 V14 M30 6 V14 M48 6 V14 M21 14 V22 M39 14 V22 M12 22 V29 M30 22 V29 M48 22 V29" class="mortar"/>
              <rect x="1" y="1" width="9" height="6" class="stone"/><rect x="17" y="1" width="9" height="6" class="stone"/>
              <rect x="34" y="1" width="9" height="6" class="stone"/><rect x="50" y="1" width="9" height="6" class="stone"/>
            </svg>
            <span class="dw-wall-num">${wall.wall}</span>
            <span class="dw-holder" aria-hidden="true" title=${`held by ${cap(wall.control)}`}><${SeatMark} seat=${SIDES.indexOf(wall.control)} /></span>
            ${flagged && html`<span class="dw-flag-mark"><${DwIcon} kind="flag" /></span>`}
          </button>
          ${sideOf(wall, mine)}
        </div>`;
      })}
    </div>
    <${Chooser} moves=${choice} send=${send} onCancel=${() => setChoice(null)} label=${attackLabel} />
    ${boardTargets.length > 0 && html`<p class="dw-prompt" role="status">Choose the card for the ${dwTitle(selCards[0])} on the board.</p>`}
    ${view.hand && html`<div class="dw-mine">
      <div class="hand" role="group" aria-label="Your hand">
        ${hand.map((c, i) => playable.has(c)
          ? html`<button type="button" class=${`card-btn playable${sel.includes(i) ? ' selected' : ''}`} data-card=${c}
              aria-pressed=${sel.includes(i)} onClick=${() => toggle(i)}
              ...${dragFrom(() => { if (!sel.includes(i)) toggle(i); })}>
              <${DwCard} name=${c} side=${mine} /></button>`
          : html`<span class="card-slot"><${DwCard} name=${c} side=${mine} /></span>`)}
      </div>
      <div class="dw-decks">
        ${draws.map((m) => html`<button type="button" class="draw-btn" data-move=${m.text} onClick=${() => send(m)}>
          Draw from ${m.from === 'personal' ? `your deck (${view.personal_deck_sizes[mine]})` : `the main deck (${view.main_deck_size})`}</button>`)}
        ${draws.length === 0 && html`<${Pile} count=${view.personal_deck_sizes[mine]} label="Your deck" />
          <${Pile} count=${view.main_deck_size} label="Main deck" />`}
        ${discards.map((m) => html`<button type="button" data-move=${m.text} onClick=${() => send(m)}>Discard ${dwTitle(m.cards[0])}</button>`)}
      </div>
      ${view.personal_deck && html`<p class="small muted">Left in your deck: ${view.personal_deck.map(dwTitle).join(', ') || 'nothing'}</p>`}
    </div>`}
    ${!view.hand && html`<div class="dw-counts small"><span class=${seatClass(SIDES.indexOf(mine))}>${cap(mine)}: ${view.hand_sizes[mine]} in hand, personal deck ${view.personal_deck_sizes[mine]}</span></div>`}
    <div class="dw-removed small">
      ${SIDES.map((s) => html`<div>Removed ${cap(s)}: ${view.removed[s].length ? view.removed[s].map(dwTitle).join(', ') : 'none'}</div>`)}
    </div>
  </div>`;
}

/** @param {LegalMove} m */
function attackLabel(m) {
  if (m.kind === 'attack') return m.target === 'cannon' ? 'Remove the top Cannon' : 'Remove all Archers';
  return m.text;
}

/** A card as players say it: "Archer 2", "Cannon 7", "Cannon Attack", "General" (the view's
 * names are "archer-2", "attack", "general"). @param {string} name */
export function dwTitle(name) {
  if (name === 'attack') return 'Cannon Attack';
  const value = valueOf(name);
  return value ? `${cap(kindOf(name))} ${value}` : cap(name);
}

/** @param {string} s */
function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Where this board shows a move besides its own button, for the guided game's coach to point
 * at (ui/coach.js): its first card in the hand and its wall (the Spy and the Assassin aim at a
 * card, not a wall). @param {any} m @returns {string[]} */
export function coachSpots(m) {
  const out = [];
  if (m.cards && m.cards.length) out.push(`.hand [data-card="${cssValue(m.cards[0])}"]`);
  if (m.wall && m.kind !== 'spy' && m.kind !== 'assassin') out.push(`[data-wall="${cssValue(m.wall)}"]`);
  return out;
}

/** The coach's words for a move (ui/coach.js), never its notation, with where the wall stands
 * (the view's strengths, DW-7: the stronger side takes it). @param {any} m @param {any} view
 * @param {number} seat the player's */
export function coachWords(m, view, seat) {
  if (m.kind === 'draw') return `Draw a card from ${m.from === 'personal' ? 'your own deck' : 'the main deck'}.`;
  const cards = (m.cards || []).map((/** @type {string} */ c) => dwTitle(c));
  const what = cards.length ? cards.join(', ') : dwTitle(m.kind);
  if (!m.wall) return `Play ${what}.`;
  return `Play ${what} on wall ${m.wall}${wallStanding(view, m.wall, seat)}.`;
}

/** ": Red leads there by 3", ": you lead there by 2", ": level at 4", or nothing. @param {any} view
 * @param {number} wall @param {number} seat */
function wallStanding(view, wall, seat) {
  const w = (view.walls || []).find((/** @type {any} */ x) => x.wall === wall);
  if (!w || !w.blue || !w.red) return '';
  const mine = seat === 1 ? 'red' : 'blue';
  const theirs = mine === 'blue' ? 'red' : 'blue';
  const lead = w[mine].strength - w[theirs].strength;
  if (lead === 0) return `: level there at ${w[mine].strength}`;
  return lead > 0 ? `: you lead there by ${lead}` : `: ${cap(theirs)} leads there by ${-lead}`;
}

/** A card of the rules page's "what each card does", drawn as the table draws it; null for a
 * wall (no card). @param {string} key */
export function glossaryArt(key) {
  if (key === 'wall') return null;
  const name = { archer: 'archer-3', cannon: 'cannon-5' }[key] || key;
  return html`<${DwCard} name=${name} />`;
}
