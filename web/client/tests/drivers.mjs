// drivers.mjs — clicking a legal move the way a person would, per game (the same drivers as
// browser.mjs's): each driver clicks or drags what the game's board offers inside
// `.board-area`, choosing at random with the generator it is given. Used by offline.mjs. Also
// the card ids the engines' texts carry, which no log may show (both tests check it).

/** Click (a real mouse click) one random enabled, visible element matching selector inside
 * the board; false when none. The page marks the one chosen, in one round trip.
 * @param {any} page @param {string} selector @param {() => number} rng */
export async function clickOne(page, selector, rng) {
  const picked = await page.evaluate(([sel, r]) => {
    for (const el of document.querySelectorAll('[data-pick]')) el.removeAttribute('data-pick');
    const live = [...document.querySelectorAll(`.board-area ${sel}`)].filter((el) => {
      const box = el.getBoundingClientRect();
      return !el.disabled && box.width > 0 && box.height > 0;
    });
    if (!live.length) return false;
    live[Math.floor(r * live.length)].setAttribute('data-pick', '1');
    return true;
  }, [selector, rng()]);
  if (!picked) return false;
  await page.click('[data-pick="1"]');
  return true;
}

/** Drag one random element matching `from` onto one matching `to`, inside the board.
 * @param {any} page @param {string} from @param {string} to @param {() => number} rng */
export async function dragOne(page, from, to, rng) {
  const ok = await page.evaluate(([a, b, r1, r2]) => {
    for (const el of document.querySelectorAll('[data-drag]')) el.removeAttribute('data-drag');
    const live = (sel) => [...document.querySelectorAll(`.board-area ${sel}`)].filter((el) => {
      const box = el.getBoundingClientRect();
      return !el.disabled && box.width > 0 && box.height > 0;
    });
    const xs = live(a);
    const ys = live(b);
    if (!xs.length || !ys.length) return false;
    xs[Math.floor(r1 * xs.length)].setAttribute('data-drag', 'from');
    ys[Math.floor(r2 * ys.length)].setAttribute('data-drag', 'to');
    return true;
  }, [from, to, rng(), rng()]);
  if (!ok) return false;
  await page.dragAndDrop('[data-drag=from]', '[data-drag=to]');
  return true;
}

const DRAG = 0.35; // how often a move is dragged instead of clicked

/** One attempt at a move in each game. @type {{[type: string]: (page: any, rng: () => number) => Promise<void>}} */
export const DRIVERS = {
  async 'castle-danger'(page, rng) {
    const click = (/** @type {string} */ s) => clickOne(page, s, rng);
    if (rng() < 0.2 && await click('[data-move=end]')) return;
    if (await click('.chooser .move-btn')) return;
    if (!await click('.sq.source')) return void await click('[data-move=end]');
    if (await click('.chooser .move-btn')) return;
    if (!(rng() < DRAG && await dragOne(page, '.sq.selected', '.sq.target', rng)) && !await click('.sq.target')) return;
    await click('.chooser .move-btn');
  },
  async 'walls-and-armies'(page, rng) {
    await clickOne(page, '[data-move]', rng);
  },
  async 'king-of-danger'(page, rng) {
    if (!(rng() < DRAG && await dragOne(page, '.card-btn.playable', '.kd-trick', rng)) && !await clickOne(page, '.card-btn.playable', rng)) return;
    await clickOne(page, '.chooser .move-btn', rng);
  },
  async 'danger-at-the-walls'(page, rng) {
    const click = (/** @type {string} */ s) => clickOne(page, s, rng);
    if (await click('.draw-btn')) return;
    if (!await click('.hand .card-btn.playable')) return;
    if (rng() < 0.3) await click('.hand .card-btn.playable:not(.selected)');
    if ((rng() < DRAG && await dragOne(page, '.hand .card-btn.selected', '.dw-wall.target', rng)) || await click('.dw-wall.target')) {
      await click('.chooser .move-btn');
      return;
    }
    if (await click('.card-btn.target')) return;
    if (await click('.dw-decks [data-move]')) return;
    await click('.hand .card-btn.selected'); // nothing fits: put them back
  },
  async 'rush-the-wall'(page, rng) {
    if (await clickOne(page, '[data-move]', rng)) return;
    if (!await clickOne(page, '.hand .card-btn.playable', rng)) return;
    if (!(rng() < DRAG && await dragOne(page, '.hand .card-btn.selected', '.rw-slot.target', rng))) await clickOne(page, '.rw-slot.target', rng);
  },
};

/** A game's card ids as the engines' texts carry them, which the log must never show. */
export const CARD_IDS = {
  'danger-at-the-walls': /\b(?:archer|cannon)-[1-9]\b|\b(?:general|noble|engineer|assassin|king|wizard|builder|spy|flag|attack)\b/,
  'king-of-danger': /\b(?:walls|cannons|wizard)-[1-9]\b|\bking-of-/,
  'walls-and-armies': /\b(?:10|[2-9JQKA])[CDHS]\b/,
};
