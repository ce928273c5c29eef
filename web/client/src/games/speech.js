// speech.js — the event log's lines in the words players use: the engines' event texts name
// cards by their ids ("walls-3", "9H", "cannon-5"), which the log shows as "Walls 3",
// "9 of hearts", "Cannon 5", "General". Only whole tokens of a game's own card ids are replaced.
import { cardTitle } from './king-of-danger.js';
import { dwTitle } from './danger-at-the-walls.js';

const SUIT_NAMES = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const RANK_NAMES = { J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' };

/** "9H" → "9 of hearts", "QS" → "Queen of spades". @param {string} card */
export function playingCardName(card) {
  const rank = card.slice(0, -1);
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[card.slice(-1)]}`;
}

/** @type {{[type: string]: (text: string) => string}} */
const SPEAK = {
  'king-of-danger': (text) => text.replace(/\b(king-of-(?:danger|walls|cannons|wizards)|(?:walls|cannons|wizard)-[1-9])\b/g,
    (id) => cardTitle(id)),
  'walls-and-armies': (text) => text.replace(/\b(10|[2-9JQKA])([CDHS])\b/g, (card) => playingCardName(card)),
  'danger-at-the-walls': (text) => text.replace(
    /\b((?:archer|cannon)-[1-9]|general|noble|engineer|assassin|king|wizard|builder|spy|flag|attack)\b/g, (id) => dwTitle(id)),
};

/** The log line of a game's event as players say it. @param {string} type @param {string} text */
export function speak(type, text) {
  const f = SPEAK[type];
  return f ? f(text) : text;
}
