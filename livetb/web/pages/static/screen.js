// /t/{id}/screen: the venue's big screen. Pages of the standings and of the running round's
// pairings take turns (standings 1, pairings 1, standings 2, pairings 2, …: the shorter list
// starts again, so nobody waits a whole cycle of standings for the boards), each page as many
// rows as the screen shows (measured). A QR code of the phone standings page is on every page.
// When the tournament has a prize table, a page of the live prize list (provisional or final,
// in words) ends each cycle. ?page_seconds=S (default 12). ?category=CODE: that category's
// standings (ranks counted inside it, its name in the header).
import { app, config, el, getJSON, stateLine, takeToken } from "./common.js";
import { boot } from "./boot.js";
import { lang, num, t } from "./i18n.js";
import { fitRows, estimateRows, throttled } from "./fit.js";
import { addScores, pairingsTable, progress, scoresBefore, updateGame } from "./pairings.js";
import { prizeTable } from "./prize-table.js";
import "./standings-table.js";

const tid = config.tournament;
const q = new URLSearchParams(location.search);
const seconds = Math.max(3, Number.parseInt(q.get("page_seconds"), 10) || 12);
const askedCategory = q.get("category") || null;
const ui = {};
let feed = null;
let step = 0;
let perStandings = 1; // rows a standings page holds
let perPairings = 1; // boards a pairings page holds
let before = { round: null, scores: null }; // points before the running round, by start no

const running = () => {
  const round = feed?.model?.round;
  return round && round.paired !== false && !round.closed && round.games.length ? round : null;
};

const hasPrizes = () => Boolean(feed?.model?.prizes?.rule && feed.model.prizes.prizes?.length);

/** The pages in turn: [kind, index] for standings and pairings, interleaved; the prize list
 *  last, when there is one. */
function pages() {
  const standings = Math.max(1, Math.ceil((feed.model?.order.length ?? 0) / perStandings));
  const round = running();
  const boards = round ? Math.ceil(round.games.length / perPairings) : 0;
  const out = [];
  if (!boards) {
    for (let i = 0; i < standings; i += 1) out.push(["standings", i, standings]);
  } else {
    const turns = Math.max(standings, boards);
    for (let i = 0; i < turns; i += 1) {
      out.push(["standings", i % standings, standings], ["pairings", i % boards, boards]);
    }
  }
  if (hasPrizes()) out.push(["prizes", 0, 1]);
  return out;
}

// --- the prize list: every list of the table, its places and who takes them now ---

function prizesPage() {
  const doc = feed.model.prizes;
  const lists = doc.lists.filter((info) => doc.prizes.some((p) => p.list === info.code))
    .map((info) => el("section", { class: "screen-prize-list", dataset: { list: info.code } },
      el("h3", {}, info.name ?? t("prize.list.main")),
      prizeTable(doc, info.code, { cents: true })));
  ui.prizes.replaceChildren(
    el("p", { class: "prize-status", dataset: { status: doc.status } }, t(`prize.status.${doc.status}`)),
    el("div", { class: "screen-prize-lists" }, ...lists));
  fitPrizes();
}

/** Smaller type, down to 60 %, until every list fits the page: one page, every prize on it
 *  (a long table in small type beats places nobody sees). */
function fitPrizes() {
  const bottom = ui.pages.getBoundingClientRect().bottom;
  const over = () => ui.prizes.getBoundingClientRect().bottom > bottom + 0.5;
  let scale = 1;
  ui.prizes.style.fontSize = "";
  while (over() && scale > 0.6) {
    scale = Math.max(0.6, scale - 0.05);
    ui.prizes.style.fontSize = `${scale}em`;
  }
}

/** The players' points before the round (the standings when the round before closed), read
 *  once a round; until they come, and if they cannot be read, today's points. */
function scoreOf(no) {
  // Not in the earlier standings (nobody before round 1, a late entrant): 0, as the printed
  // notice has it.
  if (before.scores) return before.scores.get(no) ?? num("0.0");
  const row = feed.model.rows.get(no);
  const at = feed.model.doc.tiebreaks.findIndex((c) => /^(PTS|MPTS|GPTS)\b/.test(c));
  return row ? num(row.values[Math.max(at, 0)]) : "";
}

