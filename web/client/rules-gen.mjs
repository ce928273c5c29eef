// rules-gen.mjs — writes web/client/src/rules/text.js, the rules the page shows (#/rules/GAME),
// from docs/rules/GAME.md: the rules as played here, with every ruling stated in full. The
// sections written for programs (the events a game tells, the move list) are left out. The
// Markdown (headings, paragraphs, lists, tables, **bold**, `code`) becomes plain data the
// client renders, so no Markdown parser ships in the bundle. Phrases written for the terminal
// ("you type", "type `moves`") are said as a page says them (PAGE_WORDING), and the test names
// the rulings cite are left out: what each rule says is unchanged. check.mjs fails when the
// file is out of date. Usage: node rules-gen.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const docs = path.join(here, '..', '..', 'docs', 'rules');
const out = path.join(here, 'src', 'rules', 'text.js');
const GAMES = ['castle-danger', 'walls-and-armies', 'king-of-danger', 'danger-at-the-walls', 'rush-the-wall'];
// Sections for programs and tools rather than players.
const SKIP = /^(What the game tells you|What you are told during play|Moves)\b/;

// The terminal's words, as the page says them: [what docs/rules says, what the page says]. Only
// how to make a move or where a thing is named changes, never what a rule allows. Each must
// match somewhere, so a change to docs/rules cannot bring the terminal's words back unseen.
const PAGE_WORDING = [
  [/^you type$/, 'in the move field'],
  [/\bwhen you say `end` \(allowed/, 'when you end it with End turn (`end` in the move field; allowed'],
  [/How you write each play \(type `moves` in a game for the full list\):/,
    'How each play is written in the move field (press Down in the empty field for the full list; clicking the cards makes the same plays):'],
  [/^The screen and the messages call the cards /, 'The notation (the move field, records) calls the cards '],
  [/`ramparts` reads a card file with/, 'The terminal tool `ramparts` reads a card file with'],
  [/`ramparts rules rush-the-wall cards=@FILE` shows a file's set\./, "In the terminal, `ramparts rules rush-the-wall cards=@FILE` shows a file's set."],
  [/^Game id `walls-and-armies`, 2 players/, '2 players'],
  [/the rulebook \(`shared\/seeds\/walls-and-armies\.txt`, Christer Kaitila\)/, "Christer Kaitila's rulebook"],
  [/^Rulings \(shared, `shared\/rulings\/rush-the-wall\.md`\)$/, 'Rulings (shared)'],
  // The tests a ruling cites are for the project's developers.
  [/ ?Tests?: `[^`]+`(?:, `[^`]+`)*\.$/, ''],
];
const wordingUsed = PAGE_WORDING.map(() => 0);

/** A line of the rules as the page says it. @param {string} text */
function pageWording(text) {
  let out = text;
  PAGE_WORDING.forEach(([from, to], i) => {
    if (from.test(out)) {
      wordingUsed[i]++;
      out = out.replace(from, to);
    }
  });
  return out;
}

/** Every string of a block tree through pageWording. @param {any} b @returns {any} */
function reword(b) {
  if (typeof b === 'string') return pageWording(b);
  return Array.isArray(b) ? b.map(reword) : b;
}

/**
 * Blocks of one Markdown text: ['h', level, text], ['p', text], ['ul'|'ol', [[text, blocks]...]],
 * ['table', rows]. @param {string[]} lines @returns {any[]}
 */
function blocks(lines) {
  const res = [];
  let i = 0;
  const indent = (l) => l.search(/\S/);
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    if (h) { res.push(['h', h[1].length, h[2].trim()]); i++; continue; }
    if (line.trim().startsWith('|')) {
      const rows = [];
      for (; i < lines.length && lines[i].trim().startsWith('|'); i++) {
        const cells = lines[i].trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
        if (!cells.every((c) => /^:?-+:?$/.test(c))) rows.push(cells);
      }
      res.push(['table', rows]);
      continue;
    }
    const item = /^(\s*)([-*]|\d+\.)\s+/.exec(line);
    if (item) {
      const base = indent(line);
      const kind = /\d/.test(item[2]) ? 'ol' : 'ul';
      const items = [];
      while (i < lines.length) {
        const m = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(lines[i]);
        if (!m || indent(lines[i]) !== base) break;
        const text = [m[3]];
        const sub = [];
        i++;
        // The item's continuation lines, then anything indented under it (a nested list).
        while (i < lines.length && lines[i].trim() && indent(lines[i]) > base && !/^\s*([-*]|\d+\.)\s+/.test(lines[i])) text.push(lines[i++].trim());
        while (i < lines.length && (lines[i].trim() === '' ? i + 1 < lines.length && indent(lines[i + 1]) > base : indent(lines[i]) > base)) sub.push(lines[i++]);
        items.push([text.join(' '), sub.length ? blocks(sub.map((l) => l.slice(Math.min(base + 2, indent(l) < 0 ? 0 : indent(l))))) : []]);
        while (i < lines.length && !lines[i].trim() && i + 1 < lines.length && /^(\s*)([-*]|\d+\.)\s+/.test(lines[i + 1]) && indent(lines[i + 1]) === base) i++;
      }
      res.push([kind, items]);
      continue;
    }
    const para = [];
    for (; i < lines.length && lines[i].trim() && !/^(#{1,4})\s|^\s*\||^\s*([-*]|\d+\.)\s+/.test(lines[i]); i++) para.push(lines[i].trim());
    res.push(['p', para.join(' ')]);
  }
  return res;
}

/** One game's rules: its title and its sections, the program-only ones left out. @param {string} text */
function game(text) {
  const all = blocks(text.split('\n'));
  const title = all[0][0] === 'h' && all[0][1] === 1 ? all.shift()[2] : '';
  const kept = [];
  let skipping = false;
  for (const b of all) {
    if (b[0] === 'h' && b[1] === 2) skipping = SKIP.test(b[2]);
    if (!skipping) kept.push(b);
  }
  return { title, blocks: reword(kept) };
}

const rules = {};
for (const g of GAMES) rules[g] = game(readFileSync(path.join(docs, `${g}.md`), 'utf8'));
const unused = PAGE_WORDING.filter((_, i) => wordingUsed[i] === 0).map(([from]) => String(from));
if (unused.length) {
  console.error(`rules-gen.mjs: PAGE_WORDING matches nothing in docs/rules any more: ${unused.join(', ')}`);
  process.exit(1);
}
const body = `// text.js — GENERATED by web/client/rules-gen.mjs from docs/rules/*.md: do not edit; edit
// those files and run \`node web/client/rules-gen.mjs\`. Each game's rules as played here, as
// blocks: ['h', level, text], ['p', text], ['ul'|'ol', [[text, blocks]...]], ['table', rows].
/** @type {{[game: string]: {title: string, blocks: any[]}}} */
export const RULES_TEXT = ${JSON.stringify(rules)};
`;
if (process.argv.includes('--check')) {
  let now = '';
  try { now = readFileSync(out, 'utf8'); } catch { /* missing: out of date */ }
  if (now !== body) {
    console.error('web/client/src/rules/text.js is out of date with docs/rules: run node web/client/rules-gen.mjs');
    process.exit(1);
  }
  console.log('rules text: up to date with docs/rules');
} else {
  writeFileSync(out, body);
  console.log(`wrote ${out} (${body.length} bytes)`);
}
