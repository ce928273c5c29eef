// sound.js — the short sounds of "your turn", a move against you, a challenge and low time,
// made with Web Audio (no sound file). Browsers let a page start audio only after a user
// gesture, and a page that makes noise on load is rude: the AudioContext is created at the
// person's first click or key press on the page, never before, and every sound before that
// is silently dropped. The level (off, quiet, normal) is kept per browser.
import { reducedMotion } from './pace.js';

const KEY = 'ramparts.sound';
/** The gain of each level: quiet enough never to startle. */
export const SOUND_LEVELS = { off: 0, quiet: 0.04, normal: 0.12 };
/** What each sound is: its notes (Hz) and how long each lasts (s). */
const TONES = {
  turn: [[660, 0.09], [880, 0.14]],
  move: [[520, 0.08]],
  challenge: [[587, 0.09], [784, 0.09], [988, 0.14]],
  low: [[440, 0.1], [440, 0.1]],
};
// The same sound again within this time is one sound (a `mine` and an update saying the same).
const REPEAT_MS = 1200;

/** @type {AudioContext|null} */
let ctx = null;
/** @type {{[kind: string]: number}} */
const lastPlayed = {};

/** @returns {'off'|'quiet'|'normal'} */
export function soundLevel() {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'off' || v === 'quiet' || v === 'normal' ? v : 'normal';
  } catch {
    return 'normal';
  }
}

/** @param {'off'|'quiet'|'normal'} level */
export function setSoundLevel(level) {
  try { localStorage.setItem(KEY, level); } catch { /* private mode: this page only */ }
  if (level !== 'off') unlock();
}

/** Create (or wake) the AudioContext: called from a user gesture only. */
function unlock() {
  if (soundLevel() === 'off') return;
  const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Ctor) return;
  if (!ctx) ctx = new Ctor();
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
}

/** Listen for the first gestures (and later ones, should the browser suspend the context). */
export function armSound() {
  const onGesture = () => unlock();
  window.addEventListener('pointerdown', onGesture, { capture: true });
  window.addEventListener('keydown', onGesture, { capture: true });
}

/**
 * Play one sound, when the level allows it and a gesture has made audio possible. Under
 * prefers-reduced-motion a sound is one soft note, never a sequence.
 * @param {keyof typeof TONES} kind
 */
export function playSound(kind) {
  const gain = SOUND_LEVELS[soundLevel()];
  if (!ctx || !gain || ctx.state !== 'running') return false;
  const now = performance.now();
  if (lastPlayed[kind] && now - lastPlayed[kind] < REPEAT_MS) return false;
  lastPlayed[kind] = now;
  const notes = reducedMotion() ? [TONES[kind][0]] : TONES[kind];
  let t = ctx.currentTime + 0.01;
  for (const [freq, dur] of notes) {
    note(ctx, freq, t, dur, reducedMotion() ? gain * 0.7 : gain);
    t += dur + 0.03;
  }
  return true;
}

/** One sine note with a soft attack and release (no click). @param {AudioContext} c
 * @param {number} freq @param {number} at @param {number} dur @param {number} gain */
function note(c, freq, at, dur, gain) {
  const osc = c.createOscillator();
  const amp = c.createGain();
  osc.type = 'sine';
  osc.frequency.value = freq;
  amp.gain.setValueAtTime(0, at);
  amp.gain.linearRampToValueAtTime(gain, at + 0.015);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  osc.connect(amp).connect(c.destination);
  osc.start(at);
  osc.stop(at + dur + 0.02);
}
