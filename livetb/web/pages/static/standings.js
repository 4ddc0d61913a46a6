// /t/{id}: the standings, live, for desktop and phone (dense below 900 px: rank, name, points
// and the first tie-break, the rest on tap); search, followed players pinned on top (kept in
// this browser), the running round's pairings with results filling in; the search also finds
// the searched players' boards (the round's other boards hidden while it is on). ?category=CODE:
// that category's standings, ranks counted inside it, chosen with the picker above the table.
// ?with=rating_change: a last column Δ, each player's rating change so far, live.
import { app, config, el, languageSwitch, stateLine } from "./common.js";
import { href, t } from "./i18n.js";
import { boot } from "./boot.js";
import "./standings-table.js";
import {
  addScores, byesList, namesTable, noBoardText, pairingsTable, progress, scoresBefore, seatOf, updateGame,
} from "./pairings.js";
import { listing } from "./words.js";

const tid = config.tournament;
const query = new URLSearchParams(location.search);
const top = Number.parseInt(query.get("top"), 10) || null;
const category = query.get("category") || null;
const rated = query.get("with") === "rating_change";
const followKey = `livetb.follow.${tid}`;
// ?print=standings|pairings: the arbiters' notice board on A4 (print CSS hides the rest);
// ?print=pairings&order=name: the round in alphabetical order of players (name, board, colour,
// opponent; a bye or an absence said). ?print=crosstable is the crosstable page's (the server
// sends it there).
const printing = ["standings", "pairings"].includes(query.get("print")) ? query.get("print") : null;
const byName = printing === "pairings" && query.get("order") === "name";
const phone = matchMedia("(max-width: 899px)");
let printed = false;

let feed, people;
const ui = {};

function person(no) {
  return feed.model?.rows.get(no) ?? people.get(no);
}

function header() {
  ui.state = el("p", { class: "state" });
  return el("header", { class: "top" },
    el("div", { class: "titles" },
      el("h1", {}, feed.info.name),
      el("p", { class: "sub" }, ui.state, " ", feed.status)),
    el("nav", { class: "links", "aria-label": t("nav.standings") },
      el("a", { href: href("/") }, t("nav.tournaments")),
      el("a", { href: "#pairings" }, t("nav.pairings")),
      el("a", { href: href(`/t/${tid}/crosstable`) }, t("crosstable.title")),
      el("a", { href: href(`/t/${tid}/prizes`) }, t("prize.nav")),
      el("a", { href: href(`/t/${tid}/overlay`) }, t("nav.overlay")),
      el("a", { href: href(`/t/${tid}/screen`) }, t("nav.screen"))),
    languageSwitch());
}

function matches(row, needle) {
  if (/^\d+$/.test(needle)) return String(row.start_no) === needle;
  const fold = (s) => s.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
  return fold(row.name).includes(fold(needle));
}

function applySearch() {
  const needle = ui.search.value.trim();
  const { shown, total } = ui.table.filter(needle ? (row) => matches(row, needle) : null);
  const boards = searchRound(needle);
  ui.count.textContent = [t("search.count", { shown, total }), boards].filter(Boolean).join(" · ");
  ui.pinnedCaption.hidden = ui.table.pinned?.children.length > 0;
}

/** The search in the round's pairings: only the boards (and byes) of the players it finds are
 *  shown, their names marked, and the players it finds with no board said below the table.
 *  Its boards in words for the search's status ("board 12"), or null. */
function searchRound(needle) {
  const round = feed.model?.round;
  if (!ui.pairings || !round || byName) return null;
  const hit = (no) => Boolean(needle) && matches({ start_no: no, name: person(no)?.name ?? "" }, needle);
  const boards = [];
  for (const tr of ui.pairings.tBodies[0].rows) {
    const white = hit(Number(tr.dataset.white));
    const black = hit(Number(tr.dataset.black));
    tr.hidden = Boolean(needle) && !white && !black;
    tr.cells[1].classList.toggle("found", white);
    tr.cells[tr.cells.length - 1].classList.toggle("found", black);
    if (white || black) boards.push(Number(tr.dataset.board));
  }
  for (const li of ui.byes?.children ?? []) li.hidden = Boolean(needle) && !hit(Number(li.dataset.startNo));
  // Found, in the standings, but neither at a board nor on a bye: said, not left out.
  const away = needle
    ? [...(feed.model.rows.values())].filter((r) => matches(r, needle) && seatOf(round, r.start_no).absent)
    : [];
  ui.absent.replaceChildren(...away.slice(0, 20).map((r) => el("li", { dataset: { startNo: r.start_no } },
    `${r.name} (${r.start_no}): ${noBoardText({ absent: true }, isWithdrawn(r.start_no, round.round))}`)));
  ui.absent.hidden = away.length === 0;
  if (!needle || !boards.length) return null;
  if (boards.length === 1) return t("search.board", { board: boards[0] });
  return boards.length <= 5 ? t("search.boards", { boards: listing(boards.map(String)) }) : t("search.boards_many", { n: boards.length });
}

function isWithdrawn(no, rnd) {
  const from = people.get(no)?.withdrawn_from;
  return from !== null && from !== undefined && from <= rnd;
}

