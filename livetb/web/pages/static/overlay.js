// /t/{id}/overlay: an OBS browser source — a transparent page with one solid panel, sized to
// the frame: ?top=N, ?follow=1,5, ?columns=PTS,BH/C1, ?theme=dark|light,
// ?rows=N&page_seconds=S (pages of a large field in turn).
import { app, config, el, liveBadge, openOrShow, stateLine } from "./common.js";
import { t, tbName } from "./i18n.js";
import { follow } from "./feed.js";
import { valueCell } from "./rows.js";

const tid = config.tournament;
const q = new URLSearchParams(location.search);
const int = (name) => {
  const n = Number.parseInt(q.get(name), 10);
  return Number.isFinite(n) && n > 0 ? n : null;
};
const top = int("top");
const perPage = int("rows");
const pageSeconds = int("page_seconds") ?? 10;
const followed = (q.get("follow") ?? "").split(",").map((x) => Number.parseInt(x, 10)).filter((n) => n > 0);
const asked = (q.get("columns") ?? "").split(",").map((c) => c.trim().toUpperCase()).filter(Boolean);
let info, model, page = 0;
const ui = {};

function columns() {
  const codes = model.doc.tiebreaks;
  const wanted = asked.length ? asked.filter((c) => codes.includes(c)) : codes.slice(0, 3);
  return wanted.map((c) => codes.indexOf(c));
}

/** The rows on air now: the top N (or a page of the field), then the followed ones. */
function onAir() {
  const all = model.sorted();
  let shown = top !== null ? all.slice(0, top) : all;
  if (perPage !== null) {
    const pages = Math.max(1, Math.ceil(shown.length / perPage));
    page %= pages;
    shown = shown.slice(page * perPage, (page + 1) * perPage);
  } else if (top === null && followed.length) {
    shown = [];
  } else if (top === null) {
    shown = all.slice(0, 10);
  }
  const extra = all.filter((r) => followed.includes(r.start_no) && !shown.includes(r));
  return [...shown, ...extra];
}

function render() {
  const cols = columns();
  const rows = onAir();
  const n = Math.max(rows.length, 1);
  // Every row, the title and the state inside the frame: no scrollbars at any size.
  const size = Math.min(innerHeight * 0.034, (innerHeight * 0.86) / (n + 3.2) / 1.35);
  ui.panel.style.setProperty("--row-size", `${size}px`);
  ui.table.replaceChildren(
    el("thead", {}, el("tr", {},
      el("th", { class: "rank", scope: "col" }, t("col.rank")),
      el("th", { class: "name", scope: "col" }, t("col.name")),
      cols.map((i) => el("th", { scope: "col", class: "tb" }, el("abbr", { title: tbName(model.doc.tiebreaks[i]) }, model.doc.tiebreaks[i]))))),
    el("tbody", {}, rows.map((r) => {
      return el("tr", { class: followed.includes(r.start_no) ? "followed" : null, dataset: { startNo: r.start_no, rank: r.rank } },
        el("td", { class: "rank" }, r.rank),
        el("td", { class: "name" }, r.name),
        cols.map((i) => valueCell(model.doc.tiebreaks[i], r.values[i], model.statuses[i])));
    })));
  ui.state.textContent = stateLine(model.doc, info.rounds);
}

async function main() {
  const opened = await openOrShow(tid);
  if (!opened) return;
  const { token } = opened;
  info = opened.info;
  document.title = `${info.name} · livetb`;
  ui.badge = liveBadge();
  ui.state = el("span", { class: "state" });
  ui.table = el("table", { "aria-live": "polite" });
  const theme = q.get("theme") === "light" ? "light" : "dark";
  ui.panel = el("section", { class: `overlay ${theme}`, "aria-label": t("overlay.label") },
    el("h1", {}, el("span", {}, info.name), ui.badge), ui.state, ui.table);
  app.replaceChildren(ui.panel);
  app.setAttribute("aria-busy", "false");
  // A small feed where it is enough: the top N, or the followed players.
  const filter = perPage === null && top !== null && !followed.length ? { top }
    : perPage === null && top === null && followed.length ? { participants: followed } : {};
  follow(tid, { token, ...filter }, {
    state: (s) => ui.badge.set(s),
    snapshot: (m) => { model = m; render(); },
    delta: render,
    refused: () => location.reload(),
  });
  if (perPage !== null) setInterval(() => { page += 1; if (model) render(); }, pageSeconds * 1000);
  addEventListener("resize", () => model && render());
}

main();
