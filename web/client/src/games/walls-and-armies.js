// walls-and-armies.js — Walls and Armies' table: each player's walls (face down, or turned up
// while attacked), shields laid sideways, and army deck; the attacker's stacks beside their
// targets; the main deck and the discard pile. The attacker clicks a shield or wall to attack
// it (only the cards the legal list offers) or one of their stacks; the defender leaves or
// counters.
import { html } from 'htm/preact';
import { Pile } from './common.js';
import { count, seatClass } from '../ui/seats.js';
import { LastTag, lastSpots, spotAttrs, spotClass } from './last-move.js';
import { explain, explainAttrs } from '../rules/index.js';

const SUITS = { C: '♣', D: '♦', H: '♥', S: '♠' };
const SUIT_NAMES = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const RANK_NAMES = { J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' };

/** A standard playing card ("10D", "QS"), or its back when null; `explain` names what it is on
 * the table (a wall, a shield), which it then explains when pointed at or focused (rules/index.js).
 * @param {{card: string|null, sideways?: boolean, explain?: string}} props */
export function PlayingCard({ card, sideways, explain: role }) {
  const told = role ? { title: explain('walls-and-armies', role), ...explainAttrs('walls-and-armies', role) } : {};
  if (!card) return html`<span class=${`card back${sideways ? ' sideways' : ''}`} role="img" aria-label="face-down card" ...${told}></span>`;
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  const red = suit === 'D' || suit === 'H';
  return html`<span class=${`card pc ${red ? 'red' : 'black'} suit-${suit}${sideways ? ' sideways' : ''}`}
    role="img" aria-label=${`${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit]}`} data-card=${card} ...${told}>
    <span class="corner" aria-hidden="true">${rank}<br/>${SUITS[suit]}</span>
    <span class="pip" aria-hidden="true">${RANK_NAMES[rank] ? rank : SUITS[suit]}</span>
  </span>`;
}

