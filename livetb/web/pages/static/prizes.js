// /t/{id}/prizes: the live prize list — every prize of the table by list and place, with who
// would take it if the tournament ended now (provisional while rounds remain, final after the
// last close). The list comes with the feed (the snapshot's `prizes`, then a `prizes` message
// within 50 ms of a change; the same document as GET …/prizes): each change redraws the lists (a
// few dozen lines at most) and says so once in the page's polite status line. See
// docs/prizes.md.
import { app, config, el, languageSwitch, stateLine, statusLine } from "./common.js";
import { href, t } from "./i18n.js";
import { boot } from "./boot.js";
import { prizeTable } from "./prize-table.js";

const tid = config.tournament;
let feed;
const ui = {};

function header() {
  ui.state = el("p", { class: "state" });
  return el("header", { class: "top" },
    el("div", { class: "titles" },
      el("h1", {}, `${t("prize.title")} · ${feed.info.name}`),
      el("p", { class: "sub" }, ui.state, " ", feed.status)),
    el("nav", { class: "links", "aria-label": t("prize.title") },
      el("a", { href: href("/") }, t("nav.tournaments")),
      el("a", { href: href(`/t/${tid}`) }, t("nav.standings"))),
    languageSwitch());
}

function render(doc) {
  if (!doc || !doc.rule) {
    ui.status.dataset.status = "none";
    ui.body.replaceChildren(el("p", { class: "hint" }, t("prize.none")));
    return;
  }
  ui.status.dataset.status = doc.status;
  ui.status.textContent = t(`prize.status.${doc.status}`);
  const rules = [t(`prize.rule.${doc.rule}`)];
  if (doc.one_prize_per_player) rules.push(t("prize.one_per_player"));
  const sections = doc.lists
    .filter((info) => doc.prizes.some((p) => p.list === info.code))
    .map((info) => el("section", { class: "prize-list", dataset: { list: info.code } },
      el("h2", {}, info.name ?? t("prize.list.main")),
      el("div", { class: "scroll" },
        prizeTable(doc, info.code, { card: (no) => href(`/t/${tid}/player/${no}`), shares: true }))));
  ui.body.replaceChildren(el("p", { class: "hint rules" }, rules.join(" ")), ...sections);
}

function refresh() {
  ui.state.textContent = stateLine(feed.model.doc, feed.info.rounds);
}

function onSnapshot(model) {
  refresh();
  render(model.prizes);
}

function onDelta(model, change) {
  refresh();
  if (!change.prizes) return;
  render(model.prizes);
  ui.said.say(t("prize.updated"));
}

async function main() {
  feed = await boot({ onSnapshot, onDelta });
  if (!feed) return;
  document.title = `${t("prize.title")} · ${feed.info.name} · livetb`;
  ui.status = el("p", { class: "prize-status" });
  ui.said = statusLine({ class: "status sr" });
  ui.body = el("div", { class: "prize-lists" });
  app.replaceChildren(header(), el("section", { class: "prizes-page" }, ui.status, ui.said, ui.body));
  app.setAttribute("aria-busy", "false");
}

main();
