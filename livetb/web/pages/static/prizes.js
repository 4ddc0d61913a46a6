// /t/{id}/prizes: the live prize list — every prize of the table by list and place, with who
// would take it if the tournament ended now (provisional while rounds remain, final after the
// last close). The list comes with the feed (the snapshot's and a delta's `prizes`, the same
// document as GET …/prizes): each change redraws the lists (a few dozen lines at most) and says
// so once in the page's polite status line. See docs/prizes.md.
import { app, config, el, languageSwitch, stateLine, statusLine } from "./common.js";
import { href, num, t } from "./i18n.js";
import { boot } from "./boot.js";

const tid = config.tournament;
let feed;
const ui = {};

const SYMBOLS = { EUR: "€", USD: "$", GBP: "£", JPY: "¥", INR: "₹" };

/** "€80", "€80.50" (en) / "80 €", "80,50 €" (it): whole amounts without their zero cents. */
function money(amount, currency) {
  const whole = /^-?\d+(\.0+)?$/.test(amount) ? amount.replace(/\.0+$/, "") : amount;
  const symbol = SYMBOLS[currency] ?? `${currency} `;
  return t("prize.money", { symbol, amount: num(whole) }).trim();
}

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

function winner(a) {
  const link = el("a", { href: href(`/t/${tid}/player/${a.start_no}`), "data-name": "" }, a.name || `#${a.start_no}`);
  const parts = [link];
  if (a.label) parts.push(" ", el("span", { class: "label" }, a.label));
  if (a.shared > 1) {
    const [first, last] = a.places;
    parts.push(el("span", { class: "shared" }, first === last
      ? t("prize.shared_one", { n: a.shared, place: first })
      : t("prize.shared", { n: a.shared, first, last })));
  }
  return parts;
}

/** One list's table: every place with its prize and who takes it (a share: one line each). */
function listTable(doc, code) {
  const rows = [];
  for (const p of doc.prizes.filter((x) => x.list === code)) {
    const awarded = doc.awards.filter((a) => a.list === code && a.place === p.place);
    const inShare = doc.awards.some((a) => a.list === code && a.places[0] < p.place && p.place <= a.places[1]);
    if (inShare) continue; // on the lines of the share that covers it
    if (!awarded.length) {
      rows.push(el("tr", { class: "none", dataset: { place: p.place } },
        el("td", { class: "place" }, String(p.place)),
        el("td", { class: "amount" }, money(p.amount, doc.currency), p.label ? el("span", { class: "label" }, ` ${p.label}`) : ""),
        el("td", { class: "who" }, t("prize.unawarded"))));
      continue;
    }
    awarded.forEach((a, i) => {
      const place = a.places[0] === a.places[1] ? String(a.place) : `${a.places[0]}–${a.places[1]}`;
      rows.push(el("tr", { dataset: { place: a.place, startNo: a.start_no } },
        el("td", { class: "place" }, i === 0 ? place : ""),
        el("td", { class: "amount" }, money(a.amount, doc.currency)),
        el("td", { class: "who" }, ...winner(a))));
    });
  }
  return el("table", { class: "prizes" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", class: "place" }, t("prize.col.place")),
      el("th", { scope: "col", class: "amount" }, t("prize.col.amount")),
      el("th", { scope: "col" }, t("prize.col.winner")))),
    el("tbody", {}, ...rows));
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
      el("div", { class: "scroll" }, listTable(doc, info.code))));
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
