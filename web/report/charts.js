// charts.js — the report's Vega-Lite specifications, one function per plot; each takes the
// figures (as written by ramparts analyze) and returns a spec with its data inline.

const width = 640;
const base = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', width };
const share = { type: 'quantitative', axis: { format: '.0%' } };

// A point with a 95% interval rule per row: rows {label, group, value, low, high}.
function forest(rows, { x = share, title = 'share', colorField = 'group' } = {}) {
  const enc = {
    y: { field: 'label', type: 'nominal', title: null, sort: null },
    color: { field: colorField, type: 'nominal', title: null },
    yOffset: { field: colorField, type: 'nominal' },
  };
  return {
    ...base,
    data: { values: rows },
    encoding: enc,
    layer: [
      { mark: 'rule', encoding: { x: { field: 'low', ...x, title }, x2: { field: 'high' } } },
      { mark: { type: 'point', filled: true, size: 60 },
        encoding: { x: { field: 'value', ...x, title },
          tooltip: [{ field: 'label' }, { field: colorField }, { field: 'value', format: '.3f' },
            { field: 'low', format: '.3f' }, { field: 'high', format: '.3f' }, { field: 'n' }] } },
    ],
  };
}

export function seatWins(sets) {
  const rows = [];
  for (const s of sets) {
    for (const seat of s.figs.seats)
      rows.push({ label: `seat ${seat.seat} ${seat.name}`, group: s.name, ...seat.wins });
    const fm = s.figs.first_mover;
    if (fm && fm.defined && fm.wins.value !== null)
      rows.push({ label: 'first mover', group: s.name, ...fm.wins });
  }
  const spec = forest(rows, { title: 'share of games won (95% interval)' });
  // each set's own fair share (a variant may change the number of players)
  spec.layer.push({ mark: { type: 'rule', strokeDash: [4, 4], opacity: 0.7 },
    data: { values: sets.map((s) => ({ fair: 1 / Math.max(1, s.figs.players), group: s.name })) },
    encoding: { x: { field: 'fair', type: 'quantitative' }, y: null, yOffset: null,
      color: { field: 'group', type: 'nominal', title: null } } });
  return spec;
}

export function lengthHistogram(sets) {
  const rows = [];
  for (const s of sets) {
    const pg = s.figs.per_game;
    pg.turns.forEach((t, i) => rows.push({ set: s.name, turns: t,
      end: pg.unfinished[i] ? 'stopped at the cap' : 'ended by the rules' }));
  }
  return {
    ...base,
    height: 70,
    data: { values: rows },
    mark: 'bar',
    encoding: {
      x: { field: 'turns', type: 'quantitative', bin: { maxbins: 40 }, title: 'turns' },
      y: { aggregate: 'count', type: 'quantitative', title: 'games' },
      color: { field: 'end', type: 'nominal', title: null },
      row: { field: 'set', type: 'nominal', title: null },
    },
    resolve: { scale: { y: 'independent' } },
  };
}

