// notify.js — desktop notifications (the Notification API) while this tab is hidden: off
// until the player turns them on in the settings, which is the one place the browser's
// permission is asked (on that click, never on load). Shown through the service worker
// (sw.js: a click on one focuses the page and opens the game) when it is active, else by the
// page itself. A visible page shows everything in the page instead.

const KEY = 'ramparts.notify';

/** Whether this browser can show notifications at all. */
export function notificationsSupported() {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** On: the player asked for them here and the browser's permission is granted. */
export function notificationsOn() {
  if (!notificationsSupported() || Notification.permission !== 'granted') return false;
  try { return localStorage.getItem(KEY) === '1'; } catch { return false; }
}

/**
 * Turn them on (asking the browser's permission, from the click that calls this) or off.
 * Resolves with what the page should say: '' when done, else why they stay off.
 * @param {boolean} on
 */
export async function setNotifications(on) {
  if (!on) {
    try { localStorage.setItem(KEY, '0'); } catch { /* private mode */ }
    return '';
  }
  if (!notificationsSupported()) return 'This browser cannot show notifications.';
  let permission = Notification.permission;
  if (permission === 'default') permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    return 'The browser did not allow notifications: allow them for this site in its settings, then try again.';
  }
  try { localStorage.setItem(KEY, '1'); } catch { /* private mode */ }
  return '';
}

/**
 * Show a notification when the page is hidden and they are on; `hash` is the page a click
 * opens (#/game/7). The tag replaces an older notification of the same thing.
 * @param {string} title @param {string} body @param {string} hash @param {string} tag
 */
export async function notify(title, body, hash, tag) {
  if (document.visibilityState !== 'hidden' || !notificationsOn()) return false;
  const options = { body, tag, data: { hash }, icon: '/favicon.svg' };
  const reg = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  if (reg && reg.active) {
    await reg.showNotification(title, options).catch(() => {});
    return true;
  }
  const n = new Notification(title, options);
  n.onclick = () => {
    window.focus();
    location.hash = hash;
    n.close();
  };
  return true;
}

/** A click on a notification the service worker showed asks this page to open its game. */
export function listenToServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (e) => {
    const m = e.data;
    if (m && m.t === 'open' && typeof m.hash === 'string' && m.hash.startsWith('#/')) location.hash = m.hash;
  });
}
