// index.js — one module per game, each a Preact component with the same props (BoardProps) that
// draws the view and offers exactly the legal moves it is given, sending the chosen entry, and
// says where it shows a move for the guided game's coach (coachSpots), in what words
// (coachWords) and what it warns of (coachWarning: castle-danger-coach.js, coach-warnings.js).
// GAMES gives each game its module by id; a game without a line plays on the generic board.
import * as generic from './generic.js';
import * as castleDanger from './castle-danger.js';
import * as wallsAndArmies from './walls-and-armies.js';
import * as kingOfDanger from './king-of-danger.js';
import * as dangerAtTheWalls from './danger-at-the-walls.js';
import * as rushTheWall from './rush-the-wall.js';
import { dangerAtTheWallsWarning, kingOfDangerWarning, rushTheWallWarning, wallsAndArmiesWarning } from './coach-warnings.js';

/**
 * @typedef {{view: any, legal: import('../client.js').LegalMove[]|null, you: number|null,
 *   seats: any[], send: (m: import('../client.js').LegalMove) => void, status: string,
 *   reveal?: boolean, last?: import('./last-move.js').LastMove|null}} BoardProps
 * @typedef {(m: any, view: any, seat: number, legal: any[], outcomes: import('./coach-warnings.js').Outcomes|null) => string|null} CoachWarning
 * @typedef {{Board: (props: BoardProps) => any, coachSpots: (m: any) => string[], coachWords: (m: any, view: any, seat: number) => string,
 *   coachWarning?: CoachWarning, glossaryArt: (key: string) => any}} GameModule
 */

/** @type {{[type: string]: GameModule}} */
const GAMES = {
  'castle-danger': { Board: castleDanger.CastleDangerBoard, coachSpots: castleDanger.coachSpots, coachWords: castleDanger.coachWords, glossaryArt: castleDanger.glossaryArt, coachWarning: castleDanger.coachWarning },
  'walls-and-armies': { Board: wallsAndArmies.WallsAndArmiesBoard, coachSpots: wallsAndArmies.coachSpots, coachWords: wallsAndArmies.coachWords, glossaryArt: wallsAndArmies.glossaryArt, coachWarning: wallsAndArmiesWarning },
  'king-of-danger': { Board: kingOfDanger.KingOfDangerBoard, coachSpots: kingOfDanger.coachSpots, coachWords: kingOfDanger.coachWords, glossaryArt: kingOfDanger.glossaryArt, coachWarning: kingOfDangerWarning },
  'danger-at-the-walls': { Board: dangerAtTheWalls.DangerAtTheWallsBoard, coachSpots: dangerAtTheWalls.coachSpots, coachWords: dangerAtTheWalls.coachWords, glossaryArt: dangerAtTheWalls.glossaryArt, coachWarning: dangerAtTheWallsWarning },
  'rush-the-wall': { Board: rushTheWall.RushTheWallBoard, coachSpots: rushTheWall.coachSpots, coachWords: rushTheWall.coachWords, glossaryArt: rushTheWall.glossaryArt, coachWarning: rushTheWallWarning },
};
/** @type {GameModule} */
const GENERIC = { Board: generic.GenericBoard, coachSpots: generic.coachSpots, coachWords: generic.coachWords, glossaryArt: generic.glossaryArt };

/** The board of a game. @param {string} type */
export function boardFor(type) {
  return (GAMES[type] || GENERIC).Board;
}

/** Where a game's board shows a move besides its button (the coach points there). @param {string} type */
export function coachSpotsFor(type) {
  return (GAMES[type] || GENERIC).coachSpots;
}

/** The coach's words for a move of a game, never its notation. @param {string} type */
export function coachWordsFor(type) {
  return (GAMES[type] || GENERIC).coachWords;
}

/** The coach's warning before a move that loses material or the game, or null (a game with
 * no check of its own, the generic board's, warns of nothing). @param {string} type
 * @returns {CoachWarning} */
export function coachWarningFor(type) {
  return (GAMES[type] || GENERIC).coachWarning || (() => null);
}

/** A thing of the rules page's "what each card and piece does", drawn as the game's table draws
 * it, or null. @param {string} type */
export function glossaryArtFor(type) {
  return (GAMES[type] || GENERIC).glossaryArt;
}
