// index.js — one module per game, each a Preact component with the same props (BoardProps) that
// draws the view and offers exactly the legal moves it is given, sending the chosen entry, and
// says where it shows a move for the guided game's coach (coachSpots). GAMES gives each game
// its module by id; a game without a line plays on the generic board.
import * as generic from './generic.js';
import * as castleDanger from './castle-danger.js';
import * as wallsAndArmies from './walls-and-armies.js';
import * as kingOfDanger from './king-of-danger.js';
import * as dangerAtTheWalls from './danger-at-the-walls.js';
import * as rushTheWall from './rush-the-wall.js';

/**
 * @typedef {{view: any, legal: import('../client.js').LegalMove[]|null, you: number|null,
 *   seats: any[], send: (m: import('../client.js').LegalMove) => void, status: string,
 *   reveal?: boolean, last?: import('./last-move.js').LastMove|null}} BoardProps
 * @typedef {{Board: (props: BoardProps) => any, coachSpots: (m: any) => string[]}} GameModule
 */

/** @type {{[type: string]: GameModule}} */
const GAMES = {
  'castle-danger': { Board: castleDanger.CastleDangerBoard, coachSpots: castleDanger.coachSpots },
  'walls-and-armies': { Board: wallsAndArmies.WallsAndArmiesBoard, coachSpots: wallsAndArmies.coachSpots },
  'king-of-danger': { Board: kingOfDanger.KingOfDangerBoard, coachSpots: kingOfDanger.coachSpots },
  'danger-at-the-walls': { Board: dangerAtTheWalls.DangerAtTheWallsBoard, coachSpots: dangerAtTheWalls.coachSpots },
  'rush-the-wall': { Board: rushTheWall.RushTheWallBoard, coachSpots: rushTheWall.coachSpots },
};
/** @type {GameModule} */
const GENERIC = { Board: generic.GenericBoard, coachSpots: generic.coachSpots };

/** The board of a game. @param {string} type */
export function boardFor(type) {
  return (GAMES[type] || GENERIC).Board;
}

/** Where a game's board shows a move besides its button (the coach points there). @param {string} type */
export function coachSpotsFor(type) {
  return (GAMES[type] || GENERIC).coachSpots;
}
