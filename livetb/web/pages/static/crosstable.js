// /t/{id}/crosstable: the crosstable (<cross-table>, cross-table.js) of GET …/crosstable, read
// again after the feed's changes (one read for a burst of them), so it follows the results
// live. ?print=crosstable: the notice board's copy on A4 landscape (print CSS: the table only,
// its header row on every sheet); the page opens the print dialog once the table is in.
// /t/{id}?print=crosstable comes here (the server sends it on).
import { app, config, el, getJSON, HttpError, languageSwitch, stateLine } from "./common.js";
import { href, t } from "./i18n.js";
import { boot } from "./boot.js";
import "./cross-table.js";

const tid = config.tournament;
const printing = new URLSearchParams(location.search).get("print") === "crosstable";
const api = `/api/tournaments/${encodeURIComponent(tid)}/crosstable`;
let feed;
let seq = 0; // the log position of the crosstable shown
let timer = null;
let printed = false;
const ui = {};

function header() {
  ui.state = el("p", { class: "state" });
  return el("header", { class: "top" },
    el("div", { class: "titles" },
      el("h1", {}, `${t("crosstable.title")} · ${feed.info.name}`),
      el("p", { class: "sub" }, ui.state, " ", feed.status)),
    el("nav", { class: "links", "aria-label": t("crosstable.title") },
      el("a", { href: href("/") }, t("nav.tournaments")),
      el("a", { href: href(`/t/${tid}`) }, t("nav.standings"))),
    languageSwitch());
}

async function load() {
  try {
    const doc = await getJSON(api, feed.token);
    if (doc.seq < seq) return; // an answer overtaken by a later one
    seq = doc.seq;
    ui.none.hidden = doc.paired > 0;
    ui.table.show(doc);
    ui.error.replaceChildren();
    if (printing && !printed) {
      printed = true;
      document.body.dataset.printReady = "1";
      requestAnimationFrame(() => print());
    }
  } catch (err) {
    // Away from the server: the table shown stays (the badge says it is not live).
    if (err instanceof HttpError) ui.error.replaceChildren(el("p", { class: "error", role: "alert" }, t("error.load", { message: err.message })));
  }
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(load, 400); // one read for a burst of deltas
}

function refresh() {
  ui.state.textContent = stateLine(feed.model.doc, feed.info.rounds);
}

async function main() {
  feed = await boot({
    onSnapshot: () => { refresh(); load(); },
    onDelta: () => { refresh(); later(); },
  });
  if (!feed) return;
  document.title = `${t("crosstable.title")} · ${feed.info.name} · livetb`;
  if (printing) document.body.dataset.print = "crosstable";
  ui.table = el("cross-table", { links: true });
  ui.none = el("p", { class: "hint", hidden: true }, t("pairings.none"));
  ui.error = el("div");
  app.replaceChildren(header(), el("section", { class: "cross" }, ui.none, ui.error, ui.table));
  app.setAttribute("aria-busy", "false");
}

main();
