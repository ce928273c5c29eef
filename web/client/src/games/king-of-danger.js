// king-of-danger.js — King of Danger's table: the trick in the middle, the seats around it with
// their castle trackers (1 to 8), scores, hand sizes and known voids; with two players each
// seat's face-up row over its face-down cards. Click a card you may play (from your hand or
// your face-up row); a Wizard that leads asks for its call, Walls or Cannons. A trick the last
// move finished stays on the table for a moment (TRICK_HOLD_MS; under reduced motion until the
// next card is played) before it is cleared, so every player sees its cards and who won it.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { reducedMotion, trickEnd, TRICK_HOLD_MS } from '../pace.js';
import { Chooser, cssValue, dragFrom, dropOn, pick } from './common.js';
import { SeatMark, count, seatClass } from '../ui/seats.js';
import { LastTag, lastSpots, spotAttrs, spotClass } from './last-move.js';
import { explain, explainAttrs } from '../rules/index.js';

const SUIT_OF = (/** @type {string} */ card) =>
  card.startsWith('king') ? 'king' : card.startsWith('walls') ? 'walls' : card.startsWith('cannons') ? 'cannons' : 'wizard';

/** @param {{suit: string}} props */
function SuitIcon({ suit }) {
  if (suit === 'walls') return html`<svg viewBox="0 0 24 24" class="suit-icon" aria-hidden="true"><path d="M2 6h20v14H2z M2 11h20 M2 16h20 M8 6v5 M16 6v5 M12 11v5 M6 16v4 M18 16v4" class="ic"/></svg>`;
  if (suit === 'cannons') return html`<svg viewBox="0 0 24 24" class="suit-icon" aria-hidden="true"><circle cx="8" cy="17" r="4" class="icf"/><path d="M8 15 L20 5 L22 8 L10 18 Z" class="icf"/></svg>`;
  if (suit === 'wizard') return html`<svg viewBox="0 0 24 24" class="suit-icon" aria-hidden="true"><path d="M12 2 l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.8-6.2 3.8 1.6-7L2 9.2l7.1-.6z" class="icf"/></svg>`;
  return html`<svg viewBox="0 0 24 24" class="suit-icon" aria-hidden="true"><path d="M3 18 L4 7 L9 12 L12 4 L15 12 L20 7 L21 18 Z" class="icf"/></svg>`;
}

/** A card as players say it: "Wizard 5", "Walls 3", "King of Danger" (the view's id is "wizard-5").
 * @param {string} card */
export function cardTitle(card) {
  const suit = SUIT_OF(card);
  if (suit === 'king') return card.replace('king-of-', 'King of ').replace(/of (\w)/, (_, c) => `of ${c.toUpperCase()}`);
  return `${suit === 'wizard' ? 'Wizard' : suit === 'walls' ? 'Walls' : 'Cannons'} ${card.split('-').pop()}`;
}

/** A King of Danger card by its name ("walls-3", "king-of-danger"), or a back. @param {{card: string|null}} props */
export function KdCard({ card }) {
  if (!card) return html`<span class="card back kd-back" role="img" aria-label="face-down card"></span>`;
  const suit = SUIT_OF(card);
  const number = suit === 'king' ? '' : card.split('-').pop();
  const title = cardTitle(card);
  // What the card does by the rules (rules/index.js), when pointed at or focused.
  const key = suit === 'king' ? card : suit;
  return html`<span class=${`card kd kd-${suit}${card === 'king-of-danger' ? ' kd-danger' : ''}`} data-card=${card} role="img" aria-label=${title}
      title=${explain('king-of-danger', key)} ...${explainAttrs('king-of-danger', key)}>
    <span class="kd-num" aria-hidden="true">${number}</span>
    <${SuitIcon} suit=${suit} />
    <span class=${`kd-name${suit === 'king' ? ' kd-king-name' : ''}`} aria-hidden="true">${suit === 'king' ? title : suit}</span>
  </span>`;
}

/** A castle tracker: values 1 to 8, the current one marked. @param {{value: number}} props */
function Tracker({ value }) {
  const cells = [];
  for (let v = 1; v <= 8; v++) cells.push(html`<span class=${`trk${v <= value ? ' on' : ''}${v === value ? ' cur' : ''}`}>${v}</span>`);
  return html`<span class="tracker" role="meter" aria-valuemin="1" aria-valuemax="8" aria-valuenow=${value}
    aria-label=${`castle ${value}`}>${cells}</span>`;
}

/** The trick the last move finished (its event, KD-6 won or KD-7 set aside), while the table
 * has no card of the next one yet: its cards by seat (from the view's last trick, or the
 * event's cards alone when a new hand has begun since), its winner, and a key for it.
 * @param {any} last @param {any} view */
