// index.js — one module per game, each a Preact component with the same props (BoardProps):
// it draws the view and offers exactly the legal moves it is given, sending the chosen entry.
import { GenericBoard } from './generic.js';
import { CastleDangerBoard } from './castle-danger.js';
import { WallsAndArmiesBoard } from './walls-and-armies.js';
import { KingOfDangerBoard } from './king-of-danger.js';
import { DangerAtTheWallsBoard } from './danger-at-the-walls.js';
import { RushTheWallBoard } from './rush-the-wall.js';

/**
 * @typedef {{view: any, legal: import('../client.js').LegalMove[]|null, you: number|null,
 *   seats: any[], send: (m: import('../client.js').LegalMove) => void, status: string,
 *   reveal?: boolean, last?: import('./last-move.js').LastMove|null}} BoardProps
 */

const BOARDS = {
  'castle-danger': CastleDangerBoard,
  'walls-and-armies': WallsAndArmiesBoard,
  'king-of-danger': KingOfDangerBoard,
  'danger-at-the-walls': DangerAtTheWallsBoard,
  'rush-the-wall': RushTheWallBoard,
};

/** @param {string} type */
export function boardFor(type) {
  return BOARDS[type] || GenericBoard;
}
