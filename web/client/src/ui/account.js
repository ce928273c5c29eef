// account.js — who you are: the guest name the server gave, and forms to claim it as an
// account (register) or to log in to another one; a registered player's account menu (the
// profile, this browser's settings, log out) (docs/server-protocol.md, "Identity").
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { Settings } from './settings.js';

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
    setMode('');
    setPassword('');
  }

  if (!mode && !user.guest) {
    return html`<details class="who account-menu" data-testid="account-menu">
      <summary><span data-testid="user-name">${user.name}</span></summary>
      <div class="account-panel">
        <p><a href=${`#/player/${encodeURIComponent(user.name)}`}>Your profile and games</a></p>
        <${Settings} />
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