function finishedTrick(last, view) {
  const e = trickEnd(last && last.events);
  if (!e || view.trick.length > 0 || !Array.isArray(e.cards)) return null;
  const lt = view.last_trick;
  const same = lt && lt.cards.length === e.cards.length && lt.cards.every((/** @type {any} */ t) => e.cards.includes(t.card));
  /** @type {{seat: number|null, card: string}[]} */
  const cards = same ? lt.cards : e.cards.map((/** @type {string} */ card) => ({ seat: null, card }));
  return { cards, winner: e.kind === 'trick-won' ? e.seat : null, key: `${view.hand_number}:${view.trick_number}:${e.cards.join(' ')}` };
}

/** @param {import('./index.js').BoardProps} props */
export function KingOfDangerBoard({ view, legal, you, seats, send, status, last }) {
  const marks = lastSpots('king-of-danger', last);
  // Over by the rules, or by resignation, agreement or time though the hand is not played out.
  const over = view.over || (status !== undefined && status !== 'live');
  const [choice, setChoice] = useState(/** @type {any[]|null} */ (null));
  const finished = finishedTrick(last, view);
  const [cleared, setCleared] = useState('');
  const keepAll = reducedMotion();
  useEffect(() => {
    if (!finished || keepAll) return undefined;
    const timer = setTimeout(() => setCleared(finished.key), TRICK_HOLD_MS);
    return () => clearTimeout(timer);
  }, [finished ? finished.key : '', keepAll]);
  const held = finished && (keepAll || cleared !== finished.key) ? finished : null;
  const dragged = useRef(/** @type {{card: string, from: string}|null} */ (null));
  const moves = legal || [];
  const n = view.players;
  const me = you === null || you === undefined ? 0 : you;
  const others = [];
  for (let i = 1; i < n; i++) others.push((me + i) % n);
  const name = (/** @type {number} */ s) => (seats[s] ? seats[s].seat_name : `Seat ${s + 1}`);
  /** @param {string} card @param {string} from */
  const movesFor = (card, from) => moves.filter((m) => m.card === card && m.from === from);
  /** @param {string} card @param {string} from */
  function play(card, from) {
    setChoice(null);
    pick(movesFor(card, from), send, setChoice);
  }
  /** A card that can be clicked when the legal list has it. @param {string|null} card @param {string} from */
  const cardButton = (card, from) => {
    const ms = card ? movesFor(card, from) : [];
    if (!ms.length) return html`<span class="card-slot"><${KdCard} card=${card} /></span>`;
    return html`<button type="button" class="card-btn playable" data-move=${ms[0].text} data-card=${card}
      ...${dragFrom(() => { dragged.current = { card, from }; })} onClick=${() => play(card, from)}>
      <${KdCard} card=${card} />${from === 'table' && html`<span class="sr-only"> from the table</span>`}</button>`;
  };
  /** @param {number} s */
  const seatPanel = (s) => html`<section role="group" class=${`kd-seat ${seatClass(s, name(s))}${view.to_act === s ? ' to-move' : ''}`}
      aria-label=${`${name(s)}${s === you ? ' (you)' : ''}`}>
    <h3><${SeatMark} seat=${s} name=${name(s)} /> ${name(s)}${s === view.dealer ? ' · dealer' : ''}</h3>
    <${Tracker} value=${view.castle[s]} />
    <span class="kd-score">Score <b>${view.score[s]}</b></span>
    ${s !== you && html`<span class="kd-hand-size">${view.hand_sizes[s]} in hand</span>`}
    ${view.voids[s].length > 0 && html`<span class="kd-voids">no ${view.voids[s].join(', no ')}</span>`}
    ${view.table && html`<div class="kd-row" role="group" aria-label="table cards">${view.table[s].face_up.map((c, i) => html`<span class="kd-pile">
      ${c ? (s === you ? cardButton(c, 'table') : html`<${KdCard} card=${c} />`) : html`<span class="card empty"></span>`}
      ${view.table[s].face_down[i] && html`<span class="kd-under" role="img" aria-label="a face-down card under it"></span>`}</span>`)}</div>`}
  </section>`;
  const trickBy = new Map(view.trick.map((t) => [t.seat, t.card]));
  return html`<div class=${`kd-board kd-p${n}`}>
    <div class="kd-others">${others.map(seatPanel)}</div>
    <section role="group" class="kd-trick" aria-label="The trick"
      ...${dropOn(() => { if (dragged.current) play(dragged.current.card, dragged.current.from); dragged.current = null; })}>
      <div class="kd-trick-head">
        Hand ${view.hand_number} · trick ${view.trick_number} of ${view.tricks_per_hand}
        ${view.trick_suit ? html` · <b class=${`suit-${view.trick_suit}`}>${view.trick_suit} trick</b>` : ''}
      </div>
      ${held && html`<div class="kd-held" role="group" data-testid="held-trick" aria-label="The trick just played">
        <p class="kd-held-head">${held.winner !== null ? `${name(held.winner)} won this trick` : 'Only Kings: the trick is set aside'}${over ? '' : ` · ${name(view.to_act)} leads next`}</p>
        <div class="kd-trick-cards">${held.cards.map((t) => html`<figure class=${`kd-played ${t.seat !== null ? seatClass(t.seat, name(t.seat)) : ''}${t.seat === held.winner ? ' kd-winner' : ''}${spotClass(marks, `card:${t.card}`)}`}
          ...${spotAttrs(marks, `card:${t.card}`)}><${KdCard} card=${t.card} /><figcaption>${t.seat !== null ? name(t.seat) : ''}${t.seat === held.winner ? ' (won)' : ''}<${LastTag} marks=${marks} spot=${`card:${t.card}`} /></figcaption></figure>`)}</div>
      </div>`}
      <div class="kd-trick-cards">
        ${view.trick.length === 0 && !held && html`<span class="muted">${over ? 'Game over' : `${name(view.to_act)} leads`}</span>`}
        ${[...trickBy.entries()].map(([s, c]) => html`<figure class=${`kd-played ${seatClass(s, name(s))} reveal-card${spotClass(marks, `card:${c}`)}`}
          ...${spotAttrs(marks, `card:${c}`)}><${KdCard} card=${c} /><figcaption>${name(s)}<${LastTag} marks=${marks} spot=${`card:${c}`} /></figcaption></figure>`)}
      </div>
      ${view.last_trick && !held && html`<div class="kd-last small">Last trick: ${view.last_trick.cards.map((t, i) => html`${i ? ', ' : ''}<span
          class=${`kd-last-card${spotClass(marks, `card:${t.card}`)}`} ...${spotAttrs(marks, `card:${t.card}`)}>${name(t.seat)} ${cardTitle(t.card)}<${LastTag}
          marks=${marks} spot=${`card:${t.card}`} /></span>`)}
        ${view.last_trick.winner !== null && view.last_trick.winner !== undefined ? ` — ${name(view.last_trick.winner)} won` : ' — set aside'}</div>`}
      ${view.aside.length > 0 && html`<div class="kd-aside small">Set aside: ${view.aside.map((c) => html`<${KdCard} card=${c} />`)}</div>`}
    </section>
    <${Chooser} moves=${choice} send=${send} onCancel=${() => setChoice(null)} title="Name the trick suit"
      label=${(m) => `${cardTitle(m.card)} names ${m.call === 'walls' ? 'Walls' : 'Cannons'}`} />
    ${you !== null && you !== undefined ? html`<div class="kd-mine">
      ${seatPanel(you)}
      <div class="kd-hand">
        <p class="hand-caption" data-testid="hand-caption">Your hand · ${count((view.hand || []).length, 'card')}</p>
        <div class="hand" role="group" aria-label="Your hand">${(view.hand || []).map((c) => cardButton(c, 'hand'))}</div>
      </div>
    </div>` : seatPanel(0) && html`<div class="kd-mine">${seatPanel(0)}</div>`}
    ${view.played.length > 0 && html`<details class="kd-played-list"><summary>Played this hand (${view.played.length})</summary>
      <div class="kd-played-cards">${view.played.map((c) => html`<${KdCard} card=${c} />`)}</div></details>`}
  </div>`;
}

/** Where this board shows a move besides its own button, for the guided game's coach to point
 * at (ui/coach.js): the card it plays. @param {any} m @returns {string[]} */
export function coachSpots(m) {
  return m.card ? [`button[data-card="${cssValue(m.card)}"]`] : [];
}

/** The coach's words for a move (ui/coach.js), never its notation. @param {any} m @param {any} _view */
export function coachWords(m, _view) {
  if (!m.card) return 'Make the marked move.';
  return `Play your ${cardTitle(m.card)}${m.call ? `, naming ${m.call === 'walls' ? 'Walls' : 'Cannons'}` : ''}.`;
}

/** A card of the rules page's "what each card does", drawn as the table draws it. @param {string} key */
export function glossaryArt(key) {
  const card = { walls: 'walls-3', cannons: 'cannons-5', wizard: 'wizard-1' }[key] || (key.startsWith('king-of-') ? key : null);
  return card ? html`<${KdCard} card=${card} />` : null;
}
