// paces.js — the paces a game can be played at, shared by the lobby's "Play people" form,
// "Play now" and the challenge form: no clock, live clocks (minutes for the game, seconds
// added per move) and days per move (the protocol's correspondence clock), each explained.
import { html } from 'htm/preact';

/** Each pace: the clock object `create`, `seek` and `challenge` take, and what it means. */
export const PACES = {
  none: { label: 'No clock', clock: { kind: 'none' },
    help: 'No clock: take as long as you like over each move.' },
  '5+5': { label: 'Live: 5 min + 5 s', clock: { kind: 'live', initial_ms: 300000, increment_ms: 5000 },
    help: 'Live: each player has 5 minutes for the whole game, plus 5 seconds for each move made in time. Play it in one sitting.' },
  '15+10': { label: 'Live: 15 min + 10 s', clock: { kind: 'live', initial_ms: 900000, increment_ms: 10000 },
    help: 'Live: each player has 15 minutes for the whole game, plus 10 seconds for each move made in time. Play it in one sitting.' },
  '1d': { label: '1 day per move', clock: { kind: 'correspondence', days: 1 },
    help: 'Days per move: each player has 1 day for each move; come back when it is your turn. Running out loses the game.' },
  '2d': { label: '2 days per move', clock: { kind: 'correspondence', days: 2 },
    help: 'Days per move: each player has 2 days for each move; come back when it is your turn. Running out loses the game.' },
  '3d': { label: '3 days per move', clock: { kind: 'correspondence', days: 3 },
    help: 'Days per move: each player has 3 days for each move; come back when it is your turn. Running out loses the game.' },
  '7d': { label: '7 days per move', clock: { kind: 'correspondence', days: 7 },
    help: 'Days per move: each player has 7 days for each move; come back when it is your turn. Running out loses the game.' },
};

/** A clock object in words ("Live: 5 min + 5 s", "3 days per move", "No clock"). @param {any} clock */
export function paceText(clock) {
  if (!clock || clock.kind === 'none') return 'No clock';
  if (clock.kind === 'live') return `Live: ${Math.round(clock.initial_ms / 60000)} min + ${Math.round((clock.increment_ms || 0) / 1000)} s`;
  const days = clock.days || Math.round((clock.per_move_ms || 0) / 86400000);
  return `${days} ${days === 1 ? 'day' : 'days'} per move`;
}

/**
 * The pace select with the explanation of the one chosen under it (its description, so a
 * screen reader reads it with the field).
 * @param {{id: string, value: string, onChange: (v: string) => void, testid?: string}} props
 */
export function PaceField({ id, value, onChange, testid }) {
  const pace = PACES[value] || PACES.none;
  return html`<div class="pace-field">
    <label for=${id}>Pace</label>
    <select id=${id} value=${value} data-testid=${testid || `${id}`} aria-describedby=${`${id}-help`}
      onChange=${(/** @type {any} */ e) => onChange(e.currentTarget.value)}>
      <option value="none">${PACES.none.label}</option>
      <optgroup label="Live clocks">${['5+5', '15+10'].map((k) => html`<option value=${k}>${PACES[k].label}</option>`)}</optgroup>
      <optgroup label="Days per move">${['1d', '2d', '3d', '7d'].map((k) => html`<option value=${k}>${PACES[k].label}</option>`)}</optgroup>
    </select>
    <p class="pace-help small muted" id=${`${id}-help`} data-testid=${`${testid || id}-help`}>${pace.help}</p>
  </div>`;
}
