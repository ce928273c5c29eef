// report.js — draws the report of `ramparts analyze` from the figures embedded in the page
// (<script id="report-data">): tables with 95% intervals and the number of games, and plots
// drawn by Vega-Lite through vega-embed. Bundled by build.mjs and inlined into the HTML by
// the ramparts binary, so the report opens offline.
import embed from 'vega-embed';
import css from './report.css';
import { el, pct, num, pval, pclause, interval, table, note } from './dom.js';
import * as charts from './charts.js';

const pending = [];
let plotCount = 0;

// A plot in `parent`: a Vega-Lite spec drawn as SVG; failures are reported on the page.
function plot(parent, id, spec, caption) {
  const figure = el('figure', { class: 'plot-figure' });
  const holder = el('div', { class: 'plot', 'data-plot': id });
  figure.append(holder);
  if (caption) figure.append(el('figcaption', {}, caption));
  parent.append(figure);
  plotCount++;
  const opts = { renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false } };
  pending.push(embed(holder, spec, opts).then(() => holder.setAttribute('data-drawn', 'true')));
}

function section(root, id, heading, intro) {
  const s = el('section', { id });
  s.append(el('h2', {}, heading));
  if (intro) s.append(el('p', { class: 'intro' }, intro));
  root.append(s);
  return s;
}

// The figure sets side by side: AI games, human games, each variant.
function sets(data) {
  const out = [];
  if (data.ai_games) out.push({ name: `AI games (${data.ai.join(' vs ')})`, figs: data.ai_games });
  if (data.human_games) out.push({ name: 'Human games (records)', figs: data.human_games });
  if (data.ai_records) out.push({ name: 'AI-only records', figs: data.ai_records });
  for (const v of data.variants) out.push({ name: `Variant ${v.vs}`, figs: v.figures });
  return out;
}

function header(root, data) {
  root.append(el('h1', {}, `${data.title}: balance report`));
  const cap = data.turn_cap
    ? `Games still going after ${data.turn_cap} turns were stopped and count as unfinished ` +
      '(shared where a result is needed): a cap of the tool, never a rule of the game (CD-16).'
    : 'No turn cap: every game ended by its rules.';
  root.append(
    el('p', { class: 'meta' },
      `Options ${data.options}. AI: ${data.ai.join(', ')}. Seed ${data.seed}: ${data.deals}` +
      (data.paired ? '; two-player deals are played twice with the seats swapped.' : '.')),
    el('p', { class: 'meta' }, cap),
    el('p', { class: 'meta' },
      'Every figure shows a 95% interval [low, high] and n, the number of games behind it.'));
}

// "1/2" in words, for the fair line.
function fairText(players) {
  return players === 1 ? 'a single player has no rival seat'
    : `a fair game gives each of the ${players} seats close to ${pct(1 / players)}`;
}

function testText(row) {
  if (row.p === undefined || row.p === null) return '';
  const detail = row.test === 'McNemar exact over deals'
    ? `McNemar exact over deals: ${row.deals_won_twice} won twice, ${row.deals_lost_twice} lost twice`
    : `exact binomial: ${row.side_wins} of ${row.decided} decided games`;
  return `${pclause(row.p)} (${detail})`;
}

// The verdict: what a designer reads first, each line marked by its level.
function verdictSection(root, data) {
  if (!data.verdict) return;
  const s = section(root, 'verdict', 'Verdict',
    'Read off the figures below. "Act": a clear effect, of a size that matters, on something ' +
    'a designer can change (a seat, a card, a kind of action, a rule); "note": worth knowing ' +
    '(an effect too small to matter, or an event that describes how games end, not a lever); ' +
    '"ok": no sign of a problem. The verdict\'s tests of the first mover and the seats are ' +
    'Bonferroni-adjusted together over every question asked; a size "to detect" is the power ' +
    'of that same test; the effects are those significant after the impact table\'s own ' +
    'correction.');
  s.append(el('ul', { class: 'verdict' }, data.verdict.map((v) =>
    el('li', { class: `level-${v.level}` }, el('strong', {}, `${v.level}: `), `${v.topic}. `, v.text))));
}

