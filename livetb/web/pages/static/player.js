// /t/{id}/player/{no}: the participant's card — who they are (every number labelled), where
// they play the running round (board, colour, opponent; or the bye, or the absence), what
// they need in it, why they stand where they stand, the results strip and every
// tie-break with its parts and cuts; the participant's category ranks, provisional prize and
// the prizes each result of the running game leaves open, and the live rating change.
//
// Live updates patch the card in place (`place`): the disclosures the reader opened (a
// tie-break's breakdown, "How is this computed?") are the same elements after an update, so
// they stay open and a focused summary keeps its focus.
import { app, config, el, getJSON, HttpError, languageSwitch, stateLine } from "./common.js";
import { href, num, t, tbName } from "./i18n.js";
import { boot } from "./boot.js";
import { noBoardText, seatOf } from "./pairings.js";
import { resultText } from "./results.js";
import {
  capital, categoryArticle, categoryText, cutText, listing, money, ordinal, outcome, paid, prizeName,
  prizeReach, prizeSentence, signed, sourceText,
} from "./words.js";

const tid = config.tournament;
const no = config.start_no;
let info, token, model, card;
// Beside the card: the rating change (…/participants/{no}/rating) and the categories with their
// members, from their own endpoints; the prize list (status, currency, awards) as the feed
// keeps it (the same document as …/prizes).
let extra = { rating: null, prizes: null, categories: null };
const ui = {};
const kept = new Map(); // disclosures by key, reused by every render
let timer = null;

/** Make `parent`'s children exactly `children`, in order, replacing only what differs: a
 * node that is wanted again is never moved (which would close nothing but drop its focus)
 * unless the order of the wanted nodes changed. */
function place(parent, children) {
  const wanted = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === "string" ? document.createTextNode(c) : c));
  const keep = new Set(wanted);
  wanted.forEach((child, i) => {
    const at = parent.childNodes[i];
    if (at === child) return;
    if (at && !keep.has(at)) parent.replaceChild(child, at); // a kept node after it stays put
    else parent.insertBefore(child, at ?? null);
  });
  while (parent.childNodes.length > wanted.length) parent.lastChild.remove();
}

/** The `<details>` kept under `key`, its summary and body brought up to date. */
function disclosure(key, attrs, summary, body) {
  let details = kept.get(key);
  if (!details) {
    details = el("details", attrs, el("summary", {}));
    kept.set(key, details);
  }
  const head = details.firstChild;
  place(head, [summary]);
  place(details, [head, body]);
  return details;
}

const nameOf = (opp) => model?.rows.get(Number(opp))?.name ?? null;

/** A participant's number in the standings model: their row, and the points column. */
function standing(opp) {
  const row = model?.rows.get(opp);
  const at = model ? model.column("PTS") : -1;
  return row ? { rank: row.rank, points: at >= 0 ? row.values[at] : null } : null;
}

// --- who: name and labelled facts ---

function rankText() {
  const total = model ? model.rows.size : info.participants.length;
  const shared = model ? [...model.rows.values()].filter((r) => r.rank === card.rank).length : 1;
  return shared > 1
    ? t("card.rank_shared", { rank: card.rank, total, n: shared })
    : t("card.rank_of", { rank: card.rank, total });
}

function points() {
  const pts = card.tiebreaks.find((line, i) => model?.doc.tiebreaks[i] === "PTS");
  if (pts) return pts.value;
  // No PTS column: the strip's points (decimal strings) added in hundredths, exactly.
  const hundredths = card.results.reduce((sum, r) => sum + Math.round(Number(r.points) * 100), 0);
  return (hundredths / 100).toFixed(1);
}

function facts() {
  const fact = (key, value, attrs = {}) => el("div", attrs, el("dt", {}, t(`card.label.${key}`)), el("dd", {}, value));
  return el("dl", { class: "facts" },
    fact("rank", rankText(), { dataset: { fact: "rank" } }),
    fact("points", num(points()), { dataset: { fact: "points" } }),
    fact("rating", card.rating ? String(card.rating) : t("card.unrated"), { dataset: { fact: "rating" } }),
    fact("start_no", String(no), { dataset: { fact: "start_no" } }),
    card.title ? fact("title", card.title) : null,
    card.federation ? fact("federation", card.federation) : null);
}

