// tournaments.mjs — issue 44's browser pages (the list, a tournament, the creation form) in
// Debian's Chromium driven by playwright-core against a `ramparts serve` of its own (a free
// loopback port, a fresh database), with two browser contexts: alice, registered, creates
// Castle Danger's formal set (two refusals of the server shown under their fields first: a
// name too long, the computer in a rated Swiss); bob, a guest, is told why he cannot create
// one, finds it in the list and joins; alice starts it and both pages open the paired game by
// themselves; the tournament page leads to that game; alice
// resigns it, the set's second game opens by itself with the sides swapped, she resigns that
// too, and the standings say bob 2, alice 0 with the tournament over; then an arena, started,
// its standings without a Swiss's tie-breaks, alice pausing in it; alice's profile lists both
// with her place, as the API's profile has them. axe-core over each page
// (both sizes light, dark); screenshots at 1280x800 and 390x844; no console error.
// `make soak` (RAMPARTS_SOAK=1) runs instead a Swiss of 4 over 2 rounds (--swiss 1 adds it to
// the rest), two of them guests over the WebSocket who resign, whose finished standings the
// page shows as the server sends them.
// Usage: node tournaments.mjs --ramparts BIN --node-modules DIR --out DIR [--swiss 1]
//        (prints 'N passed, N failed'; exit 0 when all pass)
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AXE_PASSES, axeChecks, axeSource } from './a11y.mjs';
import { CHROMIUM, parseArgs, registerInPage, screenshots as bothSizes, startServer, tally } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), ['ramparts', 'node-modules', 'out'],
  'node tournaments.mjs --ramparts BIN --node-modules DIR --out DIR');
const require = createRequire(path.resolve(args['node-modules']) + path.sep);
const { chromium } = require('playwright-core');
const AXE_SOURCE = axeSource(require.resolve);
const OUT = path.resolve(args.out);
const WORK = mkdtempSync(path.join(tmpdir(), 'ramparts-tournaments-'));
mkdirSync(OUT, { recursive: true });
// A bound for a hang, generous for a sanitizer build on a busy machine: every wait is for a
// condition, and takes only as long as that takes.
const STEP = Number(process.env.STEP_TIMEOUT || 120000);
// `make soak` runs a Swiss of 4 over 2 rounds (two of them guests over the WebSocket) instead.
const SOAK = Boolean(process.env.RAMPARTS_SOAK) && process.env.RAMPARTS_SOAK !== '0';

const { check, finish } = tally();


/** One person: a browser context (their own storage and token) and its page. */
async function person(browser, server, label) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  context.setDefaultTimeout(STEP);
  const p = { label, name: '', context, page: await context.newPage(), errors: /** @type {string[]} */ ([]) };
  p.page.on('console', (m) => { if (m.type() === 'error') p.errors.push(`${label}: ${m.text()}`); });
  p.page.on('pageerror', (e) => p.errors.push(`${label}: ${e}`));
  await p.page.goto(`${server.url}/`);
  await p.page.waitForSelector('[data-testid=conn]:has-text("Online")');
  await p.page.waitForSelector('[data-testid=user-name]');
  p.name = await p.page.textContent('[data-testid=user-name]'); // a guest's, as the server named them
  return p;
}

/** axe-core in the passes given (every pass unless told): each finding a check. */
async function axeCheck(page, label, passes = AXE_PASSES) {
  await axeChecks(page, AXE_SOURCE, check, label, passes);
}

/** The whole page at 1280x800 and 390x844 into OUT. */
async function screenshots(page, name) {
  await bothSizes(page, OUT, name, true);
}