function seatsSection(root, data) {
  const all = sets(data);
  const players = all[0].figs.players;
  const s = section(root, 'seats', 'Seats: who wins',
    `Outright wins per seat and of the first mover (the seat the rules, or the deal, let move ` +
    `first); draws and shared wins; games stopped at the turn cap. With ${players} ` +
    `player${players === 1 ? '' : 's'}, ${fairText(players)}` +
    `${all.some((x) => x.figs.players !== players) ? ' (a set with another number of players has its own fair share, its own dashed line)' : ''}. Intervals: Wilson's over the ` +
    'games, or, when two-player deals are played twice with the seats swapped, Student\'s t ' +
    'over the deals (the two games of a deal are not independent).');
  const rows = [];
  for (const set of all) {
    for (const seat of set.figs.seats)
      rows.push([set.name, `${seat.seat} ${seat.name}`, interval(seat.wins, pct), testText(seat)]);
    const fm = set.figs.first_mover;
    if (fm && fm.defined) rows.push([set.name, 'first mover', interval(fm.wins, pct), testText(fm)]);
    else if (fm) rows.push([set.name, 'first mover', `none: ${fm.why}`, '']);
    const byId = Object.fromEntries(set.figs.length.map((f) => [f.id, f]));
    rows.push([set.name, 'draws or shared', interval(byId.draws, pct), '']);
    rows.push([set.name, 'unfinished (turn cap)', interval(byId.unfinished, pct), '']);
    if (set.figs.scores)
      for (const sc of set.figs.scores)
        rows.push([set.name, `${sc.seat} ${sc.name}: points`, interval(sc.points, num), '']);
  }
  s.append(table(['games', 'seat', 'share of games [95% interval] (n)', 'test of no advantage'], rows));
  plot(s, 'seat-wins', charts.seatWins(all), 'Wins per seat and of the first mover, with 95% intervals; the dashed line is the fair share.');
}

function lengthSection(root, data) {
  const s = section(root, 'length', 'Length and decisions',
    'Turns as the rulebook counts them, actions (every move or placement), decisions (actions ' +
    'chosen among two or more), the branching factor and the share of forced moves.');
  const all = sets(data);
  const ids = all[0].figs.length.filter((f) => f.id !== 'draws').map((f) => f.id);
  const rows = ids.map((id) => {
    const first = all[0].figs.length.find((f) => f.id === id);
    return [first.label, ...all.map((set) => {
      const f = set.figs.length.find((g) => g.id === id);
      return interval(f, f.share || id === 'forced_share' ? pct : num);
    })];
  });
  s.append(table(['figure', ...all.map((x) => x.name)], rows));
  plot(s, 'length-histogram', charts.lengthHistogram(all),
    'How many turns games last; games stopped at the cap are marked.');
}

function ludiiSection(root, data) {
  const s = section(root, 'ludii', "Ludii's game metrics",
    "The metrics of the Ludii general game system's evaluation module, each with its " +
    "definition and source file. State evaluations come from the game's own evaluation " +
    'function, normalised so the seats sum to 1 (Ludii uses a short UCT search).');
  const all = sets(data);
  const rows = all[0].figs.ludii.map((m) => [
    m.label,
    ...all.map((set) => {
      const f = set.figs.ludii.find((g) => g.id === m.id);
      return interval(f, f.share ? pct : num);
    }),
    el('span', { class: 'def' }, `${m.definition} `, el('cite', {}, `${m.ludii_name}: ${m.source}`)),
  ]);
  s.append(table(['metric', ...all.map((x) => x.name), 'definition (source)'], rows));
  plot(s, 'ludii', charts.ludii(all), 'Each metric with its 95% interval, set by set.');
}

