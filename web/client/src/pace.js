// pace.js — how long a move stays in view before the next one shows, shared by the online
// table (client.js) and the offline one (offline/session.js), so a person can follow the
// computer: each of its moves, one at a time, and a finished King of Danger trick, left on the
// table for a moment before it is cleared. A display delay only: the referee is never slowed.

import { readSetting } from './ui/settings.js';

// How long each of the computer's moves stays in view before its next one shows.
export const PACE_MS = 900;
// How long a finished trick stays on the table (King of Danger) before it is cleared.
export const TRICK_HOLD_MS = 1500;

/** True when the system asks for reduced motion: nothing is animated, and nothing is timed
 * away either (a finished trick stays until the next card is played). */
export function reducedMotion() {
  return !!(typeof window !== 'undefined' && window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

/** Whether the computer's moves are paced in this browser: the setting, unless the system asks
 * for reduced motion. */
export function pacing() {
  return readSetting('pace') && !reducedMotion();
}

/** The event of a move's events that ends a trick (KD-6: won; KD-7: set aside), if any.
 * @param {any[]|null|undefined} events */
export function trickEnd(events) {
  return Array.isArray(events) ? events.find((e) => e && (e.kind === 'trick-won' || e.kind === 'trick-set-aside')) || null : null;
}

/** How long to show a move before the next queued one, when pacing: a finished trick holds
 * longest, the computer's other moves PACE_MS, the player's own moves nothing.
 * @param {any[]|null|undefined} events @param {boolean} byComputer */
export function holdAfter(events, byComputer) {
  if (trickEnd(events)) return TRICK_HOLD_MS;
  return byComputer ? PACE_MS : 0;
}
