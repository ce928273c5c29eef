// rules.js — each game's rules in the page: #/rules lists the games, #/rules/GAME shows one
// (a short summary, what each card, piece or fort does, then the rules as played here with
// every ruling, generated from docs/rules); the table shows the same in a panel. Also the
// hidden explanations the boards' cards and pieces point at (aria-describedby), and the line
// that shows the explanation of what is under the pointer or focused.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { GLOSSARY, SUMMARY, explain, explainId } from '../rules/index.js';
import { glossaryArtFor } from '../games/index.js';
import { RULES_TEXT } from '../rules/text.js';

/** `code` and **bold** in a line of the rules. @param {string} text */
function inline(text) {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return html`<code>${part.slice(1, -1)}</code>`;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3) return html`<b>${part.slice(2, -2)}</b>`;
    return part;
  });
}

/** Blocks of rules text (rules-gen.mjs) as HTML, headings shifted under the page's. @param {any[]} blocks @param {number} shift */
function renderBlocks(blocks, shift) {
  return blocks.map((b) => {
    if (b[0] === 'h') {
      const level = Math.min(6, b[1] + shift);
      return level === 3 ? html`<h3>${inline(b[2])}</h3>` : level === 4 ? html`<h4>${inline(b[2])}</h4>` : html`<h5>${inline(b[2])}</h5>`;
    }
    if (b[0] === 'p') return html`<p>${inline(b[1])}</p>`;
    if (b[0] === 'table') {
      const [head, ...rows] = b[1];
      return html`<div class="table-wrap"><table class="data"><thead><tr>${head.map((c) => html`<th scope="col">${inline(c)}</th>`)}</tr></thead>
        <tbody>${rows.map((r) => html`<tr>${r.map((c) => html`<td>${inline(c)}</td>`)}</tr>`)}</tbody></table></div>`;
    }
    const items = b[1].map((/** @type {any[]} */ it) => html`<li>${inline(it[0])}${it[1].length ? renderBlocks(it[1], shift) : ''}</li>`);
    return b[0] === 'ol' ? html`<ol>${items}</ol>` : html`<ul>${items}</ul>`;
  });
}

// The ruling ids a sentence rests on, as the summaries and the glossary write them: " (CD-3)",
// " (RW-9, RW-10)", ", CD-5)" closing a parenthesis.
const RULING_IDS = /(\s?\((?:\s|,|;|and|to|[A-Z]{2,3}-P?\d+)+\)|,\s*[A-Z]{2,3}-P?\d+(?=\)))/;

/** A sentence with its ruling ids in spans the page hides unless asked (issue 43: the ids stay
 * out of the main text, behind a toggle). @param {string} text */
function withRulingIds(text) {
  return text.split(RULING_IDS).map((part, i) => (i % 2 ? html`<span class="ruling-ids">${part}</span>` : part));
}

/** A game's rules: summary, what each thing does (drawn as the table draws it, on the rules
 * page only: at a table, a drawn card would be a card named on the page that nobody was dealt),
 * the full text. @param {{game: string, title: string, level?: number, drawn?: boolean}} props */
export function RulesBody({ game, title, level = 2, drawn: withArt = true }) {
  const text = RULES_TEXT[game];
  const glossary = GLOSSARY[game] || {};
  const art = withArt ? glossaryArtFor(game) : () => null;
  const [ids, setIds] = useState(false);
  const H = level === 2 ? 'h2' : 'h3';
  if (!text) return html`<p>No rules are written for ${title}.</p>`;
  return html`<div class=${`rules-body${ids ? '' : ' hide-ids'}`} data-testid="rules-body">
    <p class="small"><label><input type="checkbox" checked=${ids} data-testid="show-ruling-ids"
      onChange=${(/** @type {any} */ e) => setIds(e.currentTarget.checked)} /> Show the ruling ids the sentences rest on</label></p>
    <${H}>In short</${H}>
    ${(SUMMARY[game] || []).map((p) => html`<p>${withRulingIds(p)}</p>`)}
    <${H}>What each card and piece does</${H}>
    <dl class="glossary">${Object.entries(glossary).map(([key, words]) => {
      const drawn = art(key);
      return html`<div><dt>${drawn && html`<span class="glossary-art" aria-hidden="true">${drawn}</span>`}${words.split(':')[0]}</dt>
      <dd data-key=${key}>${withRulingIds(words.slice(words.indexOf(':') + 1).trim())}</dd></div>`;
    })}</dl>
    <details class="rules-full">
      <summary>The rules in full, with every ruling</summary>
      ${renderBlocks(text.blocks, level - 1)}
    </details>
  </div>`;
}

/** #/rules and #/rules/GAME. @param {{client: import('../client.js').Client, game: string}} props */
export function RulesPage({ client, game }) {
  const types = client.state.types;
  const t = types.find((x) => x.type === game);
  const title = t ? t.title : (RULES_TEXT[game] || { title: game }).title;
  if (!game || !RULES_TEXT[game]) {
    return html`<div class="rules-page panel"><h1>Rules</h1>
      <ul class="rules-list">${Object.keys(RULES_TEXT).map((g) => {
        const tt = types.find((x) => x.type === g);
        return html`<li><a href=${`#/rules/${g}`} data-testid=${`rules-link-${g}`}>${tt ? tt.title : RULES_TEXT[g].title}</a></li>`;
      })}</ul></div>`;
  }
  return html`<article class="rules-page panel" data-testid="rules-page">
    <h1>Rules: ${title}</h1>
    <p class="small"><a href="#/rules">Every game's rules</a> · <a href="#/">Lobby</a> · <a href=${`#/learn/${game}`}>Learn by playing</a></p>
    <${RulesBody} game=${game} title=${title} />
    <${Explanations} game=${game} />
  </article>`;
}

/** The hidden paragraphs the board's cards and pieces are described by (aria-describedby),
 * once per page. @param {{game: string}} props */
export function Explanations({ game }) {
  const glossary = GLOSSARY[game] || {};
  return html`<div hidden>${Object.entries(glossary).map(([key, words]) => html`<p id=${explainId(key)}>${words}</p>`)}</div>`;
}

/** The key of the thing under the pointer or focused, for the explanation line. @param {EventTarget|null} target */
export function explainedKey(target) {
  if (!(target instanceof Element)) return null;
  const el = target.closest('[data-explain]') || target.querySelector('[data-explain]');
  return el ? el.getAttribute('data-explain') : null;
}

/** The line under the board that says what the pointed or focused thing does (screen readers
 * hear it as the thing's description instead). @param {{game: string, keyName: string|null}} props */
export function ExplainLine({ game, keyName }) {
  const words = keyName ? explain(game, keyName) : '';
  return html`<p class="explain small" data-testid="explain" aria-hidden="true">${words || 'Point at a card or piece to see what it does.'}</p>`;
}