// Seat order, the first mover at each skill level and the skill trace: who gains from the
// order of play, whether that holds as play gets stronger, and whether thinking keeps paying.
function orderAndSkillSection(root, data) {
  const order = data.ai_games && data.ai_games.seat_order;
  const levels = data.first_mover_by_level || [];
  const trace = data.skill_trace;
  if (!(order && order.places.length) && !levels.length && !(trace && trace.steps)) return;
  const s = section(root, 'order-skill', 'Seat order and skill',
    'Whether the order of play favours a place, whether the first mover\'s edge holds at every ' +
    'skill level, and how results improve with thinking time.');
  if (order && order.places.length) {
    s.append(el('h3', {}, 'Wins by place in the order of play'));
    s.append(el('p', { class: 'note' }, `${order.definition} `, el('cite', {}, order.source)));
    s.append(table(['place', 'share of games [95% interval] (n)'],
      order.places.map((p) => [p.place === 1 ? '1 (first mover)' : String(p.place), interval(p, pct)])));
  }
  if (levels.length) {
    s.append(el('h3', {}, 'The first mover at each skill level'));
    s.append(note('Self-play at each level (every seat the same AI), on the base games\' deals: ' +
      'the first mover\'s share of the games and the test of no advantage (as in the seats ' +
      'table). Small samples by default (--first-mover-games): a first look, not a verdict.'));
    s.append(table(['level', 'games', 'first mover won [95% interval] (n)', 'test of no advantage'],
      levels.map((l) => [l.level, l.games, l.first_mover.defined ? interval(l.first_mover.wins, pct)
        : `none: ${l.first_mover.why}`, testText(l.first_mover)])));
  }
  if (trace && trace.steps) {
    s.append(el('h3', {}, 'Skill trace'));
    s.append(el('p', {}, el('strong', {}, `Skill trace: ${trace.value === null ? 'n/a' : num(trace.value)} `),
      `over ${trace.steps} steps of the ladder. `, el('span', { class: 'def' }, `${trace.definition} `,
        el('cite', {}, trace.source))));
  }
}

function ladderSection(root, data) {
  if (!data.ladder.length) return;
  const s = section(root, 'ladder', 'Skill and luck: the ladder and the ceiling',
    'Each AI against the next stronger one. If skill always told, the stronger side would ' +
    'win every game; how often the weaker side still wins shows how much the deal decides. ' +
    '"Deal decides" assumes a game is either won by the better player or a coin flip, so it ' +
    'is twice the weaker side\'s wins. With more than two players the stronger AI sits alone ' +
    'against copies of the weaker one, on every seat in turn: its fair share is one in the ' +
    'number of players, and the weaker side wins when any of its seats does. A step is ' +
    '"separated" when the step\'s test finds the stronger side above its fair share at 5%: ' +
    'with two players McNemar\'s exact test over the deals (a deal is played twice, the ' +
    'stronger side on each seat; the deals one side won twice decide), with more the exact ' +
    'binomial test of its wins among the games with a winner. Sizing the ladder: the games at ' +
    'which that same test reaches 80% power (its exact power, computed as the verdict\'s is, ' +
    'the share of deals won twice, or of decided games, held as measured), for the score ' +
    `measured and for a step of ${pct((data.ladder[0] || {}).detect)} above the fair share (--detect).`);
  const games = (r, key) => (r[`games_${key}`] === null || r[`games_${key}`] === undefined ? 'n/a'
    : `${Math.round(r[`games_${key}`])} (${Math.round(r[`deals_${key}`])} deals; power ${pct(r[`power_${key}`])})`);
  const rows = (list) => list.map((r) => [r.weak, r.strong, pct(r.fair_share), interval(r.strong_score, pct),
    `${r.separated ? 'yes' : 'no'} (${pclause(r.p)})`, games(r, 'to_detect'), games(r, 'to_detect_step'),
    interval(r.weak_wins, pct), r.deal_decides ? interval(r.deal_decides, pct) : 'n/a']);
  const head = ['weaker', 'stronger', 'fair share', 'stronger scores', 'separated',
    'games to tell apart (as measured)', `games for a ${pct((data.ladder[0] || {}).detect)} step`,
    'weaker side wins', 'deal decides'];
  s.append(table(head, rows(data.ladder)));
  if (data.ceiling && data.ceiling.length) {
    s.append(el('h3', {}, 'The ceiling: an oracle that sees every hidden card'));
    s.append(note('The oracle is the hard search run on the true state: it sees the other hands ' +
      'and the order of the deck (so the draws to come). No player can do better, so its score ' +
      'against the weakest AI bounds what skill can win in this game, and its score against the ' +
      'strongest shows how far that AI is from the ceiling. It exists only inside this analysis: ' +
      'no player and no server can choose it.'));
    s.append(table(head, rows(data.ceiling)));
  }
  plot(s, 'ladder', charts.ladder(data.ladder, data.ceiling || []), 'The stronger AI\'s score in each pairing.');
}