/** The game a page's table shows, once the page is at one other than `not`. */
async function atGame(page, not = 0) {
  await page.waitForFunction((n) => {
    const m = /#\/game\/(\d+)/.exec(location.hash);
    return m && Number(m[1]) !== n && document.querySelector('[data-testid=table][data-status=live]');
  }, not);
  return Number(/#\/game\/(\d+)/.exec(page.url())[1]);
}

/** The seat this page's player has at its table. @param {any} page */
const mySeat = (page) => page.$eval('.seat.me', (el) => el.getAttribute('data-testid'));

/** Resign the game at this page's table. @param {any} page */
async function resign(page) {
  await page.click('[data-testid=resign]');
  await page.click('[data-testid=resign-yes]');
}

// ---- the scenarios ----

/** A guest reads why he cannot create a tournament, in the list and on the form's page. */
async function guestCannotCreate(server, bob) {
  await bob.page.goto(`${server.url}/#/tournaments`);
  await bob.page.waitForSelector('[data-testid=tour-create-guest]');
  check(await bob.page.$('[data-testid=tour-create-link]') === null, 'guest: the list offers no "Create a tournament"');
  await bob.page.goto(`${server.url}/#/tournaments/new`);
  const why = await bob.page.textContent('[data-testid=tour-guest]');
  check(/registered players/.test(why) && await bob.page.$('[data-testid=tour-form]') === null,
    `guest: the creation page says why, with no form (${why.trim().slice(0, 60)}…)`);
  await axeCheck(bob.page, 'the creation page, for a guest', [AXE_PASSES[0]]);
}

/** Alice creates Castle Danger's formal set from the form, after a name the server refuses
 * (40 two-byte letters: 80 bytes, over its 63) is said under the name field. Returns its id. */
async function create(server, alice) {
  await alice.page.goto(`${server.url}/#/`);
  await alice.page.click('[data-testid=nav-tournaments]');
  await alice.page.click('[data-testid=tour-create-link]');
  await alice.page.waitForSelector('[data-testid=tour-form]');
  await alice.page.fill('[data-testid=tf-name]', 'é'.repeat(40));
  await alice.page.click('[data-testid=tf-create]');
  await alice.page.waitForSelector('[data-testid=tf-name-error]');
  const said = await alice.page.textContent('[data-testid=tf-name-error]');
  check(/63 bytes/.test(said), `form: the server's refusal is under the name field (${said})`);
  check(await alice.page.getAttribute('#tf-name', 'aria-invalid') === 'true'
    && (await alice.page.getAttribute('#tf-name', 'aria-describedby')).includes('tf-name-error'),
  'form: the name field is marked invalid and described by the reason');
  await alice.page.waitForFunction(() => document.activeElement && document.activeElement.id === 'tf-name');
  check(true, 'form: the focus goes to the field refused');
  await screenshots(alice.page, 'tournament-new');
  await axeCheck(alice.page, 'the creation form, with a refusal shown');
  await alice.page.fill('[data-testid=tf-name]', 'Formal set');
  // The computer as a Swiss's house player, in a rated one: refused, under its field.
  await alice.page.selectOption('[data-testid=tf-computer]', 'easy');
  await alice.page.check('[data-testid=tf-rated]');
  await alice.page.click('[data-testid=tf-create]');
  await alice.page.waitForSelector('[data-testid=tf-computer-error]');
  const rated = await alice.page.textContent('[data-testid=tf-computer-error]');
  check(/rated/.test(rated) && await alice.page.$('[data-testid=tf-name-error]') === null
    && await alice.page.getAttribute('#tf-computer', 'aria-invalid') === 'true',
  `form: the computer in a rated tournament is refused under its own field, the name's error gone (${rated})`);
  await alice.page.uncheck('[data-testid=tf-rated]');
  await alice.page.selectOption('[data-testid=tf-computer]', '');
  await alice.page.click('[data-testid=tf-formal]');
  check(await alice.page.$('[data-testid=tf-computer]') === null, 'form: a set offers no house player');
  const form = await alice.page.evaluate(() => ({ format: document.getElementById('tf-format').value,
    games: document.getElementById('tf-games').value, formal: document.getElementById('tf-opt-tournament').checked }));
  check(form.format === 'sets' && form.games === '2' && form.formal, `form: "Castle Danger's formal set" sets a set of 2 under tournament=1 (${JSON.stringify(form)})`);
  await alice.page.click('[data-testid=tf-create]');
  await alice.page.waitForFunction(() => /^#\/tournaments\/\d+$/.test(location.hash));
  const id = Number(/#\/tournaments\/(\d+)/.exec(alice.page.url())[1]);
  await alice.page.waitForSelector('[data-testid=tournament][data-status=open]');
  const settings = await alice.page.textContent('[data-testid=tour-settings]');
  check(/A set of 2 games/.test(settings) && /tournament 1/.test(settings) && /by alice/.test(settings),
    `tournament: its settings (${settings})`);
  await alice.page.waitForSelector('[data-testid=tour-line-alice]');
  check(await alice.page.$('[data-testid=tour-start]') !== null, 'tournament: its creator is offered Start');
  return id;
}

/** Bob finds the tournament in the list and joins it; Start is not his to press. */
async function join(server, bob, id) {
  await bob.page.goto(`${server.url}/#/tournaments`);
  await bob.page.waitForSelector(`[data-testid=tour-open] [data-testid=tour-row-${id}]`);
  const row = await bob.page.$$eval(`[data-testid=tour-row-${id}] > *`, (cells) => cells.map((c) => c.textContent.trim()));
  check(row[0] === 'Formal set' && /^Castle Danger\s*No clock$/.test(row[1]) && row[2] === 'A set of 2 games' && row[3] === '1' && /^Open/.test(row[4]),
    `list: the open tournament with its game, format, 1 player and status (${row.join(' | ')})`);
  await screenshots(bob.page, 'tournaments');
  await axeCheck(bob.page, 'the list of tournaments');
  await bob.page.click(`[data-testid=tour-row-${id}] a`);
  await bob.page.waitForSelector('[data-testid=tournament]');
  check(await bob.page.$('[data-testid=tour-start]') === null, 'tournament: Start is not offered to another player');
  // By the keyboard: Join is a native button that Enter presses.
  await bob.page.focus('[data-testid=tour-join]');
  await bob.page.keyboard.press('Enter');
  await bob.page.waitForSelector(`[data-testid="tour-line-${bob.name}"]`);
  check(await bob.page.$('[data-testid=tour-withdraw]') !== null, 'tournament: once in, Withdraw is offered');
}

/** Alice starts it: both pages open the paired game by themselves, in different seats; the
 * table links back; the tournament page leads to the game. Returns the game. */
async function start(server, alice, bob) {
  await alice.page.reload();
  await alice.page.waitForSelector(`[data-testid="tour-line-${bob.name}"]`);
  await alice.page.click('[data-testid=tour-start]');
  const [a, b] = [await atGame(alice.page), await atGame(bob.page)];
  check(a === b, `start: both pages open the paired game by themselves (alice #${a}, bob #${b})`);
  const seats = [await mySeat(alice.page), await mySeat(bob.page)];
  check(seats[0] !== seats[1], `start: in different seats (${seats.join(', ')})`);
  const said = await bob.page.textContent('[data-testid=announce]');
  check(said.includes(`Your tournament game is ready: game ${a}.`), `start: the announcer says the game is ready (${said})`);
  await alice.page.click('[data-testid=table-tournament]');
  await alice.page.waitForSelector('[data-testid=tournament][data-status=running]');
  const link = await alice.page.getAttribute('[data-testid=tour-my-game]', 'href');
  check(link === `#/game/${a}`, `tournament: "your game" links to the paired game (${link})`);
  const round = await alice.page.textContent('[data-testid=tour-round-1]');
  check(round.includes('alice') && round.includes(bob.name) && /0 of 2 games played/.test(round), `tournament: round 1's pairing (${round})`);
  await screenshots(alice.page, 'tournament');
  await axeCheck(alice.page, 'a running tournament');
  await alice.page.click('[data-testid=tour-my-game]');
  check(await atGame(alice.page) === a, 'tournament: the link reaches the game');
  return { game: a, aliceSeat: seats[0] };
}

/** Alice resigns game 1; game 2 opens by itself on both pages with the sides swapped; the
 * pairing shows 1-0; she resigns game 2 and the standings are bob 2, alice 0, the set over. */
async function playOut(server, alice, bob, id, first) {
  await resign(alice.page);
  const [a, b] = [await atGame(alice.page, first.game), await atGame(bob.page, first.game)];
  check(a === b, `set: game 2 opens by itself on both pages (#${a}, #${b})`);
  const seat = await mySeat(alice.page);
  check(seat !== first.aliceSeat, `set: with the sides swapped (alice ${first.aliceSeat}, then ${seat})`);
  await bob.page.goto(`${server.url}/#/tournaments/${id}`);
  await bob.page.waitForFunction(() => /1 of 2 games played/.test(document.querySelector('[data-testid=tour-round-1]')?.textContent || ''));
  const round = await bob.page.textContent('[data-testid=tour-round-1]');
  check(round.includes('alice 0') && round.includes(`${bob.name} 1`), `set: after game 1 the pairing stands bob 1, alice 0 (${round})`);
  await resign(alice.page);
  await bob.page.waitForSelector('[data-testid=tournament][data-status=over]');
  const line = async (/** @type {string} */ n) => bob.page.$eval(`[data-testid="tour-line-${n}"]`,
    (el) => ({ rank: el.children[0].textContent, points: el.querySelector('[data-testid=points]').textContent }));
  const [lb, la] = [await line(bob.name), await line('alice')];
  check(lb.rank === '1' && lb.points === '2' && la.rank === '2' && la.points === '0',
    `standings: after the set, bob 1st with 2, alice 2nd with 0 (${JSON.stringify({ bob: lb, alice: la })})`);
  // The page shows the standings as the server sends them: every line and tie-break of the
  // HTTP API's, in its order.
  const { shown, want } = await standingsShown(bob.page, id);
  check(JSON.stringify(shown) === JSON.stringify(want), `standings: the page's table is the server's (${JSON.stringify(shown)}; API ${JSON.stringify(want)})`);
  const yours = await bob.page.textContent('[data-testid=tour-your-game]');
  check(/you are 1st of 2/.test(yours), `tournament over: bob's place (${yours})`);
  await screenshots(bob.page, 'tournament-over');
  await axeCheck(bob.page, 'a finished tournament', [AXE_PASSES[0], AXE_PASSES[1]]);
  await bob.page.goto(`${server.url}/#/tournaments`);
  await bob.page.waitForSelector(`[data-testid=tour-over] [data-testid=tour-row-${id}]`);
  check(true, 'list: the finished tournament is under Finished');
}

/** An arena made with the form, joined by bob and started: both pages open the game by
 * themselves; its page says until when it runs, its standings carry no Swiss tie-breaks, and
 * alice pauses (Withdraw is "Pause" while it runs) and is offered "Come back". Returns its id. */
async function arena(server, alice, bob) {
  await alice.page.goto(`${server.url}/#/tournaments/new`);
  await alice.page.fill('[data-testid=tf-name]', 'Quick arena');
  await alice.page.selectOption('[data-testid=tf-format]', 'arena');
  check(await alice.page.$('[data-testid=tf-table]') === null && await alice.page.$('[data-testid=tf-computer]') === null,
    'arena: the form asks no table size and no house player');
  await alice.page.fill('[data-testid=tf-minutes]', '30');
  await alice.page.click('[data-testid=tf-create]');
  await alice.page.waitForFunction(() => /^#\/tournaments\/\d+$/.test(location.hash));
  const id = Number(/#\/tournaments\/(\d+)/.exec(alice.page.url())[1]);
  await bob.page.goto(`${server.url}/#/tournaments/${id}`);
  await bob.page.click('[data-testid=tour-join]');
  await bob.page.waitForSelector(`[data-testid="tour-line-${bob.name}"]`);
  await alice.page.reload();
  await alice.page.waitForSelector(`[data-testid="tour-line-${bob.name}"]`);
  await alice.page.click('[data-testid=tour-start]');
  const [a, b] = [await atGame(alice.page), await atGame(bob.page)];
  check(a === b, `arena: both pages open the paired game by themselves (#${a}, #${b})`);
  await alice.page.goto(`${server.url}/#/tournaments/${id}`);
  await alice.page.waitForSelector('[data-testid=tournament][data-status=running]');
  const status = await alice.page.textContent('[data-testid=tour-status]');
  const heads = await alice.page.$$eval('[data-testid=tour-standings] thead th', (ths) => ths.map((h) => h.textContent.trim()));
  check(/^Running until /.test(status) && !heads.includes('Buchholz') && !heads.includes('Byes'),
    `arena: "${status}", standings without a Swiss's tie-breaks (${heads.join(', ')})`);
  check(await alice.page.getAttribute('[data-testid=tour-my-game]', 'href') === `#/game/${a}`, 'arena: "Your game" links to the game in play');
  await alice.page.click('[data-testid=tour-withdraw]:has-text("Pause")');
  await alice.page.waitForSelector('[data-testid=tour-join]:has-text("Come back")');
  const paused = await alice.page.textContent('[data-testid=tour-your-game]');
  check(/You are paused/.test(paused), `arena: paused, with Come back offered (${paused})`);
  await axeCheck(alice.page, 'a running arena, paused', [AXE_PASSES[0]]);
  return id;
}

/** Alice's profile lists the tournaments she played, newest first, each row what the API's
 * `tournaments` entry says in words: the arena running (her place so far), the set over (2nd of
 * 2 with 0 points: she resigned both games); a name leads to its tournament's page. */
async function profile(server, alice, setId, arenaId) {
  await alice.page.goto(`${server.url}/#/player/alice`);
  await alice.page.waitForSelector(`[data-testid=profile-tour-${setId}]`);
  const rows = await alice.page.$$eval('[data-testid=profile-tournaments] tbody tr', (trs) => trs.map((tr) => ({
    id: tr.getAttribute('data-testid'), href: tr.querySelector('a')?.getAttribute('href'),
    cells: [...tr.children].map((c) => c.textContent.trim()) })));
  const api = (await alice.page.evaluate(() => fetch('/api/v1/players/alice').then((r) => r.json()))).tournaments;
  const [arenaLine, setLine] = api;
  check(api.length === 2 && arenaLine.id === arenaId && setLine.id === setId,
    `profile: the API lists the arena, then the set (${JSON.stringify(api)})`);
  check(setLine.status === 'over' && setLine.format === 'sets' && setLine.place === 2 && setLine.of === 2 && setLine.points === 0
    && arenaLine.status === 'running' && arenaLine.format === 'arena' && arenaLine.of === 2,
  'profile: the API has the set over, alice 2nd of 2 with 0 points, and the arena running with 2 players');
  const place = (/** @type {any} */ t) => `${['1st', '2nd'][t.place - 1]} of ${t.of}`;
  const want = [
    { id: `profile-tour-${arenaId}`, href: `#/tournaments/${arenaId}`,
      cells: ['Quick arena', 'Castle Danger', 'Arena', 'Running', `${place(arenaLine)} so far`, String(arenaLine.points)] },
    { id: `profile-tour-${setId}`, href: `#/tournaments/${setId}`,
      cells: ['Formal set', 'Castle Danger', 'A set', 'Finished', place(setLine), '0'] },
  ];
  check(JSON.stringify(rows) === JSON.stringify(want), `profile: its tournaments' rows are the API's entries (${JSON.stringify(rows)})`);
  const region = await alice.page.getAttribute('[data-testid=profile-tournaments] .table-scroll', 'tabindex');
  check(region === '0', 'profile: the table scrolls inside a region the keyboard reaches');
  await screenshots(alice.page, 'profile-tournaments');
  await axeCheck(alice.page, 'a profile with its tournaments');
  await alice.page.click(`[data-testid=profile-tour-${setId}] a`);
  await alice.page.waitForSelector('[data-testid=tournament][data-status=over]');
  check(true, 'profile: the set\'s name leads to its page');
}

/** Guests over the WebSocket from a page of their own, as many as `names`: each joins the
 * tournament and resigns every game it is paired in at once. Resolves once all have joined. */
async function bots(browser, server, id, count) {
  const p = await person(browser, server, 'bots');
  await p.page.evaluate(({ tournament, n }) => Promise.all(Array.from({ length: n }, () => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ t: 'hello', proto: 1, id: 'h' }));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.id === 'h') ws.send(JSON.stringify({ t: 'tournament', op: 'join', tournament, id: 'j' }));
      else if (m.id === 'j') (m.t === 'done' ? resolve : reject)(m);
      else if (m.t === 'paired' && m.tournament === tournament) ws.send(JSON.stringify({ t: 'resign', game: m.game }));
    };
  }))), { tournament: id, n: count });
  return p;
}

