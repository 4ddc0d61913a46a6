// One list of the live prize list as a table (docs/prizes.md): every place with its prize and
// who takes it if the tournament ended now, a share one line per player with the places it
// occupies ("1–4", past the last paid place too) on the first, a place nobody takes said so.
// The prizes page and the venue screen draw their lists with it.
import { el } from "./common.js";
import { t } from "./i18n.js";
import { compareDecimal, money, ordinal } from "./words.js";

const label = (text) => (text ? el("span", { class: "label" }, ` ${text}`) : "");

/** "1st–4th shared by 4": the share a winner's amount is part of. */
function shareNote(a) {
  const [first, last] = a.places;
  return el("span", { class: "shared" },
    t("prize.shared", { n: a.shared, first: ordinal(first), last: ordinal(last) }));
}

/** Whether a prize is its label alone (a trophy without an amount): the label is said where
 * the amount would be, never "€0". */
const trophy = (amount, text) => Boolean(text) && compareDecimal(amount, "0") === 0;

/** List `code` of the prize document `doc`. `card(no)`: the address of a player's card, the
 *  names then linked to it (the screen has nobody to click them); `shares`: the share under a
 *  winner's name; `cents`: every amount with its cents. */
export function prizeTable(doc, code, { card = null, shares = false, cents = false } = {}) {
  const amount = (value) => money(value, doc.currency, { cents });
  const winner = (a) => {
    const name = a.name || `#${a.start_no}`;
    return [
      card ? el("a", { href: card(a.start_no), "data-name": "" }, name) : el("span", { "data-name": "" }, name),
      trophy(a.amount, a.label) ? "" : label(a.label), // a trophy alone: in the amount's cell
      shares && a.shared > 1 ? shareNote(a) : "",
    ];
  };
  const rows = [];
  for (const p of doc.prizes.filter((x) => x.list === code)) {
    const inShare = doc.awards.some((a) => a.list === code && a.places[0] < p.place && p.place <= a.places[1]);
    if (inShare) continue; // on the lines of the share that covers it
    const awarded = doc.awards.filter((a) => a.list === code && a.place === p.place);
    if (!awarded.length) {
      rows.push(el("tr", { class: "none", dataset: { place: p.place } },
        el("td", { class: "place" }, String(p.place)),
        el("td", { class: "amount" }, trophy(p.amount, p.label) ? p.label : [amount(p.amount), label(p.label)]),
        el("td", { class: "who" }, t("prize.unawarded"))));
      continue;
    }
    awarded.forEach((a, i) => {
      const place = a.places[0] === a.places[1] ? String(a.place) : `${a.places[0]}–${a.places[1]}`;
      rows.push(el("tr", { dataset: { place: a.place, startNo: a.start_no } },
        el("td", { class: "place" }, i === 0 ? place : ""),
        // every sharer of a trophy without an amount: the trophy's label, never "€0"
        el("td", { class: "amount" }, trophy(a.amount, p.label) ? p.label : amount(a.amount)),
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