function loadScores(round) {
  if (before.round === round.round) return;
  before = { round: round.round, scores: null };
  scoresBefore(tid, round.round, feed.token).then((scores) => {
    if (before.round !== round.round) return;
    before.scores = scores;
    if (ui.section.dataset.kind === "pairings") show();
  }, () => { /* today's points stay */ });
}

function pairingsPage(round, k) {
  const games = round.games.slice(k * perPairings, (k + 1) * perPairings);
  const table = pairingsTable(round, (no) => feed.model.rows.get(no), games);
  addScores(table, new Map(games.flatMap((g) => [[g.white, scoreOf(g.white)], [g.black, scoreOf(g.black)]])));
  return table;
}

/** How many boards a pairings page holds at this size: measured on a page of them. */
function measurePairings(round) {
  const bottom = ui.pages.getBoundingClientRect().bottom;
  const total = round.games.length;
  perPairings = fitRows(
    (n) => { perPairings = n; ui.pairings.replaceChildren(pairingsPage(round, 0)); },
    () => ui.pairings.getBoundingClientRect().bottom > bottom + 0.5,
    total,
    estimateRows([...ui.pairings.querySelectorAll("tbody tr")], bottom) || total,
  );
}

/** How many standings rows a page holds: measured on the component's own rows. */
function measureStandings() {
  const bottom = ui.pages.getBoundingClientRect().bottom;
  const total = Math.max(1, feed.model.order.length);
  const rows = () => [...ui.table.querySelectorAll("[data-start-no]")];
  perStandings = fitRows(
    (n) => { ui.table.setAttribute("rows", n); showStandingsPage(0); },
    () => ui.table.getBoundingClientRect().bottom > bottom + 0.5,
    total,
    estimateRows(rows(), bottom),
  );
}

/** The standings component shows page `index` of its rows: the screen turns its pages. */
function showStandingsPage(index) {
  ui.table.setAttribute("page", index + 1);
}

/** Measure both kinds of page for this screen and the running round (a snapshot, a new round,
 *  a new participant, a resize): how many rows and boards a page holds. */
function measure() {
  if (!feed?.model?.doc) return;
  fitColumns();
  const round = running();
  const kind = ui.section.dataset.kind;
  ui.standings.hidden = false;
  ui.pairings.hidden = true;
  ui.prizes.hidden = true;
  // Measured under their own title: the title's line is room a page's rows do not get.
  ui.title.textContent = pageTitle("standings", 0, 1, round);
  measureStandings();
  if (round) {
    loadScores(round);
    ui.standings.hidden = true;
    ui.pairings.hidden = false;
    ui.title.textContent = pageTitle("pairings", 0, 1, round);
    measurePairings(round);
  }
  ui.measured = { count: feed.model.order.length, round: round?.round ?? null, boards: round?.games.length ?? 0 };
  ui.section.dataset.kind = kind ?? "";
  show();
}

/** As many tie-break columns as leave the names 12 em (a portrait or small screen shows the
 *  first few; a full HD screen all of them). */
function fitColumns() {
  const em = Number.parseFloat(getComputedStyle(ui.pages).fontSize) || 16;
  const width = ui.pages.getBoundingClientRect().width / em;
  const codes = feed.model.doc.tiebreaks;
  const room = Math.max(1, Math.floor((width - 4.3 - 1.7 - 12) / 7.1)); // rank, marks, name; a column
  const cols = codes.slice(0, room).join(",");
  if (ui.table.getAttribute("columns") !== cols) ui.table.setAttribute("columns", cols);
}

/** Show the page of this step. */
function show() {
  if (!ui.measured) return;
  const round = running();
  const all = pages();
  const [kind, index, count] = all[step % all.length];
  ui.standings.hidden = kind !== "standings";
  ui.pairings.hidden = kind !== "pairings";
  ui.prizes.hidden = kind !== "prizes";
  ui.section.dataset.kind = kind;
  ui.section.dataset.page = index + 1;
  ui.title.textContent = pageTitle(kind, index, count, round); // before the prizes fit below it
  if (kind === "standings") {
    showStandingsPage(index);
  } else if (kind === "prizes") {
    prizesPage();
  } else {
    ui.pairingsTable = pairingsPage(round, index);
    ui.pairings.replaceChildren(ui.pairingsTable);
  }
  header();
}

