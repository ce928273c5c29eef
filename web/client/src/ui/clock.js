// clock.js — a seat's clock: the server's remaining time, counted down locally for display
// only while that seat's time runs (docs/server-protocol.md: the server is the authority).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';

/** @param {number} ms */
export function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** @param {{clock: any, seat: number, receivedAt: number, over: boolean}} props */
export function Clock({ clock, seat, receivedAt, over }) {
  const running = !over && clock.running === seat;
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    if (!running) return undefined;
    const timer = window.setInterval(() => setNow(performance.now()), 250);
    return () => window.clearInterval(timer);
  }, [running, receivedAt]);
  if (!clock || clock.kind === 'none' || !clock.remaining_ms) return null;
  const base = clock.remaining_ms[seat];
  const left = running ? base - Math.max(0, now - receivedAt) : base;
  const low = clock.kind === 'live' && left < 20000;
  return html`<span class=${`clock${running ? ' running' : ''}${low ? ' low' : ''}`}
    role="timer" aria-label=${`time left ${formatClock(left)}`}>${formatClock(left)}</span>`;
}