/** @param {import('./index.js').BoardProps} props */
export function WallsAndArmiesBoard({ view, legal, you, send, status, last }) {
  const marks = lastSpots('walls-and-armies', last);
  const moves = legal || [];
  const me = you === 1 ? 1 : 0;
  const order = [1 - me, me];
  const attack = (kind, n) => moves.find((m) => m.kind === 'attack' && m[kind] === n);
  const stackMove = (n) => moves.find((m) => m.kind === 'stack' && m.stack === n);
  const leave = moves.find((m) => m.kind === 'leave');
  const counter = moves.find((m) => m.kind === 'counter');
  const defender = 1 - view.attacker;
  // A finished game (by the rules, resignation, agreement or time) shows no side as acting:
  // the attacker's ring and the "attacks"/"defends" words are the live game's.
  const over = (view.winner !== null && view.winner !== undefined) || (status !== undefined && status !== 'live');
  const acting = (/** @type {number} */ seat) => !over && seat === view.attacker;
  const role = (/** @type {number} */ seat) => (over ? '' : seat === view.attacker ? ' attacks' : ' defends');
  /** Stacks by their target, for drawing them beside it. */
  const stackOn = (kind, n) => {
    const i = view.stacks.findIndex((s) => s.target_kind === kind && s.target_number === n);
    return i < 0 ? null : { ...view.stacks[i], number: i + 1 };
  };

  /** @param {any} p @param {number} seat */
  const side = (p, seat) => html`<section role="group" class=${`wa-side ${seatClass(seat)}${acting(seat) ? ' attacking' : ''}`}
      aria-label=${`${p.name}'s cards`}>
    <h3>${p.name}${role(seat)} · ${count(p.walls.length, 'wall')}</h3>
    <div class="wa-rows">
      <div class="wa-row shields" role="group" aria-label="Shields">
        <span class="muted small">${p.shields.length === 0 ? 'no shields' : 'shields'}</span>
        ${p.shields.map((c, i) => html`<${Target} card=${c} sideways=${true} label=${`shield ${i + 1}`}
          move=${seat === defender ? attack('shield', i + 1) : null} stack=${seat === defender ? stackOn('shield', i + 1) : null}
          stackMove=${stackMove} send=${send} marks=${marks} spot=${`wa:${seat}:shield:${i + 1}`} />`)}
      </div>
      <div class="wa-row walls" role="group" aria-label="Walls">
        ${p.walls.map((c, i) => html`<${Target} card=${c} label=${`wall ${i + 1}`}
          move=${seat === defender ? attack('wall', i + 1) : null} stack=${seat === defender ? stackOn('wall', i + 1) : null}
          stackMove=${stackMove} send=${send} marks=${marks} spot=${`wa:${seat}:wall:${i + 1}`} />`)}
      </div>
      <${Pile} count=${p.army_cards} label="Army" kind="army" attrs=${explainAttrs('walls-and-armies', 'army')} />
    </div>
  </section>`;

  return html`<div class="wa">
    ${side(view.players[order[0]], order[0])}
    <div class="wa-middle">
      <${Pile} count=${view.main_deck} label="Main deck" attrs=${explainAttrs('walls-and-armies', 'deck')} />
      <div class=${`pile discard${spotClass(marks, 'wa:discard')}`} role="group" aria-label=${`Discard pile: ${view.discard.length}`}
        ...${explainAttrs('walls-and-armies', 'discard')} ...${spotAttrs(marks, 'wa:discard')}><${LastTag} marks=${marks} spot="wa:discard" />
        <span class="pile-cards">${view.discard.length ? html`<${PlayingCard} card=${view.discard[view.discard.length - 1]} />` : html`<span class="card empty"></span>`}</span>
        <span class="pile-label">Discard <b>${view.discard.length}</b></span>
      </div>
      ${view.revealed.length > 0 && html`<div class="wa-revealed" role="group" aria-label="Turned up by the last move">
        <span class="small muted">Turned up:</span>${view.revealed.map((c) => html`<span class="reveal-card"><${PlayingCard} card=${c} /></span>`)}</div>`}
      <div class="wa-turn">${over ? 'Ended on turn' : 'Turn'} ${view.turn} of ${view.turn_cap}</div>
    </div>
    ${side(view.players[order[1]], order[1])}
    ${(leave || counter) && html`<div class="wa-defend" role="group" aria-label="Defend">
      <span>Stack ${view.pending_stack} (total ${(view.stacks[view.pending_stack - 1] || {}).total}) did not beat its target.</span>
      ${leave && html`<button type="button" data-move=${leave.text} onClick=${() => send(leave)}>Leave it</button>`}
      ${counter && html`<button type="button" data-move=${counter.text} onClick=${() => send(counter)}>Counter-attack</button>`}
    </div>`}
  </div>`;
}

/**
 * One of the defender's shields or walls: a button when it can be attacked, with the
 * attacker's stack against it (a button when it can be added to).
 * @param {{card: string|null, sideways?: boolean, label: string, move: any, stack: any, stackMove: (n: number) => any,
 *   send: (m: any) => void, marks: Set<string>, spot: string}} props
 */
function Target({ card, sideways, label, move, stack, stackMove, send, marks, spot }) {
  const sm = stack ? stackMove(stack.number) : null;
  return html`<div class=${`wa-target${spotClass(marks, spot)}`} ...${spotAttrs(marks, spot)}><${LastTag} marks=${marks} spot=${spot} />
    ${move
      ? html`<button type="button" class="card-btn target" data-move=${move.text}
          onClick=${() => send(move)}><span class="sr-only">Attack ${label}: </span><${PlayingCard} card=${card} sideways=${sideways} explain=${sideways ? 'shield' : 'wall'} /></button>`
      : html`<span class="card-slot" role="group" aria-label=${label}><${PlayingCard} card=${card} sideways=${sideways} explain=${sideways ? 'shield' : 'wall'} /></span>`}
    ${stack && html`<div class="wa-stack" role="group" aria-label=${`stack ${stack.number}, total ${stack.total}`} ...${explainAttrs('walls-and-armies', 'stack')}>
      ${stack.cards.map((c) => html`<${PlayingCard} card=${c} />`)}
      <span class="total">= ${stack.total}</span>
      ${sm && html`<button type="button" class="small-btn" data-move=${sm.text} onClick=${() => send(sm)}>Add to stack ${stack.number}</button>`}
    </div>`}
  </div>`;
}

/** Where this board shows a move besides its own button, for the guided game's coach to point
 * at (ui/coach.js): nothing: every move here is one button. @param {any} _m @returns {string[]} */
export function coachSpots(_m) {
  return [];
}

/** The coach's words for a move (ui/coach.js), never its notation. @param {any} m @param {any} _view */
export function coachWords(m, _view) {
  if (m.kind === 'attack') return 'Attack the marked shield or wall with the top card of your army.';
  if (m.kind === 'stack') return 'Add the next card of your army to your stack.';
  if (m.kind === 'counter') return 'Counter-attack with the top card of your army.';
  if (m.kind === 'leave') return 'Leave it: the stack stays where it is.';
  return 'Make the marked move.';
}

/** A thing of the rules page's "what each card does", drawn as the table draws it: a wall
 * face down, a shield (a face card), a stack's card; null for the piles. @param {string} key */
export function glossaryArt(key) {
  const card = { wall: null, shield: 'QS', stack: '9H', army: null }[key];
  if (card === undefined) return null;
  return html`<${PlayingCard} card=${card} />`;
}