/** The participant's rank inside each category it belongs to, counted from the standings'
 * ranks as the server counts them: one more than the members ranked strictly above. */
function categoryRanks() {
  const mine = (extra.categories?.categories ?? []).filter((c) => c.start_nos.includes(no));
  if (!mine.length || !model || model.filtered) return null;
  const own = model.rows.get(no)?.rank ?? card.rank;
  const items = mine.map((c) => {
    const ranks = c.start_nos.map((n) => model.rows.get(n)?.rank).filter((r) => r !== undefined);
    const rank = 1 + ranks.filter((r) => r < own).length;
    const shared = ranks.filter((r) => r === own).length;
    const params = { rank: ordinal(rank), total: ranks.length, n: shared };
    return el("div", { dataset: { category: c.code, rank } },
      el("dt", { title: c.name }, c.code),
      el("dd", {}, t(shared > 1 ? "card.cat_rank_shared" : "card.cat_rank", params)));
  });
  return el("dl", { class: "facts cats", "aria-label": t("card.categories") }, items);
}

// --- the running round: the board, colour and opponent, or why there is no board ---

/** The participant's place in the running round, read from the feed's round (the boards the
 *  standings page shows); null when no round runs. */
function runningSeat() {
  const round = model?.round;
  const running = model?.doc?.round_in_progress;
  if (!round || !running || round.round !== running) return null;
  return { round: round.round, ...seatOf(round, no) };
}

/** `<div class="game" data-board="12">`: "Round 5 · Board 12 · White", then the opponent
 *  linked with their start number, rank and points; a bye or an absence said instead. The
 *  same element while nothing in it changes (a focused link keeps its focus). */
function game(seat) {
  if (!seat) return null;
  const key = JSON.stringify([seat, seat.opponent ? [nameOf(seat.opponent), opponentFacts(seat.opponent)] : null]);
  if (shownGame.key !== key) Object.assign(shownGame, { key, box: gameBox(seat) });
  return shownGame.box;
}

const shownGame = { key: null, box: null };

function gameBox(seat) {
  const head = el("p", { class: "game-round" }, t("card.game.round", { round: seat.round }));
  if (seat.board === undefined) {
    const p = info.participants.find((x) => x.start_no === no);
    const out = Boolean(p?.withdrawn_from) && p.withdrawn_from <= seat.round;
    return el("div", { class: "game", dataset: { bye: seat.bye ?? "absent", round: seat.round } },
      head, el("p", { class: "game-seat" }, capital(noBoardText(seat, out))));
  }
  const data = { board: seat.board, colour: seat.colour, opponent: seat.opponent, round: seat.round };
  return el("div", { class: "game", dataset: data },
    head,
    el("p", { class: "game-seat" }, el("strong", {}, t("card.game.board", { board: seat.board })), " · ", t(`colour.${seat.colour}`)),
    el("p", { class: "game-opponent" }, t("card.game.against"), " ",
      el("a", { href: href(`/t/${tid}/player/${seat.opponent}`) }, nameOf(seat.opponent) ?? String(seat.opponent)),
      el("span", { class: "sub-line" }, " · ", opponentFacts(seat.opponent))),
    seat.result ? el("p", { class: "game-result" }, t("card.game.result", { result: resultText(seat.result) })) : null);
}

/** "start no. 7 · rank 3 · 4.0 points" (the rank and points from the standings beside). */
function opponentFacts(opp) {
  const s = standing(opp);
  return s && s.points !== null
    ? t("card.opponent_facts", { no: opp, rank: s.rank, points: num(s.points) })
    : t("card.opponent_no", { no: opp });
}

/** The running round's place as the card's status says it when it changes. */
function seatText(seat) {
  if (!seat) return "";
  if (seat.board === undefined) return `${t("card.game.round", { round: seat.round })}: ${noBoardText(seat)}`;
  return t("card.game.now", { round: seat.round, board: seat.board, colour: t(`colour.${seat.colour}`) });
}

