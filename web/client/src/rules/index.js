// rules/index.js — what the page says about each game's rules: a short summary for a first
// read, what each card, piece and fort does (shown when it is pointed at or focused, and on the
// rules page), both written from the rulebook and the rulings (docs/rules/GAME.md, whose full
// text is text.js, generated), with the ruling ids they rest on.

/** @type {{[game: string]: string[]}} */
export const SUMMARY = {
  'castle-danger': [
    'Two players, Blue and Red, Blue first. Hit the enemy King with a cannonball to win (CD-7).',
    'Each turn you have 3 moves, plus 3 for every Wizard of yours on the board (CD-3). As your first action you may add a Wizard, Builder or Cannon on your Portal; then step pieces one square up, down, left or right on your own side (1 move each), build or remove Walls with a Builder (1 move), or fire a Cannon along its column, 1 move per square (CD-4 to CD-6).',
    'A ball flies over pieces and the river but stops at the first Wall; whatever it lands on is removed and your Fire burns there until your next turn (CD-6, CD-11). Nobody may cross the river.',
  ],
  'walls-and-armies': [
    'Two players, a standard deck. Each player has face-down walls, face-up shields (face cards) and an army deck nobody looks at. Take your opponent\'s last wall to win at once; otherwise the game stops at the turn cap and more walls wins.',
    'On your turn, choose a target (a shield while your opponent has one, else a wall, or one of your stacks), then flip the top card of your army onto it. A stack with a higher total than its target takes it: both are discarded. An equal total does not win.',
    'After each flip that does not win, the defender leaves the stack or counter-attacks with the top card of their own army: a higher counter captures the stack as new face-down walls. Cards count their number; J 11, Q 12, K 13, A 14.',
  ],
  'king-of-danger': [
    'A trick-taking game for 2 to 5 players. The first card that is not a King sets the trick suit: Walls or Cannons (a Wizard\'s player names one) (KD-4). You must follow the trick suit if you can (KD-5).',
    'The King of Danger wins any trick; else the last King played whose condition holds; else the highest trick-suit card or Wizard (KD-6). A Walls trick raises castles, a Cannons trick lowers everyone\'s but the winner\'s (KD-8).',
    'After each hand every player adds their castle (1 to 8) to their score; the first sole highest score of 31 or more wins (KD-9).',
  ],
  'danger-at-the-walls': [
    'Two players: Blue attacks, Red defends; Red holds all five walls at the start (DW-1). Control 3 or more walls when the game ends to win (DW-12).',
    'A turn is one play, then drawing back up to 6 cards from your own deck or the main deck (DW-3, DW-11). A play is one Flag, one Leader, one Cannon Attack, one Cannon, or any number of Archers to one wall.',
    'After each play the side with strictly greater strength at a wall without a Flag controls it (DW-10). The game ends one turn after the third Flag is played or a hand runs out (DW-12).',
  ],
  'rush-the-wall': [
    'Clans rush Hadrian\'s Wall over three rounds. Each round six forts form The Wall, and each clan places six of its warriors face down in slots 1 to 6 (RW-4, RW-5).',
    'Then six turns: every clan turns up the warrior in the current slot, the highest total of face-up warriors captures the leftmost fort, and the warriors\' powers apply (RW-6, RW-8).',
    'After three rounds the most fort points wins; a player clan with three Legion forts wins at once (RW-12, RW-18).',
  ],
};

