// rush-the-wall.js — Rush the Wall's table: The Wall's six forts in a row, the fort fought over
// marked; each clan's six warrior slots above or below it (face down until turned up), its
// face-up warriors, captured forts and points; the viewer's drawn warriors. Pick a warrior,
// then the slot it goes to; the Qween charms a revealed rival by clicking it, the Dru'hid takes
// a fort from The Wall, discards and payments click the warrior or fort; the Axx keeps or drops.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { MoveButtons, cssValue, dragFrom, dropOn } from './common.js';
import { count, seatClass } from '../ui/seats.js';
import { lastSpots, spotAttrs, spotClass, spotWords } from './last-move.js';
import { explain, explainAttrs } from '../rules/index.js';

/** @typedef {import('../client.js').LegalMove} LegalMove */

const WARRIOR_NAMES = {
  filchy: 'Filchy', qween: 'Qween', druhid: "Dru'hid", zvord: 'Zvord', archr: "Arch'r",
  horsie: 'Horsie', axx: 'Axx', chariott: "Ch'ariott", laird: 'Laird',
};
const WARRIOR_TEXT = {
  filchy: 'cannot capture', qween: 'charms a rival', druhid: 'takes any fort', zvord: 'replaces hidden',
  archr: 'wins ties', horsie: 'loses: discards', axx: 'may stay up', chariott: 'two crash', laird: '',
};
const CLAN_SEAT = { green: 0, red: 1, gold: 2, blue: 3 };

/** @param {any} v */
const list = (v) => (Array.isArray(v) ? v : typeof v === 'string' && v ? v.split(/[ ,]+/).filter(Boolean) : []);

/** A warrior card, or its back. @param {{name: string|null, strengths: any, clan?: string}} props */
export function Warrior({ name, strengths, clan }) {
  const cls = clan ? seatClass(CLAN_SEAT[clan] ?? 0, clan) : '';
  if (!name) return html`<span class=${`card back rw-back ${cls}`} role="img" aria-label="face-down warrior"></span>`;
  const strength = strengths ? strengths[name] : undefined;
  return html`<span class=${`card rw-warrior ${cls}`} data-card=${name} role="img" title=${explain('rush-the-wall', name)} ...${explainAttrs('rush-the-wall', name)}
    aria-label=${`${WARRIOR_NAMES[name] || name}${strength !== undefined ? `, strength ${strength}` : ''}`}>
    <span class="rw-str" aria-hidden="true">${strength}</span>
    <svg viewBox="0 0 24 24" class="rw-icon" aria-hidden="true"><circle cx="12" cy="7" r="4" class="icf"/><path d="M4 22 C5 14 19 14 20 22 Z" class="icf"/></svg>
    <span class="rw-name" aria-hidden="true">${WARRIOR_NAMES[name] || name}</span>
    <span class="rw-fx" aria-hidden="true">${WARRIOR_TEXT[name] || ''}</span>
  </span>`;
}

/** Each fort kind's name in three parts: the middle one is its caption on a narrow screen (the
 * whole name stays its label and tooltip). @type {{[kind: string]: [string, string, string]}} */
const FORT_WORDS = { dinary: ['Fort-', 'Dinary', ''], unwary: ['', 'Unwary', ''], signal: ['', 'Signal', ''],
  tax: ['', 'Tax', "-Collector's"], legion: ['', 'Legion', ''] };

/** A fort by its label ("dinary5", "legion-2", "tax8"), or an empty place. @param {{label: string|null, current?: boolean}} props */
export function Fort({ label, current }) {
  if (!label) return html`<span class="fort empty" role="img" aria-label="no fort"></span>`;
  const m = /^([a-z]+?)(-?\d+)([a-z]?)$/.exec(label) || [label, label, '', ''];
  const parts = FORT_WORDS[m[1]] || ['', m[1], ''];
  const kind = parts.join('');
  return html`<span class=${`fort fort-${m[1]}${current ? ' current' : ''}`} data-fort=${label} role="img" title=${explain('rush-the-wall', m[1])} ...${explainAttrs('rush-the-wall', m[1])} aria-label=${`${kind} fort, ${m[2]} points`}>
    <svg viewBox="0 0 40 36" class="fort-svg" aria-hidden="true">
      <path d="M3 34 V10 H9 V5 H15 V10 H25 V5 H31 V10 H37 V34 Z" class="fort-stone"/>
      <path d="M16 34 V24 a4 4 0 0 1 8 0 V34 Z" class="fort-gate"/></svg>
    <span class="fort-val" aria-hidden="true">${m[2]}</span>
    <span class="fort-kind" aria-hidden="true">${parts[0] && html`<span class="long">${parts[0]}</span>`}${parts[1]}${parts[2] && html`<span class="long">${parts[2]}</span>`}</span>
  </span>`;
}