// --- what I need: one goal a line, the method behind a disclosure ---

/** A result of the running game as a goal line starts: "Draw", or "Game over, win". */
function resultLabel(opt, over, round) {
  const mine = card.results.find((r) => r.round === round);
  if (opt.result === "bye" && mine) return capital(outcome(mine.outcome.toUpperCase()));
  if (over) return t("card.goal_done", { outcome: outcome(opt.result.toUpperCase()) });
  return t(`outlook.result.${opt.result}`);
}

/** A result's ranks: both held in some outcome of the other boards, or (`exact: false`, too
 * many outcomes to read) bounds said as bounds. */
function goal(opt, over) {
  const result = resultLabel(opt, over, card.outlook.round);
  const params = { result, points: num(opt.points), best: ordinal(opt.best), worst: ordinal(opt.worst) };
  const key = opt.best === opt.worst ? "card.goal_one" : opt.exact === false ? "card.goal_bounds" : "card.goal";
  return el("li", { dataset: { result: opt.result, best: opt.best, worst: opt.worst, exact: String(opt.exact !== false) } },
    t(key, params));
}

function need() {
  const o = card.outlook;
  if (!o) return [];
  const over = o.options.length === 1; // the game is over (or a bye): its one range
  return [
    el("h2", {}, t("outlook.title")),
    el("p", { class: "hint" }, t(over ? "card.need_intro_done" : "card.need_intro", { round: o.round })),
    el("ul", { class: "goals" }, o.options.map((opt) => goal(opt, over))),
    disclosure("method", { class: "method", dataset: { key: "method" } }, t("card.method"),
      el("p", {}, t(o.ties_share_rank ? "outlook.sentence_pts" : "outlook.sentence", { round: o.round }))),
  ];
}

// --- prizes: what the participant takes if the tournament ended now, and what each result of
// the running game leaves open ---

function award(a, currency) {
  const value = [paid(a.amount) ? money(a.amount, currency) : null, a.label || null].filter(Boolean).join(" · ");
  const share = a.shared > 1
    ? t("card.prize.shared", { n: a.shared, first: ordinal(a.places[0]), last: ordinal(a.places[1]) })
    : null;
  return el("li", { dataset: { list: a.list, place: a.place, amount: a.amount } },
    t("card.prize.award", { prize: prizeName(a.list, a.place), value }),
    share ? el("div", { class: "sub-line" }, share) : null);
}

/** A result's best and worst prize: each taken in some outcome of the other boards, or
 * (`exact: false`) at most and at least. */
function prizeGoal(opt, over, outlook) {
  const best = prizeReach(opt.best, opt.best_prizes, outlook.currency);
  const worst = prizeReach(opt.worst, opt.worst_prizes, outlook.currency);
  const params = { result: resultLabel(opt, over, outlook.round), best, worst };
  let key = "card.prize.range";
  if (best === worst) key = "card.prize.range_one";
  else if (opt.exact === false) key = paid(opt.worst) ? "card.prize.range_bounds" : "card.prize.range_most";
  return el("li", { dataset: { result: opt.result, best: opt.best, worst: opt.worst, exact: String(opt.exact !== false) } },
    t(key, params));
}

function prizes() {
  const list = extra.prizes;
  if (!list || list.rule === null) return [];
  const final = list.status === "final";
  const mine = card.prizes ?? list.awards.filter((a) => a.start_no === no);
  const out = [
    el("h2", {}, t("card.prize.title"), " ",
      el("span", { class: "badge", dataset: { status: list.status } }, t(`card.prize.${list.status}`))),
    mine.length
      ? el("ul", { class: "awards" }, mine.map((a) => award(a, list.currency)))
      : el("p", { class: "awards none" }, t(final ? "card.prize.none_final" : "card.prize.none")),
  ];
  const o = card.prize_outlook;
  if (!o) return out;
  const over = o.options.length === 1; // the game is over (or a bye): its one range
  const sentence = o.last_round ? prizeSentence(o.options, o.currency) : null;
  out.push(
    el("p", { class: "hint" }, t(over ? "card.prize.need_intro_done" : "card.prize.need_intro", { round: o.round })),
    el("ul", { class: "prize-goals" }, o.options.map((opt) => prizeGoal(opt, over, o))),
    sentence ? el("p", { class: "sentence", dataset: { round: o.round } }, sentence) : null,
    disclosure("prize-method", { class: "prize-method", dataset: { key: "prize-method" } }, t("card.method"),
      el("p", {}, t("card.prize.method", { round: o.round }))));
  return out;
}