function impactSection(root, set, id, title) {
  const imp = set.figs.impact;
  const s = section(root, id, title,
    `A seat's share of the win when it played a card or kind of action, set off an event (or ` +
    `held a card at the end) against its share without. ${imp.tests} distinct comparisons ` +
    `(features that had the same seats in every game are one comparison, listed together), ` +
    `Bonferroni-corrected: each interval at 1 - 0.05/${imp.tests || 1}, jointly 95%, and each ` +
    `p-value times ${imp.tests || 1}, so a row is significant exactly when its interval leaves ` +
    `out 0. Features seen fewer than ${imp.min_each_side} times on either side are listed ` +
    'untested. A difference is an association, not a cause.');
  if (!imp.significance_shown)
    s.append(note(`Only ${set.figs.games} games: below ${imp.min_games} games nothing is called ` +
      'significant; the figures are shown for what they are.'));
  if (imp.outcome_events.length)
    s.append(note(`Left out: ${imp.outcome_events.join(', ')}: no game saw ` +
      `${imp.outcome_events.length === 1 ? 'it' : 'them'} before its last action, so ` +
      `${imp.outcome_events.length === 1 ? 'it is' : 'they are'} how games end, not a cause.`));
  const tested = imp.rows.filter((r) => r.tested);
  if (imp.top.length)
    s.append(el('p', {}, el('strong', {}, 'Matter most: '),
      imp.top.map((r) => `${r.label} (${r.diff > 0 ? '+' : ''}${pct(r.diff)})`).join('; ')));
  else s.append(note('No card, action or event makes a significant difference at this sample size.'));
  if (tested.length)
    plot(s, `${id}-forest`, charts.impact(tested),
      'Difference in the share of the win, with and without, with Bonferroni 95% intervals.');
  s.append(note('A lever is what a designer can change or a player choose: a card played or a ' +
    'kind of action. An event (a wall falling, a card flipped) or a card held at the end ' +
    'describes how a game went or ended: it is reported, never a thing to act on.'));
  s.append(table(['feature', 'lever or outcome', 'with (n)', 'without (n)', 'difference [corrected interval]', 'p (Bonferroni)'],
    imp.rows.map((r) => [
      r.same_as.length ? `${r.label} (= ${r.same_as.map((x) => x.label).join(', ')})` : r.label,
      r.lever ? 'lever' : 'outcome',
      `${pct(r.rate_with)} (${r.n_with})`,
      `${pct(r.rate_without)} (${r.n_without})`,
      r.tested ? `${pct(r.diff)} [${pct(r.low)}, ${pct(r.high)}]` : 'untested',
      r.tested ? `${pval(r.p_adjusted)}${r.significant ? ' *' : ''}` : '',
    ])));
}

function decisiveSection(root, data) {
  const d = data.decisive;
  if (!d) return;
  const s = section(root, 'decisive', 'Decided by one move',
    `A strong search (${d.judge}) estimated the share of the win of the player to act at every ` +
    'decision of the first games; a move\'s fall is its mover\'s estimate before minus after. ' +
    'In games of more than two players only the mover\'s own estimates are known, so the fall ' +
    'runs to its next decision.');
  s.append(table(['figure', 'value'], [
    [`largest fall in one move (the largest over n=${d.games} games)`, pct(d.largest_drop)],
    ['mean of each game\'s largest fall', interval(d.mean_worst_drop, pct)],
    ['games whose loser\'s worst move swung it from at least even to behind',
      interval(d.loser_swung, pct)],
  ]));
  plot(s, 'decisive', charts.decisive(d.per_game), 'Each judged game: its largest fall and the loser\'s.');
}

// A difference with enough decimals for its interval's width to show (never "-0.00 [-0.00, -0.00]").
function diffText(d) {
  if (d.value === null || d.value === undefined) return 'n/a';
  const k = d.share ? 100 : 1;
  const width = k * (d.high - d.low);
  const digits = Math.min(8, Math.max(1, Number.isFinite(width) && width > 0
    ? 1 - Math.floor(Math.log10(width))
    : d.value ? 2 - Math.floor(Math.log10(Math.abs(k * d.value))) : 1));
  const f = (x) => `${x >= 0 ? '+' : ''}${(k * x).toFixed(digits)}`;
  return `${f(d.value)}${d.share ? ' points' : ''} [${f(d.low)}, ${f(d.high)}] (n=${d.n})`;
}

