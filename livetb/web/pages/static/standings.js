// /t/{id}: the standings, live, for desktop and phone; search, followed players pinned on
// top (kept in this browser), the running round's pairings with results filling in.
import { app, config, el, languageSwitch, liveBadge, openOrShow, stateLine } from "./common.js";
import { href, t, tbName } from "./i18n.js";
import { follow } from "./feed.js";
import { animateMoves, fillValues, positions, valueCell } from "./rows.js";
import { addScores, byesList, pairingsTable, progress, scoresBefore, updateGame } from "./pairings.js";

const tid = config.tournament;
const query = new URLSearchParams(location.search);
const top = Number.parseInt(query.get("top"), 10) || null;
const FIRST_VALUE = 7; // rank, follow, no, name, title, federation, rating
const followKey = `livetb.follow.${tid}`;
const followed = new Set(JSON.parse(localStorage.getItem(followKey) || "[]"));
// ?print=standings|pairings: the arbiters' notice board on A4 (print CSS hides the rest).
const printing = ["standings", "pairings"].includes(query.get("print")) ? query.get("print") : null;
let printed = false;

let info, model, people;
const trs = new Map(); // start no -> <tr> of the main table
const ui = {};

function person(no) {
  return model?.rows.get(no) ?? people.get(no);
}

function header() {
  const badge = liveBadge();
  ui.badge = badge;
  ui.state = el("p", { class: "state" });
  return el("header", { class: "top" },
    el("div", { class: "titles" },
      el("h1", {}, info.name),
      el("p", { class: "sub" }, ui.state, " ", badge)),
    el("nav", { class: "links", "aria-label": t("nav.standings") },
      el("a", { href: href("/") }, t("nav.tournaments")),
      el("a", { href: "#pairings" }, t("nav.pairings")),
      el("a", { href: href(`/t/${tid}/overlay`) }, t("nav.overlay")),
      el("a", { href: href(`/t/${tid}/screen`) }, t("nav.screen"))),
    languageSwitch());
}

function tableHead() {
  const cols = model.doc.tiebreaks.map((code, i) => el("th", { scope: "col", class: "tb", dataset: { tb: code } },
    el("abbr", { title: tbName(code) }, code),
    el("span", { class: "badge", dataset: { status: model.statuses[i] ?? "final" } }, t(`status.${model.statuses[i] ?? "final"}`))));
  return el("thead", {}, el("tr", {},
    el("th", { scope: "col", class: "rank" }, t("col.rank")),
    el("th", { scope: "col", class: "fol" }, el("span", { class: "sr" }, t("col.follow"))),
    el("th", { scope: "col", class: "no" }, t("col.no")),
    el("th", { scope: "col", class: "name" }, t("col.name")),
    el("th", { scope: "col", class: "title" }, t("col.title")),
    el("th", { scope: "col", class: "fed" }, t("col.fed")),
    el("th", { scope: "col", class: "rating" }, t("col.rating")),
    cols));
}

function star(no, name) {
  const on = followed.has(no);
  return el("button", {
    type: "button", class: "star", "aria-pressed": String(on),
    "aria-label": t(on ? "follow.remove" : "follow.add", { name }),
    onclick: () => toggleFollow(no),
  }, on ? "★" : "☆");
}

function makeRow(row) {
  const p = people.get(row.start_no) ?? {};
  return el("tr", { dataset: { startNo: row.start_no, rank: row.rank } },
    el("td", { class: "rank" }, row.rank),
    el("td", { class: "fol" }, star(row.start_no, row.name)),
    el("td", { class: "no" }, row.start_no),
    el("td", { class: "name" }, el("a", { href: href(`/t/${tid}/player/${row.start_no}`) }, row.name)),
    el("td", { class: "title" }, p.title ?? ""),
    el("td", { class: "fed" }, p.federation ?? ""),
    el("td", { class: "rating" }, p.rating ?? ""),
    row.values.map((v, i) => valueCell(model.doc.tiebreaks[i], v, model.statuses[i])));
}

function toggleFollow(no) {
  if (followed.has(no)) followed.delete(no);
  else followed.add(no);
  localStorage.setItem(followKey, JSON.stringify([...followed]));
  const tr = trs.get(no);
  if (tr) tr.cells[1].replaceChildren(star(no, model.rows.get(no).name));
  reorder();
  applySearch();
  tr?.querySelector("button.star")?.focus();
}

function matches(row, needle) {
  if (!needle) return true;
  if (/^\d+$/.test(needle)) return String(row.start_no) === needle;
  const fold = (s) => s.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
  return fold(row.name).includes(fold(needle));
}

function applySearch() {
  const needle = ui.search.value.trim();
  let shown = 0;
  model.order.forEach((no, i) => {
    const visible = matches(model.rows.get(no), needle) && (top === null || i < top);
    const tr = trs.get(no);
    if (tr.hidden === visible) tr.hidden = !visible;
    if (visible) shown += 1;
  });
  ui.count.textContent = t("search.count", { shown, total: model.order.length });
}

function renderTable() {
  trs.clear();
  for (const row of model.sorted()) trs.set(row.start_no, makeRow(row));
  ui.table.replaceChildren(tableHead(), ui.pinned, ui.body);
  reorder();
  applySearch();
}

function renderRound() {
  const round = model.round;
  if (!round) {
    ui.round.replaceChildren(el("h2", {}, t("nav.pairings")), el("p", {}, t("pairings.none")));
    return;
  }
  ui.progress = el("p", { class: "progress" }, progress(round));
  ui.pairings = pairingsTable(round, person);
  const byes = byesList(round, person);
  ui.round.replaceChildren(el("h2", {}, t("pairings.title", { round: round.round })), ui.progress,
    el("div", { class: "scroll" }, ui.pairings), ...(byes ? [byes] : []));
}