// --- rating change: per game, the total so far, and the running game ---

/** The performance rating when the tournament ranks by it (a TPR tie-break), else null. */
function performanceRating() {
  const line = card.tiebreaks.find((x) => x.name.split("/")[0] === "TPR");
  return line && line.value !== null ? num(line.value) : null;
}

function ratingChange() {
  const r = extra.rating;
  if (!r) return [];
  const head = el("h2", {}, t("card.rating.title"));
  if (r.rating === null || r.k === null) return [head, el("p", { class: "hint" }, t("card.rating.unrated"))];
  const fact = (key, value) => (value === null ? null : el("div", { dataset: { rating: key } },
    el("dt", {}, t(`card.rating.${key}`)), el("dd", {}, value)));
  const out = [
    head,
    el("dl", { class: "rfacts" },
      fact("total", r.total === null ? t("card.rating.no_games") : signed(r.total)),
      fact("games", String(r.games.length)),
      fact("k", String(r.k)),
      fact("performance", performanceRating())),
  ];
  if (r.running_round !== null && r.if_win !== null) {
    const options = [["win", r.if_win], ["draw", r.if_draw], ["loss", r.if_loss]];
    out.push(
      el("p", { class: "hint" }, t("card.rating.running", { round: r.running_round })),
      el("ul", { class: "rating-goals" }, options.map(([result, change]) => el("li", { dataset: { result, change } },
        t("card.rating.if", { result: t(`outlook.result.${result}`), change: signed(change) })))));
  }
  out.push(disclosure("rating-method", { class: "rating-method", dataset: { key: "rating-method" } }, t("card.method"),
    el("p", {}, t("card.rating.explain", { k: r.k }))));
  return out;
}

/** A round's rating change in the strip: signed, or why it counts for nothing. */
function deltaCell(line) {
  if (line.outcome === "pending") return "–";
  const game = extra.rating?.games.find((g) => g.round === line.round);
  if (!game) return el("span", { class: "sub-line" }, t("card.rating.not_rated"));
  const title = t("card.rating.game_title", { rating: game.opponent_rating, expected: num(game.expected), score: num(game.score) });
  return el("span", { title, dataset: { change: game.change } }, signed(game.change));
}

// --- why here: the neighbours, never contradicting the rank ---

function reason(sep) {
  if (sep.by === null) return null;
  if (sep.by === "playoff") return t("sep.playoff");
  if (sep.by === "lots") return t("sep.lots");
  const codes = model?.doc.tiebreaks ?? card.tiebreaks.map((x) => x.name);
  const at = codes.indexOf(sep.tiebreak);
  const diff = { tb: sep.tiebreak, mine: num(sep.value), theirs: num(sep.neighbour_value) };
  return at > 0 ? t("sep.equal_then", { equal: listing(codes.slice(0, at)), ...diff }) : t("sep.tiebreak", diff);
}

/** First or last in the order, said as a place; when the rank is shared with the next
 * participant in, it is a shared place ("5th place is the last one, shared by 16"). */
function edge(side, other) {
  const shared = other !== null && other.rank === card.rank;
  if (!shared) return t(side === "above" ? "sep.none_above" : "sep.none_below");
  const n = Math.max(2, model ? [...model.rows.values()].filter((r) => r.rank === card.rank).length : 2);
  return side === "above"
    ? t("card.none_above_shared", { n })
    : t("card.none_below_shared", { rank: ordinal(card.rank), n });
}