function variantsSection(root, data) {
  if (!data.variants.length) return;
  const s = section(root, 'variants', 'Rule variants against the base rules',
    'Each variant played on the same seeds with the same AIs; every difference (variant minus ' +
    'base) has a paired bootstrap 95% interval (the same deals resampled in both) and a p-value ' +
    '(the difference over its bootstrap standard error). Every figure of every variant is one ' +
    `family of ${data.variants_correction ? data.variants_correction.tests : 0} comparisons, ` +
    'corrected by Holm\'s step-down method: a figure is significant when its Holm-adjusted ' +
    'p-value is below 0.05 and its interval leaves out 0, so the chance of any false ' +
    '"significant" among them all stays at 5%. Each question counts once: a figure that ' +
    'repeats another (turns and Ludii\'s duration; a seat that always moves first and the ' +
    'first mover) reads the other\'s test, and a figure that never varied asks none. A ' +
    'significant difference "matters" when it is at least the size given for its figure ' +
    '(what a designer would notice); only those are "act" in the verdict.');
  for (const v of data.variants) {
    s.append(el('h3', {}, `${v.vs} (${v.options})`));
    s.append(table(['figure', 'difference [95% interval] (n)', 'p', 'p (Holm)', 'significant',
      'size that matters'],
    v.difference.map((d) => [d.label, diffText(d), pval(d.p),
      d.same_as ? `as ${d.same_as}` : d.no_variation ? 'no variation' : pval(d.p_holm),
      d.significant ? (d.relevant ? 'yes *, matters' : 'yes *, too small to matter') : 'no',
      d.matters ? `${d.share ? pct(d.min_effect) : num(d.min_effect)}: ${d.matters}` : ''])));
    plot(s, `variant-${v.vs}`, charts.variant(v), `Differences, ${v.vs} minus base.`);
  }
}

