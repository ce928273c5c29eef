// settings.js — this browser's preferences for the tables, kept in local storage (a private
// window keeps them for the page only): forced moves that play themselves, previews of what
// a move would do, and the computer's moves shown one at a time. The account menu shows them (account.js); the tables read them.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

/** Each setting: its storage key, its default, and how the menu says it. */
export const SETTINGS = {
  autoForced: { key: 'ramparts.autoForced', on: true, label: 'Play forced moves for me' },
  previews: { key: 'ramparts.previews', on: true, label: 'Show what a move would do before I play it' },
  pace: { key: 'ramparts.pace', on: true, label: "Show the computer's moves one at a time" },
  coach: { key: 'ramparts.coach', on: true, label: 'Coach in guided games: suggest moves and warn of danger' },
};

/** @param {keyof typeof SETTINGS} name */
export function readSetting(name) {
  const s = SETTINGS[name];
  try {
    const v = localStorage.getItem(s.key);
    return v === null ? s.on : v === '1';
  } catch {
    return s.on;
  }
}

/** @param {keyof typeof SETTINGS} name @param {boolean} on */
export function writeSetting(name, on) {
  try { localStorage.setItem(SETTINGS[name].key, on ? '1' : '0'); } catch { /* private mode: this page only */ }
}

export function Settings() {
  const [, setTick] = useState(0);
  return html`<fieldset class="settings" data-testid="settings">
    <legend>Settings in this browser</legend>
    ${Object.entries(SETTINGS).map(([name, s]) => html`<label key=${name}>
      <input type="checkbox" checked=${readSetting(/** @type {any} */ (name))} data-testid=${`setting-${name}`}
        onChange=${(/** @type {any} */ e) => { writeSetting(/** @type {any} */ (name), e.currentTarget.checked); setTick((n) => n + 1); }} />
      ${s.label}</label>`)}
  </fieldset>`;
}