function why() {
  const { above, below } = card.separated_from;
  const items = [];
  for (const [sep, side, other] of [[above, "above", below], [below, "below", above]]) {
    if (!sep) {
      items.push(edge(side, other));
      continue;
    }
    const because = reason(sep);
    const mine = side === "above" ? "below" : "above"; // I am below the one above me
    items.push(because ? t(`sep.${mine}_by`, { name: sep.name, reason: because }) : t("sep.tied_with", { name: sep.name }));
  }
  return [el("h2", {}, t("card.why")), el("ul", {}, items.map((x) => el("li", {}, x)))];
}

// --- the results strip ---

function opponentCell(opp) {
  if (opp === null) return t("card.no_opponent");
  const link = el("a", { href: href(`/t/${tid}/player/${opp}`) }, nameOf(opp) ?? String(opp));
  const s = standing(opp);
  const line = s && s.points !== null
    ? t("card.opponent_facts", { no: opp, rank: s.rank, points: num(s.points) })
    : t("card.opponent_no", { no: opp });
  return [link, el("div", { class: "sub-line" }, line)];
}

function resultCell(r) {
  const cat = categoryText(r);
  return [
    capital(outcome(r.outcome.toUpperCase())),
    r.outcome === "pending" ? null : el("div", { class: "sub-line" }, t("card.round_points", { points: num(r.points) })),
    cat ? el("div", { class: "sub-line cat", title: categoryArticle(r) }, cat) : null,
  ];
}

function strip() {
  return [
    el("h2", {}, t("card.results")),
    el("div", { class: "scroll" }, el("table", { class: "strip" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, t("card.round")),
        el("th", { scope: "col" }, t("card.opponent")),
        el("th", { scope: "col" }, t("card.colour")),
        el("th", { scope: "col" }, t("card.result")),
        extra.rating ? el("th", { scope: "col", title: t("card.rating.title") }, t("card.delta")) : null)),
      el("tbody", {}, card.results.map((r) => el("tr", { dataset: { round: r.round } },
        el("td", {}, r.round),
        el("td", {}, opponentCell(r.opponent)),
        el("td", {}, r.colour ? t(`colour.${r.colour}`) : "–"),
        el("td", {}, resultCell(r)),
        extra.rating ? el("td", { class: "delta" }, deltaCell(r)) : null))))),
  ];
}

// --- tie-breaks: one disclosure each, kept open across updates ---

function roundsHint(line) {
  if (line.group) return t("card.de_note");
  const running = card.round_in_progress;
  if (running && line.status === "pending") return t("card.on_rounds_pending", { rounds: line.rounds, round: running });
  if (running && line.status === "predicted") return t("card.on_rounds_predicted", { round: running });
  return t("card.on_rounds", { rounds: line.rounds });
}

/** A group tie-break (DE: `line.group`) means something only inside a tie: does nobody share
 * this participant's values before column `i`? (Read from the standings beside the card.) */
function alone(line, i) {
  if (!line.group || !model || model.filtered) return false;
  const rows = model.sorted();
  const at = rows.findIndex((r) => r.start_no === no);
  if (at < 0) return false;
  const key = (row) => JSON.stringify(row.values.slice(0, i));
  const mine = key(rows[at]);
  return !((at > 0 && key(rows[at - 1]) === mine) || (at + 1 < rows.length && key(rows[at + 1]) === mine));
}

/** A value's status in words; a type-C value while a round runs says which round it is at. */
function badge(status) {
  return status === "pending" ? t("card.as_of", { before: card.after_round }) : t(`status.${status}`);
}

/** The labels this card shows, each with its meaning. */
function legend() {
  const round = card.round_in_progress;
  const shown = new Set(card.tiebreaks.filter((line, i) => !alone(line, i)).map((line) => line.status));
  const items = ["final", "provisional", "pending", "predicted"].filter((s) => shown.has(s))
    .map((s) => el("li", {}, el("span", { class: "badge", dataset: { status: s } }, badge(s)), " ",
      t(`card.legend.${s}`, { round })));
  if (card.tiebreaks.some(alone)) items.push(el("li", {}, el("strong", {}, "–"), " ", t("card.legend.alone")));
  return el("ul", {}, items);
}

