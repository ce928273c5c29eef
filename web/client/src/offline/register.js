// register.js — installs the service worker (sw.js) that lets the client load with no
// network, keyed by the build's version so a new build replaces the old cache. Browsers
// allow it on https and on localhost only; elsewhere the client simply needs the network.
import { offlineFiles } from './session.js';

export function registerServiceWorker() {
  const files = offlineFiles();
  if (!files || !files.version || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(`/sw.js?v=${files.version}`).catch((e) => {
    console.warn('the service worker could not be installed; the client needs the network', e);
  });
}