/** The rows in standings order, each once: the followed ones in the pinned section on top,
 *  the others in the main one; only the rows out of place are moved. */
function reorder() {
  const place = (body, nos) => {
    const kids = body.children;
    nos.forEach((no, i) => {
      const tr = trs.get(no);
      if (kids[i] !== tr) body.insertBefore(tr, kids[i] ?? null);
    });
  };
  const pinned = model.order.filter((no) => followed.has(no));
  place(ui.pinned, pinned);
  place(ui.body, followed.size ? model.order.filter((no) => !followed.has(no)) : model.order);
  for (const no of pinned) trs.get(no).classList.add("pinned");
  for (const tr of ui.body.querySelectorAll("tr.pinned")) tr.classList.remove("pinned");
  ui.pinnedCaption.hidden = pinned.length > 0;
}

function refreshHeader() {
  ui.state.textContent = stateLine(model.doc, info.rounds);
}

function announce(moved) {
  const names = [];
  for (const [no, [was, now]] of moved) {
    if (!followed.has(no) && now > 10 && was > 10) continue;
    if (!was) continue;
    const key = now < was ? "changes.moved_up" : "changes.moved_down";
    names.push(`${model.rows.get(no).name} ${now} (${t(key, { n: Math.abs(was - now) })})`);
    if (names.length >= 3) break;
  }
  if (names.length) ui.live.textContent = t("changes.announce", { names: names.join(", ") });
}

async function refreshPeople(nos) {
  if (![...nos].some((no) => !people.has(no))) return;
  const fresh = await (await fetch(`/api/tournaments/${encodeURIComponent(tid)}`, {
    headers: ui.token ? { Authorization: `Bearer ${ui.token}` } : {},
  })).json();
  people = new Map(fresh.participants.map((p) => [p.start_no, p]));
}

function onDelta(_, change) {
  const { changed, moved } = change;
  const animated = moved.size <= 40 ? positions(trs, [...moved.keys()].filter((no) => trs.has(no))) : [];
  const statusesFlipped = ui.statuses !== model.statuses.join();
  ui.statuses = model.statuses.join();
  for (const no of changed) {
    const row = model.rows.get(no);
    let tr = trs.get(no);
    if (!tr) {
      tr = makeRow(row);
      trs.set(no, tr);
    } else {
      const link = tr.cells[3].firstChild;
      if (link.textContent !== row.name) link.textContent = row.name;
    }
    fillValues(tr, row, model.statuses, FIRST_VALUE);
  }
  for (const no of moved.keys()) {
    if (!changed.has(no)) fillValues(trs.get(no), model.rows.get(no), model.statuses, FIRST_VALUE);
  }
  if (statusesFlipped) {
    for (const row of model.rows.values()) fillValues(trs.get(row.start_no), row, model.statuses, FIRST_VALUE);
    ui.table.tHead.replaceWith(tableHead());
  }
  reorder();
  animateMoves(trs, animated);
  for (const no of changed) {
    if (moved.has(no)) continue;
    const tr = trs.get(no);
    tr.classList.remove("fresh");
    void tr.offsetWidth;
    tr.classList.add("fresh");
  }
  applySearch();
  refreshHeader();
  if (change.round) renderRound();
  else for (const [rnd, board, result] of change.games) {
    if (model.round?.round === rnd) updateGame(ui.pairings, board, result);
  }
  if (ui.progress && model.round) ui.progress.textContent = progress(model.round);
  announce(moved);
  refreshPeople(changed);
}

async function main() {
  const opened = await openOrShow(tid);
  if (!opened) return;
  const { token } = opened;
  info = opened.info;
  ui.token = token;
  people = new Map(info.participants.map((p) => [p.start_no, p]));
  document.title = `${info.name} · livetb`;
  ui.search = el("input", { id: "search", type: "search", autocomplete: "off", oninput: applySearch });
  ui.count = el("output", { for: "search", class: "count" });
  ui.table = el("table", { class: "standings", "aria-describedby": "legend" });
  ui.pinned = el("tbody", { class: "pinned-rows" });
  ui.body = el("tbody", { class: "rows" });
  ui.pinnedCaption = el("p", { class: "hint" }, t("follow.hint"));
  ui.round = el("section", { id: "pairings", class: "round", "aria-live": "polite" });
  ui.live = el("p", { class: "sr", "aria-live": "polite", role: "status" });
  app.replaceChildren(
    header(),
    el("div", { class: "layout" },
      el("section", { class: "board", "aria-label": t("nav.standings") },
        el("div", { class: "search" }, el("label", { for: "search" }, t("search.label")), ui.search, ui.count),
        el("p", { id: "legend", class: "legend" }, t("status.legend")),
        ui.pinnedCaption,
        el("div", { class: "scroll" }, ui.table)),
      ui.round),
    ui.live);
  app.setAttribute("aria-busy", "false");
  follow(tid, { token }, {
    state: (s) => ui.badge.set(s),
    snapshot: (m) => {
      model = m;
      ui.statuses = m.statuses.join();
      renderTable();
      renderRound();
      refreshHeader();
      if (printing && !printed) {
        printed = true;
        document.body.dataset.print = printing;
        // The printed pairings carry the points before the round: printed once they are in.
        const ready = printing === "pairings" && m.round
          ? scoresBefore(tid, m.round.round, token).then((s) => addScores(ui.pairings, s), () => {})
          : Promise.resolve();
        ready.then(() => { document.body.dataset.printReady = "1"; requestAnimationFrame(() => print()); });
      }
    },
    delta: onDelta,
    refused: () => location.reload(),
  });
}

main();
