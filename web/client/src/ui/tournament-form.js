// tournament-form.js — creating a tournament (#/tournaments/new), for registered players (a
// guest reads why not): its name, game, format (a set, a Swiss, an arena), rounds or minutes,
// the games of each pairing, the players at each game (3 to 5 where the game allows), the
// game's options (Castle Danger's formal set in one click), the computer as a Swiss's house
// player, the pace and rated. The server's
// refusal is shown under the field it names (docs/server-protocol.md "Tournaments").
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { PACES, PaceField } from './paces.js';
import { isRegistered } from './account.js';

/** @typedef {import('../client.js').Client} Client */

const FORMATS = {
  swiss: 'Swiss: a fixed number of rounds; each round pairs players with the same score, never the same two twice.',
  sets: 'A set: the same players play a number of games, the seats rotated between games (with two, they change sides).',
  arena: 'Arena: a fixed time; whoever finishes a game is paired again with someone waiting, near their score. Two players a game; a player may pause and come back.',
};
const RULEBOOK = '"The game should always be played in sets of 2 games, with players changing sides between games; a ' +
  'pre-determined number of turns (25 is recommended) should be scored as a draw."';

/**
 * The field a refusal is about, from its code and the words the server puts first
 * ("rounds: 1 to 50 for a Swiss", "field 'name' is longer than 63 bytes", "turn-limit: a
 * whole number from 0 to 200"); '' for the form as a whole.
 * @param {any} reply @param {string[]} optionNames
 */
export function fieldOf(reply, optionNames) {
  const text = reply.message || '';
  const quoted = /field '([\w-]+)'/.exec(text);
  const head = /^([\w-]+):/.exec(text);
  const word = quoted ? quoted[1] : head ? head[1] : '';
  const known = { name: 'name', format: 'format', rounds: 'rounds', duration: 'minutes', minutes: 'minutes', set: 'games',
    games: 'games', table: 'table', type: 'type', clock: 'clock', rated: 'rated', computer: 'computer' };
  if (reply.code === 'bad-game') return 'type';
  if (reply.code === 'not-allowed' && /computer/.test(text)) return 'computer';
  if (reply.code === 'bad-clock') return 'clock';
  if (reply.code === 'bad-option') {
    if (/is not played at tables of/.test(text) || word === 'players') return 'table';
    return optionNames.includes(word) ? `opt-${word}` : 'options';
  }
  return known[word] || (optionNames.includes(word) ? `opt-${word}` : '');
}

/** @param {{client: Client}} props */
export function CreateTournamentPage({ client }) {
  const user = client.state.user;
  return html`<div class="tournament-new">
    <h1>Create a tournament</h1>
    ${!user ? html`<p role="status">Connecting…</p>`
      : isRegistered(client) ? html`<${TournamentForm} client=${client} />`
      : html`<p class="panel" data-testid="tour-guest">Tournaments are created by registered players, so that each
        has someone who answers for it: register (at the top of the page) to create one. As a guest you may join an
        unrated tournament from the <a href="#/tournaments">list</a>.</p>`}
  </div>`;
}

/** The form's values, as `create` takes them. */
const START = { name: '', type: 'castle-danger', format: 'swiss', rounds: 5, minutes: 60, games: 1, table: 2, pace: 'none',
  rated: false, join: true, computer: '' };
// The computer's levels (docs/ai.md), for a Swiss's house player.
const LEVELS = ['random', 'greedy', 'beginner', 'easy', 'medium', 'hard'];