/** @param {import('./index.js').BoardProps} props */
export function RushTheWallBoard({ view, legal, you, send, status, last }) {
  const marks = lastSpots('rush-the-wall', last);
  const [chosen, setChosen] = useState(/** @type {string|null} */ (null));
  const moves = legal || [];
  const strengths = view.cards ? view.cards.strengths : null;
  const clans = view.clans || [];
  const mineIdx = clans.findIndex((c) => c.seat === you && you !== null && you !== undefined);
  const mine = mineIdx >= 0 ? clans[mineIdx] : null;
  const others = clans.filter((c) => c !== mine);
  const above = mine ? others : clans.slice(0, Math.ceil(clans.length / 2));
  const below = mine ? [mine] : clans.slice(Math.ceil(clans.length / 2));
  const places = moves.filter((m) => m.kind === 'place');
  const choose = places.length > 0;
  const placeFor = (/** @type {string} */ w) => places.find((m) => m.warrior === w);
  const wall = Array.isArray(view.wall) ? view.wall : list(view.wall);
  const takeAt = (/** @type {number} */ pos) => moves.find((m) => m.kind === 'take' && m.position === pos);
  const charmOf = (/** @type {string} */ clan) => moves.find((m) => m.kind === 'charm' && m.clan === clan);
  const discardOf = (/** @type {string} */ w) => moves.find((m) => m.kind === 'discard' && m.warrior === w);
  const payOf = (/** @type {string} */ f) => moves.find((m) => m.kind === 'pay' && m.fort === f);
  const other = moves.filter((m) => m.kind === 'keep' || m.kind === 'drop');

  /** @param {any} c */
  const clanRow = (c) => {
    const slots = list(c.slots);
    const cells = [];
    for (let i = 0; i < 6; i++) {
      const placed = i < slots.length;
      const w = placed ? slots[i] : null;
      const next = c === mine && chosen && view.next_slot === i + 1;
      const nextMove = next ? placeFor(chosen) : null;
      cells.push(nextMove
        ? html`<button type="button" class="rw-slot target" data-move=${nextMove.text} aria-label=${`Slot ${i + 1}: place ${WARRIOR_NAMES[chosen] || chosen} here`}
            ...${dropOn(() => { setChosen(null); send(nextMove); })}
            onClick=${() => { setChosen(null); send(nextMove); }}><span class="card empty"></span></button>`
        : html`<span class=${`rw-slot${placed ? '' : ' open'}${spotClass(marks, `rw:${c.clan}:${i + 1}`)}`} role=${placed && w !== '-' ? 'group' : 'img'}
            ...${spotAttrs(marks, `rw:${c.clan}:${i + 1}`)}
            aria-label=${[placed ? (w && w !== '-' ? `slot ${i + 1}` : `slot ${i + 1}: face down`) : `slot ${i + 1}: empty`,
              spotWords(marks, `rw:${c.clan}:${i + 1}`)].filter(Boolean).join(', ')}>
            ${placed && w !== '-' ? html`<${Warrior} name=${w} strengths=${strengths} clan=${c.clan} />` : html`<span class="card empty"></span>`}</span>`);
    }
    const charm = charmOf(c.clan);
    const faceUp = list(c.face_up);
    return html`<section role="group" class=${`rw-clan ${seatClass(CLAN_SEAT[c.clan] ?? 0, c.clan)}${view.to_act === c.clan ? ' to-move' : ''}`}
        aria-label=${`${cap(c.clan)}${c.neutral ? ' (neutral)' : ''}${c === mine ? ' (you)' : ''}`}>
      <h3>${cap(c.clan)}${c.neutral ? ' · neutral' : ''} · ${count(c.points, 'point')}</h3>
      <div class="rw-slots">${cells}</div>
      <div class="rw-aside">
        <div class="rw-up" role="group" aria-label="face-up warriors">
          ${faceUp.map((w) => {
            const d = c === mine ? discardOf(w) : null;
            if (d) return html`<button type="button" class="card-btn target" data-move=${d.text} onClick=${() => send(d)}><${Warrior} name=${w} strengths=${strengths} clan=${c.clan} /><span class="sr-only">: ${d.text}</span></button>`;
            if (charm && charm.warrior === w) return html`<button type="button" class="card-btn target" data-move=${charm.text} onClick=${() => send(charm)}><${Warrior} name=${w} strengths=${strengths} clan=${c.clan} /><span class="sr-only">: ${charm.text}</span></button>`;
            return html`<span class="card-slot"><${Warrior} name=${w} strengths=${strengths} clan=${c.clan} /></span>`;
          })}
          ${charm && !faceUp.includes(charm.warrior) && html`<button type="button" data-move=${charm.text} onClick=${() => send(charm)}>${charm.text}</button>`}
        </div>
        ${list(c.last_round).length > 0 && slots.length === 0 && html`<div class="rw-last small muted">Last round: ${list(c.last_round).map((w) => WARRIOR_NAMES[w] || w).join(', ')}</div>`}
        <div class="rw-forts" role="group" aria-label="captured forts">
          ${list(c.forts).map((f) => {
            const p = c === mine ? payOf(f) : null;
            return p ? html`<button type="button" class="card-btn target" data-move=${p.text} onClick=${() => send(p)}><${Fort} label=${f} /><span class="sr-only">: ${p.text}</span></button>`
              : html`<${Fort} label=${f} />`;
          })}
        </div>
      </div>
    </section>`;
  };

  const handed = mine ? list(mine.hand) : [];
  return html`<div class=${`rw rw-n${clans.length}`}>
    <div class="rw-info small">Round ${view.round} of 3 · turn ${view.turn} · ${phaseText(view, status)}</div>
    <div class="rw-clans above">${above.map(clanRow)}</div>
    <div class="rw-wall" role="group" aria-label="The Wall">
      ${wall.map((f, i) => {
        const t = takeAt(i + 1);
        const label = f && f !== '-' ? f : null;
        return t ? html`<button type="button" class="card-btn target" data-move=${t.text} onClick=${() => send(t)}><${Fort} label=${label} current=${view.current === i + 1} /><span class="sr-only">: ${t.text}</span></button>`
          : html`<${Fort} label=${label} current=${view.current === i + 1} />`;
      })}
    </div>
    <div class="rw-clans below">${below.map(clanRow)}</div>
    ${mine && handed.length > 0 && html`<div class="rw-hand">
      <span class="small">${choose ? `Choose a warrior for slot ${view.next_slot}, then click the slot:` : 'Your warriors:'}</span>
      <div class="hand" role="group" aria-label="Your warriors">${handed.map((w) => placeFor(w)
        ? html`<button type="button" class=${`card-btn playable${chosen === w ? ' selected' : ''}`} data-card=${w} aria-pressed=${chosen === w}
            onClick=${() => setChosen(chosen === w ? null : w)}
            ...${dragFrom(() => setChosen(w))}>
            <${Warrior} name=${w} strengths=${strengths} clan=${mine.clan} /></button>`
        : html`<span class="card-slot"><${Warrior} name=${w} strengths=${strengths} clan=${mine.clan} /></span>`)}</div>
    </div>`}
    <${MoveButtons} moves=${other} send=${send} label=${(m) => (m.kind === 'keep' ? 'Keep the Axx face up' : 'Drop the Axx')} />
    ${view.over && html`<p class="rw-over">Game over${view.winners ? `: ${list(view.winners).map(cap).join(' and ')} win${list(view.winners).length === 1 ? 's' : ''}` : ''}.</p>`}
  </div>`;
}

