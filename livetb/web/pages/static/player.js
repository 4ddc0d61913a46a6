// /t/{id}/player/{no}: the participant's card — who they are (every number labelled), what
// they need in the running round, why they stand where they stand, the results strip and every
// tie-break with its parts and cuts.
//
// Live updates patch the card in place (`place`): the disclosures the reader opened (a
// tie-break's breakdown, "How is this computed?") are the same elements after an update, so
// they stay open and a focused summary keeps its focus.
import { app, config, el, getJSON, HttpError, languageSwitch, stateLine } from "./common.js";
import { href, num, t, tbName } from "./i18n.js";
import { boot } from "./boot.js";
import { capital, categoryArticle, categoryText, cutText, listing, noteText, ordinal, outcome } from "./words.js";

const tid = config.tournament;
const no = config.start_no;
let info, token, model, card;
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

// --- what I need: one goal a line, the method behind a disclosure ---

function goal(opt, over) {
  let result = t(`outlook.result.${opt.result}`);
  const mine = card.results.find((r) => r.round === card.outlook.round);
  if (opt.result === "bye" && mine) result = capital(outcome(mine.outcome.toUpperCase()));
  else if (over) result = t("card.goal_done", { outcome: outcome(opt.result.toUpperCase()) });
  const params = { result, points: num(opt.points), best: ordinal(opt.best), worst: ordinal(opt.worst) };
  return el("li", { dataset: { result: opt.result, best: opt.best, worst: opt.worst } },
    t(opt.best === opt.worst ? "card.goal_one" : "card.goal", params));
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
        el("th", { scope: "col" }, t("card.result")))),
      el("tbody", {}, card.results.map((r) => el("tr", { dataset: { round: r.round } },
        el("td", {}, r.round),
        el("td", {}, opponentCell(r.opponent)),
        el("td", {}, r.colour ? t(`colour.${r.colour}`) : "–"),
        el("td", {}, resultCell(r))))))),
  ];
}

// --- tie-breaks: one disclosure each, kept open across updates ---

function roundsHint(line) {
  if (line.note) return t("card.de_note");
  const running = card.round_in_progress;
  if (running && line.status === "pending") return t("card.on_rounds_pending", { rounds: line.rounds, round: running });
  if (running && line.status === "predicted") return t("card.on_rounds_predicted", { round: running });
  return t("card.on_rounds", { rounds: line.rounds });
}

/** A group tie-break (DE: `line.note`) means something only inside a tie: does nobody share
 * this participant's values before column `i`? (Read from the standings beside the card.) */
function alone(line, i) {
  if (!line.note || !model || model.filtered) return false;
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
  const parts = line.parts.map((p) => el("tr", { class: p.cut ? "cut" : null },
    el("td", {}, p.round || ""),
    el("td", {}, num(p.amount)),
    el("td", {}, noteText(p.note, nameOf)),
    el("td", { class: "why" }, p.cut ? cutText(p.cut) : t("card.kept"))));
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
  place(ui.head, [
    el("h1", { dataset: { startNo: no, rank: card.rank } }, card.name),
    facts(),
    p.withdrawn_from ? el("p", { class: "hint" }, t("card.withdrawn", { round: p.withdrawn_from })) : null,
  ]);
  place(ui.need, need());
  ui.need.hidden = !card.outlook;
  place(ui.why, why());
  place(ui.results, strip());
  place(ui.tbs, tiebreaks());
  ui.state.textContent = stateLine(model.doc, info.rounds);
  if (was && was !== card.rank) ui.status.textContent = t("card.rank_now", { rank: card.rank, was });
}

// The last card seen of a public tournament, shown when the page opens without a network
// (boot.js shows the standings kept the same way, and the badge says they are not live).
const keptKey = `livetb.card.${tid}.${no}`;

function keepCard() {
  if (info.private) return;
  try {
    localStorage.setItem(keptKey, JSON.stringify(card));
  } catch { /* storage full or refused: the page works without it */ }
}

function keptCard() {
  try {
    return JSON.parse(localStorage.getItem(keptKey) ?? "null");
  } catch {
    return null;
  }
}

async function load() {
  try {
    const next = await getJSON(`/api/tournaments/${encodeURIComponent(tid)}/participants/${no}`, token);
    if (card && next.seq < card.seq) return; // an answer overtaken by a later one
    card = next;
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
  ui.why = el("section", { class: "why" });
  ui.results = el("section", { class: "results" });
  ui.tbs = el("section", { class: "tbs" });
  ui.body = el("div", { class: "card" }, ui.head, ui.need, ui.why, ui.results, ui.tbs, ui.status);
  app.replaceChildren(
    el("header", { class: "top" },
      el("nav", { class: "links" }, el("a", { href: href(`/t/${tid}`) }, `← ${t("card.back")}`)),
      el("p", { class: "sub" }, info.name, " · ", ui.state, " ", feed.status),
      languageSwitch()),
    ui.body);
  app.setAttribute("aria-busy", "false");
}

main();
