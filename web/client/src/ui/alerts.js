// alerts.js — the settings of how the page tells you it is your turn: the sound's level (kept
// in this browser), desktop notifications while the tab is hidden (asked of the browser on the
// click that turns them on), and, for a registered player, whether others may challenge you
// (kept by the server: `settings`). Shown on "My games" and in the account menu.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { setSoundLevel, soundLevel } from '../sound.js';
import { notificationsOn, notificationsSupported, setNotifications } from '../notify.js';

/** @param {{client: import('../client.js').Client, idPrefix: string}} props */
export function AlertSettings({ client, idPrefix }) {
  const [level, setLevel] = useState(soundLevel());
  const [notifyOn, setNotifyOn] = useState(notificationsOn());
  const [message, setMessage] = useState('');
  const user = client.state.user;
  const mine = client.state.mine;
  const accepting = !mine || !mine.settings || mine.settings.challenges !== false;

  /** @param {any} e */
  async function toggleNotify(e) {
    const want = e.currentTarget.checked;
    const why = await setNotifications(want);
    setMessage(why);
    setNotifyOn(notificationsOn());
  }
  // The box flips the moment it is clicked, before the server has the setting: `data-accepting`
  // says what the server has confirmed (a challenge sent meanwhile is judged by the server's
  // value). A refusal is shown by `client.request` as the page's notice, and the next render
  // returns the box to the confirmed value.
  /** @param {any} e */
  async function toggleChallenges(e) {
    const on = e.currentTarget.checked;
    const reply = await client.request({ t: 'settings', challenges: on });
    const now = client.state.mine;
    if (reply.t === 'done' && now) client.set({ mine: { ...now, settings: { ...(now.settings || {}), challenges: on } } });
  }
  const id = (/** @type {string} */ s) => `${idPrefix}-${s}`;
  return html`<fieldset class="settings alert-settings" data-testid="alert-settings">
    <legend>When it is your turn</legend>
    <label for=${id('sound')}>Sound</label>
    <select id=${id('sound')} value=${level} data-testid="setting-sound" aria-describedby=${id('sound-help')}
      onChange=${(/** @type {any} */ e) => { setSoundLevel(e.currentTarget.value); setLevel(e.currentTarget.value); }}>
      <option value="normal">On</option><option value="quiet">Quiet</option><option value="off">Off</option>
    </select>
    <p class="small muted" id=${id('sound-help')}>A short sound when it becomes your turn, on a move against you, on a
      challenge and at low time; never before you have clicked or typed in the page. Kept in this browser.</p>
    <label><input type="checkbox" checked=${notifyOn} disabled=${!notificationsSupported()} data-testid="setting-notify"
      onChange=${toggleNotify} /> Desktop notifications while this tab is hidden</label>
    ${message && html`<p class="error" role="alert" data-testid="notify-message">${message}</p>`}
    ${user && !user.guest && html`<label><input type="checkbox" checked=${accepting} data-testid="setting-challenges"
      data-accepting=${accepting ? 'yes' : 'no'} onChange=${toggleChallenges} /> Let other players challenge me</label>`}
  </fieldset>`;
}