/** @param {{client: Client}} props */
function TournamentForm({ client }) {
  const types = client.state.types;
  const [v, setV] = useState({ ...START });
  const [options, setOptions] = useState(/** @type {{[k: string]: any}} */ ({}));
  const [errors, setErrors] = useState(/** @type {{[field: string]: string}} */ ({}));
  const [busy, setBusy] = useState(false);
  const t = types.find((x) => x.type === v.type);
  const gameOptions = t ? t.options.filter((/** @type {any} */ o) => o.kind === 'int' || o.kind === 'choice') : [];
  const tables = t ? range(Math.max(2, t.min_players), Math.min(5, t.max_players)) : [2];
  /** @param {Partial<typeof START>} patch */
  const change = (patch) => setV({ ...v, ...patch });
  /** The props of a field: its id, and its error as its description. @param {string} field */
  const described = (field) => ({ id: `tf-${field}`, 'aria-invalid': errors[field] ? 'true' : undefined,
    'aria-describedby': [`tf-${field}-help`, errors[field] ? `tf-${field}-error` : ''].filter(Boolean).join(' ') || undefined });

  /** Castle Danger's formal play (CD-8): a set of 2 games, sides swapped, turn 25 a draw. */
  function formalSet() {
    setV({ ...v, type: 'castle-danger', format: 'sets', games: 2, table: 2 });
    setOptions({ tournament: 1 });
    setErrors({});
  }

  /** @param {Event} e */
  async function submit(e) {
    e.preventDefault();
    if (!t) return;
    setBusy(true);
    setErrors({});
    const msg = { t: 'tournament', op: 'create', name: v.name.trim(), type: v.type, format: v.format, games: v.games,
      table: v.table, options, clock: PACES[v.pace].clock, rated: v.rated };
    if (v.format === 'swiss') msg.rounds = v.rounds;
    if (v.format === 'arena') msg.minutes = v.minutes;
    if (v.computer && v.format === 'swiss' && v.table === 2) msg.computer = v.computer;
    const reply = await client.transport.request(msg, { quiet: true });
    if (reply.t === 'error') {
      setBusy(false);
      const field = fieldOf(reply, gameOptions.map((/** @type {any} */ o) => o.name));
      setErrors({ [field || 'form']: reply.message });
      // The focus goes to the field refused, which reads its label and the reason.
      requestAnimationFrame(() => {
        const el = document.getElementById(field ? `tf-${field}` : 'tf-form-error');
        if (el) el.focus();
      });
      return;
    }
    const id = reply.tournament.id;
    // A refused entry (none is expected: it was just made) shows on the tournament's page,
    // whose Join is still offered.
    if (v.join) await client.transport.request({ t: 'tournament', op: 'join', tournament: id }, { quiet: true });
    setBusy(false);
    location.hash = `#/tournaments/${id}`;
  }

  /** A field's reason for refusal, under it. @param {string} field */
  const error = (field) => errors[field] && html`<span class="error field-error" id=${`tf-${field}-error`}
    data-testid=${`tf-${field}-error`}>${errors[field]}</span>`;
  /** @param {string} field @param {string} text */
  const help = (field, text) => html`<span class="small muted" id=${`tf-${field}-help`}>${text}</span>`;
  /** @param {(x: any) => any} read */
  const on = (read) => (/** @type {any} */ e) => read(e.currentTarget);
  return html`<section class="panel" aria-labelledby="tf-h">
    <h2 id="tf-h">The tournament</h2>
    ${types.some((x) => x.type === 'castle-danger') && html`<div class="tour-formal">
      <p class="small">Castle Danger's rulebook: ${RULEBOOK}</p>
      <p><button type="button" data-testid="tf-formal" onClick=${formalSet}>Castle Danger's formal set: 2 games, sides swapped, turn 25 a draw</button></p>
    </div>`}
    <form class="tour-form" onSubmit=${submit} data-testid="tour-form" novalidate>
      <div class="field"><label for="tf-name">Name</label>
        <input ...${described('name')} value=${v.name} required maxlength="63" autocomplete="off" data-testid="tf-name"
          onInput=${on((x) => change({ name: x.value }))} />
        ${help('name', 'Up to 63 bytes: what the list and the standings show.')}${error('name')}</div>
      <div class="field"><label for="tf-type">Game</label>
        <select ...${described('type')} value=${v.type} data-testid="tf-type"
          onChange=${on((x) => { change({ type: x.value, table: 2 }); setOptions({}); })}>
          ${types.map((x) => html`<option value=${x.type}>${x.title}</option>`)}</select>
        ${help('type', t ? t.summary || '' : '')}${error('type')}</div>
      <div class="field"><label for="tf-format">Format</label>
        <select ...${described('format')} value=${v.format} data-testid="tf-format"
          onChange=${on((x) => change({ format: x.value, games: x.value === 'sets' ? 2 : 1, ...(x.value === 'arena' ? { table: 2 } : {}) }))}>
          <option value="swiss">Swiss</option><option value="sets">A set</option><option value="arena">Arena</option></select>
        ${help('format', FORMATS[v.format])}${error('format')}</div>
      ${v.format === 'swiss' && html`<div class="field"><label for="tf-rounds">Rounds</label>
        <input type="number" ...${described('rounds')} min="1" max="50" value=${v.rounds} data-testid="tf-rounds"
          onInput=${on((x) => change({ rounds: Number(x.value) }))} />
        ${help('rounds', '1 to 50.')}${error('rounds')}</div>`}
      ${v.format === 'arena' && html`<div class="field"><label for="tf-minutes">Minutes</label>
        <input type="number" ...${described('minutes')} min="1" max="1440" value=${v.minutes} data-testid="tf-minutes"
          onInput=${on((x) => change({ minutes: Number(x.value) }))} />
        ${help('minutes', 'How long the arena runs from its start; only games that end before then count.')}${error('minutes')}</div>`}
      <div class="field"><label for="tf-games">${v.format === 'sets' ? 'Games in the set' : 'Games per pairing'}</label>
        <input type="number" ...${described('games')} min="1" max="10" value=${v.games} data-testid="tf-games"
          onInput=${on((x) => change({ games: Number(x.value) }))} />
        ${help('games', '1 to 10; more than 1 makes each pairing a set, the seats rotated between its games.')}${error('games')}</div>
      ${tables.length > 1 && v.format !== 'arena' && html`<div class="field"><label for="tf-table">Players at each game</label>
        <select ...${described('table')} value=${v.table} data-testid="tf-table"
          onChange=${on((x) => { change({ table: Number(x.value) }); setOptions({}); })}>
          ${tables.map((n) => html`<option value=${n}>${n}</option>`)}</select>
        ${help('table', 'With more than 2, players sit at tables by score, and points follow the places.')}${error('table')}</div>`}
      ${gameOptions.length > 0 && html`<fieldset class="field tour-options" aria-describedby=${errors.options ? 'tf-options-error' : undefined}>
        <legend>Options of ${t.title}</legend>
        ${gameOptions.map((/** @type {any} */ o) => html`<${OptionField} o=${o} value=${options[o.name]} error=${errors[`opt-${o.name}`]}
          onChange=${(/** @type {any} */ x) => setOptions({ ...options, [o.name]: x })} />`)}
        ${error('options')}</fieldset>`}
      ${v.format === 'swiss' && v.table === 2 && html`<div class="field"><label for="tf-computer">The computer as house player</label>
        <select ...${described('computer')} value=${v.computer} data-testid="tf-computer"
          onChange=${on((x) => change({ computer: x.value }))}>
          <option value="">No</option>${LEVELS.map((l) => html`<option value=${l}>Yes, at level ${l}</option>`)}</select>
        ${help('computer', 'Unrated only: when the players are an odd number, the computer plays whoever would have had a bye.')}${error('computer')}</div>`}
      <div class="field"><${PaceField} id="tf-clock" value=${v.pace} onChange=${(/** @type {string} */ p) => change({ pace: p })} />${error('clock')}</div>
      <label class="check"><input type="checkbox" checked=${v.rated} data-testid="tf-rated" id="tf-rated"
        onChange=${on((x) => change({ rated: x.checked }))} /> Rated (registered players only can join)</label>${error('rated')}
      <label class="check"><input type="checkbox" checked=${v.join} data-testid="tf-join"
        onChange=${on((x) => change({ join: x.checked }))} /> Play in it myself</label>
      <p><button type="submit" class="primary" disabled=${busy || !t} data-testid="tf-create">Create the tournament</button></p>
      ${errors.form && html`<p class="error" role="alert" tabindex="-1" id="tf-form-error" data-testid="tf-form-error">${errors.form}</p>`}
      ${Object.keys(errors).some((k) => k !== 'form') && html`<p class="error" role="alert" data-testid="tf-refused">Not created: see the field marked above.</p>`}
    </form>
  </section>`;
}