/** What each thing on the board does, by the rules, keyed as the boards name them. */
/** @type {{[game: string]: {[key: string]: string}}} */
export const GLOSSARY = {
  'castle-danger': {
    king: 'King: steps one square up, down, left or right on its own side (1 move). A cannonball that hits it ends the game: its owner loses (CD-4, CD-7).',
    wizard: 'Wizard: steps one square up, down, left or right (1 move). Each of your Wizards on the board gives you 3 more moves a turn (CD-3).',
    builder: 'Builder: steps one square (1 move); builds a Wall on an empty grass square next to it, or removes a Wall next to it (1 move each, CD-5).',
    cannon: 'Cannon: steps one square (1 move); once a turn it fires straight along its column toward the opponent, 1 move per square. The ball flies over pieces but not past a Wall, removes what it lands on (a Wall too) and leaves your Fire (CD-6).',
    wall: 'Wall: nothing moves onto it and no ball flies past it; a ball that lands on it destroys it. Builders build and remove Walls (CD-5, CD-6).',
    fire: 'Fire: burns where a ball landed until its owner\'s next turn begins; nothing moves onto it and no Wall is built on it (CD-3, CD-11).',
    portal: 'Portal: as the first action of a turn you may add a Wizard, Builder or Cannon on your empty Portal, for 2 moves when you have at least as many pieces as your opponent, else free (CD-3, CD-13). A Portal never holds Fire.',
    river: 'River: no piece moves onto it; a ball flies over it (counting it in its distance) but cannot land on it (CD-4, CD-P1).',
  },
  'walls-and-armies': {
    wall: 'Wall: face down (face up while attacked). A stack of army cards with a higher total takes it: wall and stack are discarded. A player who loses their last wall loses. 2-10 count their number, J 11, Q 12, K 13, A 14.',
    shield: 'Shield: a face card, face up. While a player has a shield, the attacker must attack a shield before any wall. Shields are not walls.',
    stack: 'Stack: the attacker\'s cards flipped against one target, added up. Higher than the target takes it; the defender may leave it or counter-attack with the top card of their army.',
    army: 'Army deck: nobody looks at it. The attacker flips its top card onto a target; the defender counters with the top of their own.',
    deck: 'Main deck: at the end of a turn the attacker flips one card: a face card becomes a shield, a number card deals that many cards into the army deck.',
    discard: 'Discard pile: face up; when the main deck runs out it is shuffled into a new one.',
  },
  'king-of-danger': {
    walls: 'Walls card (1-7): as the first card of a trick that is not a King, it makes a Walls trick. After a Walls trick the winner\'s castle rises 2 and everyone else who played a Walls card rises 1 (with two players, the winner +1 only) (KD-4, KD-8).',
    cannons: 'Cannons card (1-7): as the first card of a trick that is not a King, it makes a Cannons trick. After a Cannons trick every castle but the winner\'s falls 1 (KD-4, KD-8).',
    wizard: 'Wizard (1-8): when it sets the trick suit its player names Walls or Cannons. It wins by number like a trick-suit card; a tie goes to the trick-suit card (KD-4, KD-6).',
    'king-of-danger': 'King of Danger: wins the trick over all other cards (KD-6).',
    'king-of-walls': 'King of Walls: wins the trick if any Walls card is in it, unless the King of Danger is; of several Kings whose condition holds the last played wins (KD-6, KD-12).',
    'king-of-cannons': 'King of Cannons: wins the trick if any Cannons card is in it, unless the King of Danger is; of several Kings whose condition holds the last played wins (KD-6, KD-12).',
    'king-of-wizards': 'King of Wizards: wins the trick if any Wizard is in it, unless the King of Danger is; of several Kings whose condition holds the last played wins (KD-6, KD-12).',
  },
  'danger-at-the-walls': {
    archer: 'Archer (1, 2 or 3): adds its number to your side\'s strength at its wall; play as many Archers as you like to one wall at once (DW-3, DW-7).',
    cannon: 'Cannon (5 to 9): adds its number at its wall; a new Cannon goes on top and only the top one counts (DW-5, DW-7).',
    flag: 'Flag: locks a wall\'s control as it stands, for the rest of the game. The third Flag on the board brings the end (DW-2, DW-12).',
    attack: 'Cannon Attack: at a wall where your top Cannon stands, removes the opponent\'s top Cannon or all their Archers there (DW-6).',
    general: 'General (Blue): doubles Blue\'s strength at its wall (DW-7).',
    noble: 'Noble (Blue): doubles Blue\'s Archers at its wall (DW-7).',
    engineer: 'Engineer (Blue): doubles Blue\'s Cannon at its wall (DW-7).',
    assassin: 'Assassin (Blue): removes one visible Red card in play: an Archer, a top Cannon, a Leader or the Spy (DW-9).',
    king: 'King (Red): doubles Red\'s strength at its wall (DW-7).',
    wizard: 'Wizard (Red): both sides\' Archers count nothing at its wall (DW-7).',
    builder: 'Builder (Red): both sides\' Cannons count nothing at its wall (DW-7).',
    spy: 'Spy (Red): covers one Blue card in play (an Archer, the top Cannon or a Leader), which then counts nothing and cannot be moved (DW-8).',
    wall: 'Wall: after every play the side with strictly greater strength takes it, unless a Flag locks it; on equal strength it stays. Hold 3 or more walls at the end to win (DW-10, DW-12).',
  },
  'rush-the-wall': {
    filchy: 'Filchy: its clan drops out this turn: it cannot capture (RW-8).',
    qween: 'Qween: when she is the only Qween turned up, her owner charms a rival warrior turned up this turn: she counts its strength and it counts 0 for its clan (RW-6, RW-7).',
    druhid: 'Dru\'hid: when its clan captures, it may take any fort left in The Wall instead (RW-9).',
    zvord: 'Zvord: its clan takes back its still-hidden warriors and places them again (RW-6, RW-19).',
    archr: 'Arch\'r: on a tie for the highest total, the only tied clan with an Arch\'r turned up captures (RW-8).',
    horsie: 'Horsie: when its clan does not capture, it discards another face-up warrior, or Horsie when she is the only one (RW-9, RW-20).',
    axx: 'Axx: when its clan captures, it may stay face up instead of being discarded (RW-9).',
    chariott: 'Ch\'ariott: two or more Ch\'ariotts turned up together are all discarded (RW-6).',
    laird: 'Laird: no power: it only counts its strength (RW-2).',
    dinary: 'Fort-Dinary: worth the points it shows (RW-3).',
    unwary: 'Unwary fort: its capturer keeps its weakest face-up warrior (RW-16).',
    signal: 'Signal fort: every clan with a face-up warrior discards one (RW-10).',
    tax: 'Tax-Collector\'s fort: its capturer pays one of its other forts, or this one when it holds no other (RW-17).',
    legion: 'Legion fort: negative points; a player clan that holds three Legion forts wins at once (RW-18).',
  },
};

/** The words for `key` of `game`, or ''. @param {string} game @param {string} key */
export function explain(game, key) {
  const g = GLOSSARY[game];
  return (g && g[key]) || '';
}

/** The id of the hidden paragraph (ui/rules.js, Explanations) that describes `key`. @param {string} key */
export const explainId = (key) => `explain-${key}`;

/** Attributes that make an element explain itself: data-explain for the explanation line, and
 * aria-describedby for screen readers. Nothing for a key with no words.
 * @param {string} game @param {string} key */
export function explainAttrs(game, key) {
  if (!explain(game, key)) return {};
  return { 'data-explain': key, 'aria-describedby': explainId(key) };
}
