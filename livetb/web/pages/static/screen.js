// /t/{id}/screen: the venue's big screen — full screen, alternating pages of the standings
// and of the running round's pairings with results (?page_seconds=S, default 12).
import { app, config, el, liveBadge, openOrShow, stateLine } from "./common.js";
import { t, tbName } from "./i18n.js";
import { follow } from "./feed.js";
import { valueCell } from "./rows.js";
import { pairingsTable, progress } from "./pairings.js";

const tid = config.tournament;
const q = new URLSearchParams(location.search);
const seconds = Math.max(3, Number.parseInt(q.get("page_seconds"), 10) || 12);
let info, model, step = 0;
const ui = {};

/** How many rows fit under the title at this screen's size. */
function perPage() {
  const row = Number.parseFloat(getComputedStyle(app).fontSize) * 1.75;
  const free = innerHeight - ui.head.getBoundingClientRect().bottom - row * 2;
  return Math.max(3, Math.floor(free / row));
}

function pages() {
  const n = perPage();
  const standings = Math.max(1, Math.ceil(model.order.length / n));
  const boards = model.round && !model.round.closed ? Math.ceil(model.round.games.length / n) : 0;
  return { n, standings, boards, total: standings + boards };
}

function render() {
  const { n, standings, boards, total } = pages();
  const at = step % total;
  const people = (no) => model.rows.get(no);
  if (at < standings) {
    const rows = model.sorted().slice(at * n, (at + 1) * n);
    const codes = model.doc.tiebreaks;
    ui.title.textContent = t("screen.standings", { page: at + 1, pages: standings });
    ui.body.replaceChildren(el("table", { class: "standings-screen" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, t("col.rank")), el("th", { scope: "col" }, t("col.name")),
        codes.map((c) => el("th", { scope: "col", class: "tb" }, el("abbr", { title: tbName(c) }, c))))),
      el("tbody", {}, rows.map((r) => el("tr", { dataset: { startNo: r.start_no, rank: r.rank } },
        el("td", {}, r.rank), el("td", {}, r.name),
        r.values.map((v, i) => valueCell(codes[i], v, model.statuses[i])))))));
  } else {
    const k = at - standings;
    const games = model.round.games.slice(k * n, (k + 1) * n);
    ui.title.textContent = `${t("pairings.title", { round: model.round.round })} · ${t("screen.pairings", { page: k + 1, pages: boards })} · ${progress(model.round)}`;
    ui.body.replaceChildren(pairingsTable(model.round, people, games));
  }
  ui.state.textContent = stateLine(model.doc, info.rounds);
}

async function main() {
  const opened = await openOrShow(tid);
  if (!opened) return;
  const { token } = opened;
  info = opened.info;
  ui.badge = liveBadge();
  ui.state = el("span", { class: "state" });
  ui.title = el("h2", {});
  ui.body = el("div", { "aria-live": "polite" });
  ui.head = el("header", {}, el("h1", {}, el("span", {}, info.name), ui.badge), el("p", { class: "sub" }, ui.state), ui.title);
  app.replaceChildren(el("div", { class: "screen" }, ui.head, ui.body));
  app.setAttribute("aria-busy", "false");
  follow(tid, { token }, {
    state: (s) => ui.badge.set(s),
    snapshot: (m) => { model = m; render(); },
    delta: () => render(),
    refused: () => location.reload(),
  });
  setInterval(() => { step += 1; if (model) render(); }, seconds * 1000);
  addEventListener("resize", () => model && render());
}

main();