/** The title above page `index` of `count` of this kind. */
function pageTitle(kind, index, count, round) {
  const page = { page: index + 1, pages: count };
  if (kind === "standings") return t("screen.standings", page);
  if (kind === "prizes") return t("screen.prizes");
  return `${t("pairings.title", { round: round.round })} · ${t("screen.pairings", page)}`;
}

/** The state line and the marks' legend. */
function header() {
  const round = running();
  ui.state.textContent = [stateLine(feed.model.doc, feed.info.rounds), round ? progress(round) : null].filter(Boolean).join(" · ");
  const doc = feed.model.doc;
  const now = doc.round_in_progress ?? doc.after_round + 1;
  const shown = (ui.table.getAttribute("columns") ?? "").split(",").filter(Boolean).length;
  const present = new Set(feed.model.statuses.slice(0, shown || undefined)); // the columns shown
  const items = ["provisional", "pending", "predicted"].filter((s) => present.has(s))
    .map((s) => {
      const key = s === "pending" && now <= 1 ? "table.legend.pending_first" : `table.legend.${s}`; // no round before to be "as of"
      return el("li", {}, t(key, { mark: t(`table.mark.${s}`), round: now, before: now - 1 }));
    });
  ui.legend.replaceChildren(...items);
  ui.legend.hidden = !items.length;
}

/** A delta: results written into the board shown, the header; a new measure only when the
 *  pages change shape. The standings component updates its own rows. */
function onDelta(change) {
  const round = running();
  const m = ui.measured;
  if (!m || m.count !== feed.model.order.length || m.round !== (round?.round ?? null) || m.boards !== (round?.games.length ?? 0)) {
    schedule();
    return;
  }
  for (const [rnd, board, result] of change.games) {
    if (round?.round === rnd) updateGame(ui.pairingsTable, board, result);
  }
  if (change.prizes && ui.section.dataset.kind === "prizes") {
    if (hasPrizes()) prizesPage();
    else show(); // the table taken away: on to the next page
  }
  header();
}

async function main() {
  ui.state = el("span", { class: "state" });
  ui.title = el("h2", { class: "page-title" });
  ui.table = document.createElement("standings-table");
  ui.table.setAttribute("density", "screen");
  ui.table.setAttribute("page", 1);
  ui.standings = el("div", { class: "standings-page" }, ui.table);
  ui.pairings = el("div", { class: "pairings-page", hidden: true });
  ui.prizes = el("div", { class: "prizes-page-screen", hidden: true });
  ui.pages = el("div", { class: "pages" }, ui.standings, ui.pairings, ui.prizes);
  ui.section = el("section", { class: "screen-page" }, ui.title, ui.pages);
  ui.legend = el("ul", { class: "marks", hidden: true });
  const category = await findCategory();
  feed = await boot({
    category: category?.code ?? null, onSnapshot: () => schedule(), onDelta: (_, change) => onDelta(change),
  });
  if (!feed) return;
  document.title = `${category ? `${category.name} · ` : ""}${feed.info.name} · livetb`;
  const qr = el("figure", { class: "qr" },
    el("img", { src: `/t/${encodeURIComponent(tid)}/qr.svg?lang=${lang}`, alt: t("screen.qr_alt"), width: 240, height: 240 }),
    el("figcaption", {}, t("screen.qr")));
  const aside = el("aside", { class: "screen-side" }, qr, ui.legend);
  const head = el("header", { class: "screen-head" },
    el("h1", {}, feed.info.name,
      category ? el("span", { class: "screen-cat", dataset: { category: category.code } }, ` · ${category.name}`) : ""),
    el("p", { class: "sub" }, ui.state, " ", feed.status));
  app.replaceChildren(el("div", { class: "screen" }, head, ui.section, aside));
  app.setAttribute("aria-busy", "false");
  ui.table.attach(feed);
  setInterval(() => { step += 1; show(); }, seconds * 1000);
  addEventListener("resize", schedule);
}

/** ?category=: { code, name } when the tournament defines it; a code it does not define shows
 *  every player (a screen has nobody to read a complaint to). */
async function findCategory() {
  if (!askedCategory) return null;
  try {
    const doc = await getJSON(`/api/tournaments/${encodeURIComponent(tid)}/categories`, takeToken(tid));
    return (doc.categories ?? []).find((c) => c.code === askedCategory) ?? null;
  } catch {
    return null;
  }
}

const schedule = throttled(measure);

main();
