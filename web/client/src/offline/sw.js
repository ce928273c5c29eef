// sw.js — the service worker that makes the client load with no network: at install it
// caches every file of the built client (the list build.mjs writes to offline-files.json:
// the page, scripts, styles, the engine's worker and ramparts.wasm, the manifest and icon)
// under the build's version, given in its URL (/sw.js?v=VERSION). Pages are fetched from the
// network first and from the cache when that fails; the content-hashed files from the cache
// first. The server's API and WebSocket are never cached.
const sw = /** @type {any} */ (self);
const VERSION = new URL(sw.location.href).searchParams.get('v') || 'dev';
const CACHE = `ramparts-${VERSION}`;

sw.addEventListener('install', (/** @type {any} */ event) => {
  event.waitUntil((async () => {
    const list = await fetch('/offline-files.json', { cache: 'no-store' }).then((r) => r.json());
    const cache = await caches.open(CACHE);
    await cache.addAll(list.files.map((/** @type {string} */ f) => new Request(f, { cache: fetchMode(f) })));
    await sw.skipWaiting();
  })());
});

/** How a file is fetched for the cache. A content-hashed name (esbuild's eight upper-case
 * characters, which the server serves as immutable: cmake/embed_web.cmake) never changes, so
 * the copy the page has just downloaded is taken from the HTTP cache instead of a second
 * download (a first visit fetched app.js and app.css twice, issue 43); the page itself, the
 * manifest and the icon go to the network, as their names stay while they change.
 * @param {string} file @returns {RequestCache} */
function fetchMode(file) {
  return /-[A-Z0-9]{8}\.[a-z0-9]+$/.test(file) ? 'default' : 'reload';
}

sw.addEventListener('activate', (/** @type {any} */ event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('ramparts-') && key !== CACHE) await caches.delete(key);
    }
    await sw.clients.claim();
  })());
});

sw.addEventListener('fetch', (/** @type {any} */ event) => {
  const request = /** @type {Request} */ (event.request);
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/ws') return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(async () => (await caches.match('/', { cacheName: CACHE })) || Response.error()));
    return;
  }
  event.respondWith((async () => (await caches.match(request, { cacheName: CACHE })) || fetch(request))());
});

// A notification shown for a game (notify.js): a click focuses a page of the client and asks
// it to open that game, or opens a new one there.
sw.addEventListener('notificationclick', (/** @type {any} */ event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const hash = typeof data.hash === 'string' && data.hash.startsWith('#/') ? data.hash : '#/mine';
  event.waitUntil(openFromNotification(hash));
});

/** Focus an open page of the client and have it show `hash`, or open one at it.
 * @param {string} hash */
async function openFromNotification(hash) {
  const pages = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const page = pages.find((/** @type {any} */ c) => new URL(c.url).origin === location.origin);
  if (!page) return sw.clients.openWindow(`/${hash}`);
  page.postMessage({ t: 'open', hash });
  // Focusing is allowed in a notification's click only (not when a test calls this).
  return page.focus().catch(() => page);
}
sw.openFromNotification = openFromNotification;