function renderRound() {
  const round = feed.model.round;
  if (!round) {
    ui.pairings = ui.byes = null;
    ui.round.replaceChildren(el("h2", {}, t("nav.pairings")), el("p", {}, t("pairings.none")));
    return;
  }
  if (byName) { // the notice board's list by name: every participant, no results
    ui.pairings = namesTable(round, person, [...people.values()]);
    ui.round.replaceChildren(el("h2", {}, t("pairings.by_name", { round: round.round })),
      el("div", { class: "scroll" }, ui.pairings));
    return;
  }
  ui.progress = el("p", { class: "progress" }, progress(round));
  ui.pairings = pairingsTable(round, person);
  ui.byes = byesList(round, person);
  ui.absent = el("ul", { class: "byes absent", hidden: true });
  ui.round.replaceChildren(el("h2", {}, t("pairings.title", { round: round.round })), ui.progress,
    el("div", { class: "scroll" }, ui.pairings), ...(ui.byes ? [ui.byes] : []), ui.absent);
}

function refreshHeader() {
  ui.state.textContent = stateLine(feed.model.doc, feed.info.rounds);
}

async function refreshPeople(nos) {
  if (![...nos].some((no) => !people.has(no))) return;
  try {
    const fresh = await (await fetch(`/api/tournaments/${encodeURIComponent(tid)}`, {
      headers: feed.token ? { Authorization: `Bearer ${feed.token}` } : {}, cache: "no-cache",
    })).json();
    people = new Map(fresh.participants.map((p) => [p.start_no, p]));
    ui.table.setPeople(fresh.participants);
  } catch { /* the server is away: the badge says so, the next delta asks again */ }
}

function onDelta(model, change) {
  refreshHeader();
  if (change.round) renderRound();
  else for (const [rnd, board, result] of change.games) {
    if (model.round?.round === rnd) updateGame(ui.pairings, board, result);
  }
  if (ui.progress && model.round) ui.progress.textContent = progress(model.round);
  applySearch();
  refreshPeople(change.changed);
}

function onSnapshot(model) {
  renderRound();
  refreshHeader();
  applySearch();
  if (printing && !printed) {
    printed = true;
    document.body.dataset.print = printing;
    // The printed pairings carry the points before the round: printed once they are in.
    const ready = printing === "pairings" && !byName && model.round
      ? scoresBefore(tid, model.round.round, feed.token).then((s) => addScores(ui.pairings, s), () => {})
      : Promise.resolve();
    ready.then(() => { document.body.dataset.printReady = "1"; requestAnimationFrame(() => print()); });
  }
}

/** This page with `?category=` set to `code` (or without it): the other query kept. */
function categoryUrl(code) {
  const next = new URLSearchParams(location.search);
  if (code) next.set("category", code);
  else next.delete("category");
  const text = next.toString();
  return location.pathname + (text ? `?${text}` : "");
}

/** The category picker, once the tournament's categories are known (none: no picker). */
async function categoryPicker(row) {
  let found = null;
  try {
    const answer = await fetch(`/api/tournaments/${encodeURIComponent(tid)}/categories`, {
      headers: feed.token ? { Authorization: `Bearer ${feed.token}` } : {}, cache: "no-cache",
    });
    if (answer.ok) found = (await answer.json()).categories;
  } catch { /* the server is away: the page works without the picker */ }
  if (found === null) return;
  // A category no longer defined has no feed: every player instead.
  if (category && !found.some((c) => c.code === category)) location.replace(categoryUrl(null));
  if (!found.length) return;
  const select = el("select", { id: "category", onchange: () => location.assign(categoryUrl(select.value)) },
    el("option", { value: "" }, t("cat.all")),
    found.map((c) => el("option", { value: c.code, selected: c.code === category }, c.name)));
  row.replaceChildren(el("label", { for: "category" }, t("cat.picker")), select);
  row.hidden = false;
}

async function main() {
  feed = await boot({ onSnapshot, onDelta, category, rated });
  if (!feed) return;
  people = new Map(feed.info.participants.map((p) => [p.start_no, p]));
  document.title = `${feed.info.name} · livetb`;
  ui.search = el("input", { id: "search", type: "search", autocomplete: "off", oninput: applySearch });
  ui.count = el("output", { for: "search", class: "count" });
  ui.table = el("standings-table", {
    details: true, links: true, stars: true, pin: true, legend: true,
    density: phone.matches ? "dense" : "comfortable",
    follow: JSON.parse(localStorage.getItem(followKey) || "[]").join(","),
    top: top ?? null, "rating-change": rated,
  });
  ui.table.addEventListener("follow-change", (e) => {
    localStorage.setItem(followKey, JSON.stringify(e.detail.follow));
    applySearch();
  });
  phone.addEventListener("change", () => ui.table.setAttribute("density", phone.matches ? "dense" : "comfortable"));
  ui.pinnedCaption = el("p", { class: "hint" }, t("follow.hint"));
  ui.round = el("section", { id: "pairings", class: "round" });
  ui.categories = el("div", { class: "search", hidden: true });
  app.replaceChildren(
    header(),
    el("div", { class: "layout" },
      el("section", { class: "board", "aria-label": t("nav.standings") },
        ui.categories,
        el("div", { class: "search" }, el("label", { for: "search" }, t("search.label")), ui.search, ui.count),
        ui.pinnedCaption,
        el("div", { class: "scroll" }, ui.table)),
      ui.round));
  app.setAttribute("aria-busy", "false");
  ui.table.attach(feed);
  categoryPicker(ui.categories);
}

main();