// Curves over the swept value: wins by seat and of the first mover, length, decisiveness,
// and each feature's impact (the features significant at some value, else the largest).
function sweepSection(root, data) {
  const sw = data.sweep;
  if (!sw) return;
  const axis = sw.axis || sw.option;
  const s = section(root, 'sweep', `Sweep: ${axis}`,
    `The same deals played at every value of ${axis} (${sw.points.map((p) => p.value).join(', ')}), ` +
    'so the curves differ by the rule, not by the deals. Bands are 95% intervals at each value.');
  const xOf = (p) => (sw.numeric ? p.x : p.value);
  const wins = [];
  for (const p of sw.points) {
    for (const seat of p.figures.seats)
      wins.push({ x: xOf(p), series: `seat ${seat.seat} ${seat.name}`, ...seat.wins });
    const fm = p.figures.first_mover;
    if (fm && fm.defined) wins.push({ x: xOf(p), series: 'first mover', ...fm.wins });
  }
  plot(s, 'sweep-wins', charts.sweepCurves(wins, { numeric: sw.numeric, xTitle: axis,
    yTitle: 'share of games won' }), 'Wins by seat and of the first mover.');
  const pick = (id, list) => sw.points.map((p) => {
    const f = p.figures[list].find((g) => g.id === id);
    return { x: xOf(p), series: f.label, ...f };
  });
  plot(s, 'sweep-length', charts.sweepCurves(pick('turns', 'length'), { numeric: sw.numeric,
    xTitle: axis, yTitle: 'turns per game', percent: false }), 'Length: turns per game.');
  plot(s, 'sweep-decisive', charts.sweepCurves(
    pick('decisiveness', 'ludii').concat(pick('completion', 'ludii')),
    { numeric: sw.numeric, xTitle: axis, yTitle: 'share' }),
  'Decisiveness (share of the moves before the winner is clear) and completion (games with a winner).');
  const byLabel = new Map();
  for (const p of sw.points)
    for (const r of p.figures.impact.rows.filter((q) => q.tested)) {
      if (!byLabel.has(r.label)) byLabel.set(r.label, []);
      byLabel.get(r.label).push({ x: xOf(p), series: r.label, value: r.diff, low: r.low,
        high: r.high, n: r.n_with, significant: r.significant });
    }
  let features = [...byLabel.values()];
  const significant = features.filter((rows) => rows.some((r) => r.significant));
  features = (significant.length ? significant : features)
    .sort((a, b) => Math.max(...b.map((r) => Math.abs(r.value))) - Math.max(...a.map((r) => Math.abs(r.value))))
    .slice(0, 8);
  if (features.length)
    plot(s, 'sweep-impact', charts.sweepCurves(features.flat(), { numeric: sw.numeric,
      xTitle: axis, yTitle: 'share of the win: with minus without', zero: true }),
    `Impact of ${significant.length ? 'the features significant at some value' : 'the largest features'} ` +
    '(Bonferroni intervals within each value).');
  s.append(table(['value', ...sw.points[0].figures.seats.map((x) => `${x.name} wins`), 'first mover wins',
    'turns', 'decisiveness', 'unfinished'],
  sw.points.map((p) => {
    const len = Object.fromEntries(p.figures.length.map((f) => [f.id, f]));
    const lud = Object.fromEntries(p.figures.ludii.map((f) => [f.id, f]));
    const fm = p.figures.first_mover;
    return [p.value, ...p.figures.seats.map((x) => interval(x.wins, pct)),
      fm && fm.defined ? interval(fm.wins, pct) : 'none', interval(len.turns, num),
      interval(lud.decisiveness, num), interval(len.unfinished, pct)];
  })));
  // Each value against the first (the baseline) on the same deals: paired differences.
  const compared = sw.points.filter((p) => p.difference);
  if (compared.length) {
    s.append(el('h3', {}, `Each value against ${axis} = ${sw.baseline} (paired)`));
    s.append(note('Every value is played on the baseline\'s deals, so each difference is paired: ' +
      'the same deals resampled in both, usually a narrower interval than two separate ones. ' +
      `Holm over every figure of every value (${sw.correction.tests} comparisons); * significant.`));
    const ids = compared[0].difference.map((d) => d.id);
    s.append(table(['figure', ...compared.map((p) => `${p.value} minus ${sw.baseline}`)],
      ids.map((id) => [compared[0].difference.find((d) => d.id === id).label,
        ...compared.map((p) => {
          const d = p.difference.find((x) => x.id === id);
          return d ? `${diffText(d)}${d.significant ? ' *' : ''}` : 'n/a';
        })])));
  }
}

function humanNote(root, data) {
  const h = data.human_games;
  if (!h) return;
  const s = section(root, 'human', 'Human games',
    `${h.games} records of this game with at least one human seat, from ${h.directory} ` +
    `(${h.files} record files read, ${h.other_games} of other games left out, ` +
    `${h.ai_only_records} played by AIs alone reported apart as "AI-only records"), beside ` +
    'the AI games above.');
  s.append(table(['options', 'games'], Object.entries(h.options_seen).map(([k, n]) => [k, n])));
}

function render(data) {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  const root = document.getElementById('report');
  root.textContent = '';
  header(root, data);
  verdictSection(root, data);
  seatsSection(root, data);
  lengthSection(root, data);
  ludiiSection(root, data);
  orderAndSkillSection(root, data);
  ladderSection(root, data);
  if (data.ai_games) impactSection(root, { figs: data.ai_games }, 'impact', 'Cards and actions: AI games');
  if (data.human_games) impactSection(root, { figs: data.human_games }, 'impact-human', 'Cards and actions: human games');
  decisiveSection(root, data);
  variantsSection(root, data);
  sweepSection(root, data);
  humanNote(root, data);
}

const data = JSON.parse(document.getElementById('report-data').textContent);
render(data);
window.reportStatus = { plots: plotCount, drawn: 0, done: false, errors: [] };
Promise.allSettled(pending).then((results) => {
  for (const r of results) {
    if (r.status === 'fulfilled') window.reportStatus.drawn++;
    else {
      window.reportStatus.errors.push(String(r.reason));
      console.error('plot failed:', r.reason);
    }
  }
  window.reportStatus.done = true;
});