/** The tournament as the HTTP API gives it, once `ready` says so (asked every 250 ms). */
async function tournamentWhen(page, id, ready) {
  const until = Date.now() + STEP;
  for (;;) {
    const t = await page.evaluate((n) => fetch(`/api/v1/tournaments/${n}`).then((r) => r.json()), id);
    if (ready(t)) return t;
    if (Date.now() > until) throw new Error(`tournament ${id} never got there: ${JSON.stringify(t)}`);
    await new Promise((r) => { setTimeout(r, 250); });
  }
}

/** The standings table of a tournament page, as the HTTP API's lines: rank, name, points,
 * Buchholz, Sonneborn-Berger, direct encounter (when any line has it), played, byes. */
async function standingsShown(page, id) {
  const shown = await page.$$eval('[data-testid=tour-standings] tbody tr', (rows) => rows.map((r) =>
    [...r.children].map((c) => c.textContent.replace(/ \(you\)| \(withdrawn\)/g, '').trim())));
  const api = await page.evaluate((n) => fetch(`/api/v1/tournaments/${n}`).then((r) => r.json()), id);
  const direct = api.standings.some((l) => l.direct !== undefined);
  const want = api.standings.map((l) => [l.rank, l.name, l.points, l.buchholz, l.sonneborn_berger,
    ...(direct ? [l.direct ?? ''] : []), l.played, l.byes].map(String));
  return { shown, want };
}