/** @param {any} view @param {string} [status] the game's, over too by resignation or time */
function phaseText(view, status) {
  if (view.over || (status !== undefined && status !== 'live')) return 'game over';
  const who = view.to_act ? cap(view.to_act) : '';
  switch (view.phase) {
    case 'plan': return `${who} places warriors`;
    case 'zvord': return `${who} places again (Zvord)`;
    case 'qween': return `${who}'s Qween charms`;
    case 'druhid': return `${who}'s Dru'hid takes a fort`;
    case 'signal': return `${who} discards (Signal Fort)`;
    case 'tax': return `${who} pays a fort (Tax-Collector's)`;
    case 'axx': return `${who} keeps or drops the Axx`;
    case 'horsie': return `${who} discards (Horsie)`;
    default: return view.phase;
  }
}

/** @param {string} s */
function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Where this board shows a move besides its own button, for the guided game's coach to point
 * at (ui/coach.js): the warrior in the hand it places. @param {any} m @returns {string[]} */
export function coachSpots(m) {
  return m.warrior ? [`.hand button[data-card="${cssValue(m.warrior)}"]`] : [];
}

/** The coach's words for a move (ui/coach.js), never its notation. @param {any} m @param {any} view */
export function coachWords(m, view) {
  const name = WARRIOR_NAMES[m.warrior] || 'the marked warrior';
  if (m.kind === 'place') return `Place your ${name} face down in slot ${view.next_slot}.`;
  if (m.kind === 'charm') return `Charm the marked rival warrior with your Qween.`;
  if (m.kind === 'keep') return 'Keep your Axx face up.';
  if (m.kind === 'drop') return 'Let your Axx go.';
  return 'Choose the marked fort or warrior.';
}

/** A warrior or fort of the rules page's "what each does", drawn as the table draws it (the
 * default card set's strength or value). @param {string} key */
export function glossaryArt(key) {
  const fort = { dinary: 'dinary5', unwary: 'unwary2', signal: 'signal4', tax: 'tax8', legion: 'legion-2' }[key];
  if (fort) return html`<${Fort} label=${fort} />`;
  return WARRIOR_NAMES[key] ? html`<${Warrior} name=${key} strengths=${DEFAULT_STRENGTHS} clan="green" />` : null;
}

/** The default card set's strengths (RW-2), for the rules page's drawings. */
const DEFAULT_STRENGTHS = { filchy: 1, qween: 2, druhid: 3, zvord: 4, archr: 5, horsie: 6, axx: 7, chariott: 8, laird: 9 };