/** One of the game's options: a yes/no (0 or 1) as a check box, a number, or a choice of
 * words; its help as its description. @param {{o: any, value: any, error?: string, onChange: (v: any) => void}} props */
function OptionField({ o, value, error, onChange }) {
  const id = `tf-opt-${o.name}`;
  const current = value ?? o.default;
  const describedBy = `${id}-help${error ? ` ${id}-error` : ''}`;
  const invalid = error ? 'true' : undefined;
  let input;
  if (o.kind === 'int' && o.min === 0 && o.max === 1) {
    input = html`<label class="check"><input type="checkbox" id=${id} checked=${Number(current) === 1} aria-describedby=${describedBy}
      aria-invalid=${invalid} data-testid=${id} onChange=${(/** @type {any} */ e) => onChange(e.currentTarget.checked ? 1 : 0)} /> ${o.name}</label>`;
  } else if (o.kind === 'int') {
    input = html`<label for=${id}>${o.name}</label><input type="number" id=${id} min=${o.min} max=${o.max} value=${current}
      aria-describedby=${describedBy} aria-invalid=${invalid} data-testid=${id}
      onInput=${(/** @type {any} */ e) => onChange(Number(e.currentTarget.value))} />`;
  } else {
    input = html`<label for=${id}>${o.name}</label><select id=${id} value=${current} aria-describedby=${describedBy}
      aria-invalid=${invalid} data-testid=${id} onChange=${(/** @type {any} */ e) => onChange(e.currentTarget.value)}>
      ${String(o.choices).split('|').map((c) => html`<option value=${c}>${c}</option>`)}</select>`;
  }
  return html`<div class="field">${input}<span class="small muted" id=${`${id}-help`}>${o.help}</span>
    ${error && html`<span class="error field-error" id=${`${id}-error`} data-testid=${`${id}-error`}>${error}</span>`}</div>`;
}

/** @param {number} lo @param {number} hi */
function range(lo, hi) {
  const out = [];
  for (let n = lo; n <= hi; n++) out.push(n);
  return out;
}
