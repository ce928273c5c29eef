// dom.js — small helpers the report builds its page with: elements, number formats, tables.

// An element with attributes and children (strings become text, arrays are flattened).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const missing = (x) => x === null || x === undefined || Number.isNaN(x);

// A share as a percentage with one decimal.
export function pct(x) {
  return missing(x) ? 'n/a' : `${(100 * x).toFixed(1)}%`;
}

// A number with three significant decimals at most.
export function num(x) {
  if (missing(x)) return 'n/a';
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toFixed(3);
}

// A p-value: three decimals, or "< 0.001" (never a bare 0.000).
export function pval(p) {
  if (missing(p)) return 'n/a';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

// "p = 0.012" or "p < 0.001" (never "p = < 0.001").
export function pclause(p) {
  const text = pval(p);
  return text.startsWith('<') ? `p ${text}` : `p = ${text}`;
}

// "value [low, high] (n)" for an interval object {value, low, high, n}.
export function interval(iv, format) {
  if (!iv || missing(iv.value)) return `n/a (n=${iv ? iv.n : 0})`;
  return `${format(iv.value)} [${format(iv.low)}, ${format(iv.high)}] (n=${iv.n})`;
}

export function table(headers, rows) {
  const t = el('table');
  t.append(el('thead', {}, el('tr', {}, headers.map((h) => el('th', {}, h)))));
  t.append(el('tbody', {}, rows.map((r) => el('tr', {}, r.map((c) => el('td', {}, c))))));
  return t;
}

export function note(text) {
  return el('p', { class: 'note' }, text);
}