export function ludii(sets) {
  const rows = [];
  for (const s of sets)
    for (const m of s.figs.ludii)
      if (m.value !== null) rows.push({ metric: m.label, group: s.name, label: s.name, ...m });
  return {
    $schema: base.$schema,
    data: { values: rows },
    facet: { row: { field: 'metric', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left' } } },
    spec: {
      width: width - 180,
      layer: [
        { mark: 'rule', encoding: { x: { field: 'low', type: 'quantitative', title: null }, x2: { field: 'high' },
          y: { field: 'group', type: 'nominal', title: null, axis: null }, color: { field: 'group', type: 'nominal', title: null } } },
        { mark: { type: 'point', filled: true, size: 60 },
          encoding: { x: { field: 'value', type: 'quantitative', title: null },
            y: { field: 'group', type: 'nominal', title: null, axis: null }, color: { field: 'group', type: 'nominal', title: null },
            tooltip: [{ field: 'metric' }, { field: 'group' }, { field: 'value', format: '.3f' },
              { field: 'low', format: '.3f' }, { field: 'high', format: '.3f' }, { field: 'n' }] } },
      ],
    },
    resolve: { scale: { x: 'independent' } },
  };
}

export function ladder(rows, ceiling = []) {
  const point = (r, group, key) => ({ label: `${r.strong} vs ${r.weak}`, group, ...r[key] });
  return forest(rows.map((r) => point(r, 'stronger side\'s score', 'strong_score'))
    .concat(rows.map((r) => point(r, 'weaker side\'s wins', 'weak_wins')))
    .concat(ceiling.map((r) => point(r, 'the oracle\'s score (ceiling)', 'strong_score'))),
  { title: 'share (95% Wilson interval)' });
}

export function impact(rows) {
  const data = rows.map((r) => ({ label: r.label, group: r.significant ? 'significant' : 'not significant',
    value: r.diff, low: r.low, high: r.high, n: r.n_with }));
  data.sort((a, b) => b.value - a.value);
  const spec = forest(data, { title: 'share of the win: with minus without (corrected 95% interval)' });
  spec.height = { step: 16 };
  spec.encoding.yOffset = null;
  return spec;
}

export function decisive(perGame) {
  const rows = [];
  for (const g of perGame) {
    rows.push({ game: `game ${g.game}`, kind: 'largest fall in one move', value: g.worst_drop });
    rows.push({ game: `game ${g.game}`, kind: "loser's worst move", value: g.loser_drop });
  }
  return {
    ...base,
    data: { values: rows },
    mark: 'bar',
    encoding: {
      y: { field: 'game', type: 'nominal', title: null, sort: null },
      yOffset: { field: 'kind', type: 'nominal' },
      x: { field: 'value', type: 'quantitative', axis: { format: '.0%' }, title: 'fall in the estimated share of the win' },
      color: { field: 'kind', type: 'nominal', title: null },
    },
  };
}

export function variant(v) {
  const rows = v.difference.filter((d) => d.value !== null)
    .map((d) => ({ label: d.label, group: d.significant ? 'significant' : 'not significant', ...d }));
  return {
    $schema: base.$schema,
    data: { values: rows },
    facet: { row: { field: 'label', type: 'nominal', title: null, sort: null, header: { labelAngle: 0, labelAlign: 'left' } } },
    spec: {
      width: width - 260,
      height: 18,
      layer: [
        { mark: { type: 'rule', color: '#999', strokeDash: [3, 3] }, encoding: { x: { datum: 0, type: 'quantitative' } } },
        { mark: 'rule', encoding: { x: { field: 'low', type: 'quantitative', title: null }, x2: { field: 'high' },
          color: { field: 'group', type: 'nominal', title: null } } },
        { mark: { type: 'point', filled: true, size: 50 }, encoding: { x: { field: 'value', type: 'quantitative', title: null },
          color: { field: 'group', type: 'nominal', title: null },
          tooltip: [{ field: 'label' }, { field: 'value', format: '.4f' }, { field: 'low', format: '.4f' },
            { field: 'high', format: '.4f' }, { field: 'p', format: '.3f' }, { field: 'n' }] } },
      ],
    },
    resolve: { scale: { x: 'independent' } },
  };
}

// Curves over a swept value: rows {x, series, value, low, high}, a line per series with its
// 95% band. x is a number when every swept value is one, else the values in their order.
export function sweepCurves(rows, { numeric, xTitle, yTitle, percent = true, zero = false }) {
  const x = numeric ? { field: 'x', type: 'quantitative', title: xTitle }
    : { field: 'x', type: 'ordinal', sort: null, title: xTitle };
  const y = { type: 'quantitative', title: yTitle, ...(percent ? { axis: { format: '.0%' } } : {}),
    scale: { zero: false } };
  const color = { field: 'series', type: 'nominal', title: null };
  const layer = [
    { mark: { type: 'area', opacity: 0.18 },
      encoding: { x, y: { field: 'low', ...y }, y2: { field: 'high' }, color } },
    { mark: { type: 'line', point: true },
      encoding: { x, y: { field: 'value', ...y }, color,
        tooltip: [{ field: 'series' }, { field: 'x' }, { field: 'value', format: '.3f' },
          { field: 'low', format: '.3f' }, { field: 'high', format: '.3f' }, { field: 'n' }] } },
  ];
  if (zero)
    layer.push({ mark: { type: 'rule', color: '#999', strokeDash: [3, 3] },
      encoding: { y: { datum: 0, type: 'quantitative' } } });
  return { ...base, height: 220, data: { values: rows.filter((r) => r.value !== null) }, layer };
}