function tiebreak(line, i) {
  const code = model?.doc.tiebreaks[i] ?? line.name;
  const single = alone(line, i);
  // Round 0: a total the value is built from (the Koya limit, SSSC's secondary score), not
  // counted itself.
  const parts = line.parts.map((p) => el("tr", { class: p.cut ? "cut" : null },
    el("td", {}, p.round || ""),
    el("td", {}, num(p.amount)),
    el("td", {}, sourceText(p.source, nameOf)),
    el("td", { class: "why" }, p.cut ? cutText(p.cut) : p.round ? t("card.kept") : "")));
  const summary = [
    el("span", {}, el("strong", {}, code), " ", tbName(code)),
    el("span", { class: "tbv", dataset: { tb: code, status: line.status, alone: single ? "true" : null } },
      single ? el("span", { title: t("card.alone", { code }) }, "–") : num(line.value), " ",
      single ? null : el("span", { class: "badge", dataset: { status: line.status } }, badge(line.status))),
  ];
  const body = [
    el("p", { class: "hint" }, roundsHint(line)),
    single ? el("p", { class: "hint" }, t("card.alone", { code })) : null,
    parts.length
      ? el("div", { class: "scroll" }, el("table", { class: "parts" }, el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, t("card.round")), el("th", { scope: "col" }, t("card.value")),
          el("th", { scope: "col" }, t("card.parts")), el("th", { scope: "col" }, t("card.cut")))),
        el("tbody", {}, parts)))
      : el("p", { class: "hint" }, t("card.no_parts")),
  ];
  return disclosure(`tb:${code}`, { dataset: { breakdown: code } }, summary, body);
}

/** While a round runs: the FB prediction and the projected BH, each with its sentence. */
function projections() {
  const round = card.round_in_progress;
  if (!round) return null;
  const item = (label, value, explain) => (value === null ? null : el("div", {},
    el("dt", {}, label), el("dd", { class: "value" }, num(value)), el("dd", { class: "hint" }, explain)));
  const items = [
    item(t("card.fb_label"), card.fb_prediction, t("card.fb_explain", { round })),
    item(t("card.bh_label"), card.bh_projected, t("card.bh_explain", { round })),
  ].filter(Boolean);
  return items.length ? [el("h3", {}, t("card.running", { round })), el("dl", { class: "projections" }, items)] : null;
}

function tiebreaks() {
  return [
    el("h2", {}, t("card.tiebreaks")),
    card.tiebreaks.map(tiebreak),
    disclosure("legend", { class: "legend", dataset: { key: "legend" } }, t("card.legend_toggle"), legend()),
    projections(),
  ];
}

function render() {
  const p = info.participants.find((x) => x.start_no === no) ?? {};
  document.title = `${card.name} · livetb`;
  const was = Number(ui.head.dataset.rank || 0);
  ui.head.dataset.rank = card.rank;
  ui.body.dataset.seq = card.seq; // the log position the card shows
  const seat = runningSeat();
  const seatWas = ui.head.dataset.seat;
  ui.head.dataset.seat = seatText(seat);
  place(ui.head, [
    el("h1", { dataset: { startNo: no, rank: card.rank } }, card.name),
    game(seat),
    facts(),
    categoryRanks(),
    p.withdrawn_from ? el("p", { class: "hint" }, t("card.withdrawn", { round: p.withdrawn_from })) : null,
  ]);
  place(ui.need, need());
  ui.need.hidden = !card.outlook;
  place(ui.prizes, prizes());
  ui.prizes.hidden = !ui.prizes.firstChild;
  place(ui.rating, ratingChange());
  ui.rating.hidden = !ui.rating.firstChild;
  place(ui.why, why());
  place(ui.results, strip());
  place(ui.tbs, tiebreaks());
  ui.state.textContent = stateLine(model.doc, info.rounds);
  // One polite status for the card: the rank and the prize when they change.
  const said = [];
  if (seatWas !== undefined && seatWas !== ui.head.dataset.seat && seat) said.push(ui.head.dataset.seat);
  if (was && was !== card.rank) said.push(t("card.rank_now", { rank: card.rank, was }));
  const awards = ui.prizes.querySelector(".awards");
  const prize = awards?.tagName === "UL"
    ? [...awards.children].map((li) => li.firstChild.textContent).join("; ")
    : awards?.textContent ?? "";
  if (ui.prizes.dataset.said !== undefined && ui.prizes.dataset.said !== prize && prize) {
    said.push(t("card.prize.now", { prize }));
  }
  ui.prizes.dataset.said = prize;
  if (said.length) ui.status.textContent = said.join(" · ");
}