/**
 * `make soak` (RAMPARTS_SOAK=1) or --swiss 1: a Swiss of 4 over 2 rounds made with the form,
 * alice and bob with two guests over the WebSocket who resign at once; both rounds' games
 * reach alice's page by themselves; the finished page's standings (with tie-breaks that are
 * no longer all 0) and both rounds' pairings are the server's.
 */
async function swiss(browser, server, alice, bob) {
  await alice.page.goto(`${server.url}/#/tournaments/new`);
  await alice.page.fill('[data-testid=tf-name]', 'Sunday Swiss');
  await alice.page.selectOption('[data-testid=tf-format]', 'swiss');
  await alice.page.fill('[data-testid=tf-rounds]', '2');
  await alice.page.click('[data-testid=tf-create]');
  await alice.page.waitForFunction(() => /^#\/tournaments\/\d+$/.test(location.hash));
  const id = Number(/#\/tournaments\/(\d+)/.exec(alice.page.url())[1]);
  await bob.page.goto(`${server.url}/#/tournaments/${id}`);
  await bob.page.click('[data-testid=tour-join]');
  const guests = await bots(browser, server, id, 2);
  await alice.page.reload();
  await alice.page.waitForFunction(() => document.querySelectorAll('[data-testid=tour-standings] tbody tr').length === 4);
  await alice.page.click('[data-testid=tour-start]');
  // The guests resign at once; a game between alice and bob (whom the pairing may put together
  // in round 2, or not: it keeps the first moves balanced before score groups) alice resigns
  // from the table her page opened by itself.
  for (;;) {
    const t = await tournamentWhen(alice.page, id, (x) => x.status === 'over'
      || x.pairings.some((p) => p.game && p.players.includes('alice') && p.players.includes(bob.name)));
    if (t.status === 'over') break;
    const theirs = t.pairings.find((p) => p.game && p.players.includes('alice'));
    await alice.page.waitForFunction((g) => location.hash === `#/game/${g}`
      && document.querySelector('[data-testid=table][data-status=live]'), theirs.game);
    check(true, `swiss: alice's game with bob in round ${theirs.round} opened by itself`);
    await resign(alice.page);
    await tournamentWhen(alice.page, id, (x) => !x.pairings.some((p) => p.game === theirs.game));
  }
  const paired = await alice.page.evaluate((n) => Object.values(JSON.parse(sessionStorage.getItem('ramparts.tournamentGames') || '{}'))
    .filter((x) => x === n).length, id);
  check(paired === 2, `swiss: alice's page was sent both rounds' games (${paired})`);
  await alice.page.goto(`${server.url}/#/tournaments/${id}`);
  await alice.page.waitForSelector('[data-testid=tournament][data-status=over]');
  const { shown, want } = await standingsShown(alice.page, id);
  check(JSON.stringify(shown) === JSON.stringify(want) && want.some((l) => l[3] !== '0'),
    `swiss: the finished standings are the server's, tie-breaks and all (${JSON.stringify(shown)}; API ${JSON.stringify(want)})`);
  const rounds = await alice.page.$$eval('[data-testid^=tour-round-]', (els) => els.map((e) => e.getAttribute('data-testid')));
  check(JSON.stringify(rounds) === '["tour-round-2","tour-round-1"]', `swiss: both rounds' pairings, the last first (${rounds.join(', ')})`);
  await screenshots(alice.page, 'tournament-swiss');
  await axeCheck(alice.page, 'a finished Swiss', [AXE_PASSES[0]]);
  await guests.context.close();
  return guests;
}

async function main() {
  const server = await startServer(args.ramparts, path.join(WORK, 'server.db'));
  const browser = await chromium.launch(CHROMIUM);
  const started = Date.now();
  const people = [];
  /** Run one scenario; a failure is a check, and says how long it ran. */
  const step = async (/** @type {string} */ name, /** @type {() => Promise<any>} */ fn) => {
    const t0 = Date.now();
    try {
      return await fn();
    } finally {
      console.log(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  };
  try {
    const alice = await person(browser, server, 'alice');
    const bob = await person(browser, server, 'bob');
    people.push(alice, bob);
    await step('register', () => registerInPage(alice.page, 'alice', STEP));
    // make soak runs only what make test did not: the Swiss.
    if (!SOAK) {
      await step('guest', () => guestCannotCreate(server, bob));
      const id = await step('create', () => create(server, alice));
      await step('join', () => join(server, bob, id));
      const first = await step('start', () => start(server, alice, bob));
      await step('play out', () => playOut(server, alice, bob, id, first));
      const arenaId = await step('arena', () => arena(server, alice, bob));
      await step('profile', () => profile(server, alice, id, arenaId));
    }
    if (SOAK || args.swiss === '1') {
      const guests = await step('swiss', () => swiss(browser, server, alice, bob));
      people.push(guests);
    }
    for (const p of people) check(p.errors.length === 0, `${p.label}: no console errors: ${p.errors.join(' | ')}`);
  } catch (e) {
    check(false, `the tournaments test ran to its end: ${e && e.stack ? e.stack : e}`);
  } finally {
    await browser.close();
    server.proc.kill('SIGTERM');
  }
  console.log(`tournaments test took ${((Date.now() - started) / 1000).toFixed(0)} s; screenshots in ${OUT}`);
  finish();
}

main();
