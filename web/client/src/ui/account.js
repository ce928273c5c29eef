// account.js — who you are: the guest name the server gave, and forms to claim it as an
// account (register) or to log in to another one; a registered player's account menu (the
// profile, this browser's settings, a password change, log out) (docs/server-protocol.md,
// "Identity").
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { Settings } from './settings.js';
import { AlertSettings } from './alerts.js';

/** Rated games are for registered players (the server refuses a guest's: issue 49).
 * @param {import('../client.js').Client} client */
export function isRegistered(client) {
  return !!client.state.user && !client.state.user.guest;
}

/** @param {{client: import('../client.js').Client}} props */
export function Account({ client }) {
  const user = client.state.user;
  const [mode, setMode] = useState(/** @type {''|'register'|'login'} */ (''));
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  if (!user) return html`<span class="who">…</span>`;

  /** @param {Event} e */
  async function submit(e) {
    e.preventDefault();
    setBusy(true);
    setMessage('');
    const reply = await client.transport.request({ t: mode, name, password });
    setBusy(false);
    if (reply.t === 'error') {
      setMessage(reply.message);
      return;
    }
    if (reply.token) localStorage.setItem('ramparts.token', reply.token);
    client.set({ user: reply.user });
    if (mode === 'login') client.userChanged();
    setMode('');
    setPassword('');
  }

  if (!mode && !user.guest) {
    return html`<details class="who account-menu" data-testid="account-menu">
      <summary><span data-testid="user-name">${user.name}</span></summary>
      <div class="account-panel">
        <p><a href=${`#/player/${encodeURIComponent(user.name)}`}>Your profile and games</a></p>
        <${Settings} />
        <${AlertSettings} client=${client} idPrefix="menu" />
        <${PasswordChange} client=${client} />
        <button type="button" data-testid="logout" onClick=${() => client.transport.request({ t: 'logout' })}>Log out</button>
      </div>
    </details>`;
  }
  if (!mode) {
    return html`<span class="who">
      <span data-testid="user-name">${user.name}</span>
      <button type="button" class="link" onClick=${() => setMode('register')}>Register</button>
      <button type="button" class="link" onClick=${() => setMode('login')}>Log in</button>
    </span>`;
  }
  const title = mode === 'register' ? 'Keep this guest as an account' : 'Log in';
  return html`<form class="account-form" onSubmit=${submit} aria-label=${title}>
    <strong>${title}</strong>
    <label>Name <input value=${name} autocomplete="username" required minlength="3" maxlength="20"
      onInput=${(/** @type {any} */ e) => setName(e.currentTarget.value)} /></label>
    <label>Password <input type="password" value=${password} required minlength="8" maxlength="128"
      autocomplete=${mode === 'register' ? 'new-password' : 'current-password'}
      onInput=${(/** @type {any} */ e) => setPassword(e.currentTarget.value)} /></label>
    <button type="submit" disabled=${busy}>${mode === 'register' ? 'Register' : 'Log in'}</button>
    <button type="button" class="link" onClick=${() => setMode('')}>Cancel</button>
    ${message && html`<p class="error" role="alert">${message}</p>`}
  </form>`;
}

/** A registered player's password change: the old password, the new one twice (compared here,
 * so a typing slip is caught before anything is sent); the server checks the old one, and
 * logs out every other device (docs/server-protocol.md, `password`).
 * @param {{client: import('../client.js').Client}} props */
function PasswordChange({ client }) {
  const [open, setOpen] = useState(false);
  const [old, setOld] = useState('');
  const [fresh, setFresh] = useState('');
  const [again, setAgain] = useState('');
  const [message, setMessage] = useState(/** @type {{ok: boolean, text: string}|null} */ (null));
  const [busy, setBusy] = useState(false);
  if (!open) {
    return html`<p>
      <button type="button" class="link" data-testid="password-open" onClick=${() => { setOpen(true); setMessage(null); }}>Change password</button>
      ${message && message.ok && html`<span role="status" data-testid="password-message">${message.text}</span>`}
    </p>`;
  }

  /** @param {Event} e */
  async function submit(e) {
    e.preventDefault();
    if (fresh !== again) {
      setMessage({ ok: false, text: 'The two new passwords differ: type the same one twice.' });
      return;
    }
    setBusy(true);
    setMessage(null);
    const reply = await client.transport.request({ t: 'password', old, new: fresh });
    setBusy(false);
    if (reply.t === 'error') {
      setMessage({ ok: false, text: reply.message });
      return;
    }
    const others = reply.logged_out || 0;
    setMessage({ ok: true, text: `Password changed.${others ? ` ${others === 1 ? 'One other device was' : `${others} other devices were`} logged out.` : ''}` });
    setOld('');
    setFresh('');
    setAgain('');
    setOpen(false);
  }

  /** @param {(v: string) => void} set */
  const input = (set) => (/** @type {any} */ e) => set(e.currentTarget.value);
  return html`<form class="account-form password-form" onSubmit=${submit} aria-label="Change password" data-testid="password-form">
    <strong>Change password</strong>
    <label>Current password <input type="password" value=${old} required maxlength="128"
      autocomplete="current-password" data-testid="password-old" onInput=${input(setOld)} /></label>
    <label>New password <input type="password" value=${fresh} required minlength="8" maxlength="128"
      autocomplete="new-password" data-testid="password-new" onInput=${input(setFresh)} /></label>
    <label>New password again <input type="password" value=${again} required minlength="8" maxlength="128"
      autocomplete="new-password" data-testid="password-again" onInput=${input(setAgain)} /></label>
    <p class="note">Every other device logged in to this account is logged out.</p>
    <button type="submit" disabled=${busy} data-testid="password-submit">Change password</button>
    <button type="button" class="link" onClick=${() => { setOpen(false); setMessage(null); }}>Cancel</button>
    ${message && html`<p class=${message.ok ? '' : 'error'} role=${message.ok ? 'status' : 'alert'} data-testid="password-message">${message.text}</p>`}
  </form>`;
}
