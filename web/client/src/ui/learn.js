// learn.js — the guided first game (#/learn/GAME): a game against the beginner computer, whose table
// has a coach (coach.js): it says which kind of move to try next, how and why by the rules,
// points at the cards, pieces or squares to click, and ticks each kind off once made
// (rules/learn.js), until the player has made each kind of move once.
import { html } from 'htm/preact';
import { useEffect } from 'preact/hooks';
import { LESSONS } from '../rules/learn.js';
import { Table } from './table.js';
import { takeCarried } from './coach.js';

/** #/learn/GAME starts the game; #/learn/GAME/ID is its table with the coach.
 * @param {{client: import('../client.js').Client, game: string, id: number|null}} props */
export function Learn({ client, game, id }) {
  useEffect(() => {
    if (id) return undefined;
    let gone = false;
    client.ready
      .then(() => client.request({ t: 'create', type: game, seats: ['me', 'ai:beginner'] }))
      .then((r) => {
        if (gone || r.t !== 'created') return;
        takeCarried(game, r.game);
        location.replace(`#/learn/${game}/${r.game}`);
      });
    return () => { gone = true; };
  }, [game, id]);
  if (!LESSONS[game]) return html`<p class="error" role="alert">There is no guided game for “${game}”. <a href="#/rules">The rules</a></p>`;
  if (!id) return html`<p role="status">Setting up your first game against the computer…</p>`;
  return html`<${Table} key=${id} client=${client} id=${id} learn=${true} />`;
}