// The last card seen of a public tournament, shown when the page opens without a network
// (boot.js shows the standings kept the same way, and the badge says they are not live).
const keptKey = `livetb.card.${tid}.${no}`;

function keepCard() {
  if (info.private) return;
  try {
    localStorage.setItem(keptKey, JSON.stringify({ card, extra }));
  } catch { /* storage full or refused: the page works without it */ }
}

function keptCard() {
  try {
    const kept = JSON.parse(localStorage.getItem(keptKey) ?? "null");
    if (kept?.card) extra = kept.extra;
    return kept?.card ?? kept; // a card kept alone, before the documents beside it were
  } catch {
    return null;
  }
}

const api = `/api/tournaments/${encodeURIComponent(tid)}`;

/** A document beside the card; null when the server has none to give (the card still shows). */
const beside = (path) => getJSON(`${api}${path}`, token).catch((err) => {
  if (err instanceof HttpError) return null;
  throw err;
});

async function load() {
  try {
    const [next, rating, categories] = await Promise.all([
      getJSON(`${api}/participants/${no}`, token),
      beside(`/participants/${no}/rating`), beside("/categories"),
    ]);
    if (card && next.seq < card.seq) return; // an answer overtaken by a later one
    card = next;
    extra = { rating, prizes: model?.prizes ?? null, categories };
    render();
    keepCard();
  } catch (err) {
    // Away from the server, a card already shown stays, or the last one kept is shown.
    if (!(err instanceof HttpError)) {
      card ??= info.private ? null : keptCard();
      if (card) {
        render();
        return;
      }
    }
    const text = err.status === 404 ? t("error.player_not_found") : t("error.load", { message: err.message });
    ui.body.replaceChildren(el("p", { class: "error", role: "alert" }, text));
  }
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(load, 250); // one card request for a burst of deltas
}

async function main() {
  const feed = await boot({
    onSnapshot: (m) => { model = m; load(); },
    onDelta: (m) => { model = m; later(); },
  });
  if (!feed) return;
  ({ info, token } = feed);
  ui.state = el("span", { class: "state" });
  ui.status = el("p", { class: "sr", role: "status", "aria-live": "polite" });
  ui.head = el("section", { class: "who" });
  ui.need = el("section", { class: "outlook", hidden: true });
  ui.prizes = el("section", { class: "prizes", hidden: true, dataset: { key: "prizes" } });
  ui.rating = el("section", { class: "rating", hidden: true });
  ui.why = el("section", { class: "why" });
  ui.results = el("section", { class: "results" });
  ui.tbs = el("section", { class: "tbs" });
  // Two columns on wide screens: what the participant follows, and the tie-breaks beside it.
  ui.body = el("div", { class: "card" }, ui.head,
    el("div", { class: "main-col" }, ui.need, ui.prizes, ui.rating, ui.why, ui.results),
    el("div", { class: "side-col" }, ui.tbs), ui.status);
  app.replaceChildren(
    el("header", { class: "top" },
      el("nav", { class: "links" }, el("a", { href: href(`/t/${tid}`) }, `← ${t("card.back")}`)),
      el("p", { class: "sub" }, info.name, " · ", ui.state, " ", feed.status),
      languageSwitch()),
    ui.body);
  app.setAttribute("aria-busy", "false");
}

main();
