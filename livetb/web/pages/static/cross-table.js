// <cross-table>: the crosstable, one `<tr data-start-no data-rank>` a participant in standings
// order — rank, name (a link to the card), one cell a round (the opponent's rank in these
// standings, the colour, the points scored: "12w1", "5b½", "bye 1", "–" for an absence; the
// same in words as the cell's tooltip), the points and the tie-breaks. Fed with `show(doc)`,
// the document of GET /api/tournaments/{id}/crosstable: a row is rebuilt only when something
// it shows changed, and rows are moved only when the order changed. One polite status says
// what the table shows when that changes. The table scrolls sideways inside its own box.
//
//   <cross-table links></cross-table>      links: the names link to the participants' cards
import { config, el } from "./common.js";
import { href, num, t, tbName } from "./i18n.js";
import { outcome } from "./words.js";

// A round's TRF code and its outcome's name (words.js's `outcome`).
const OUTCOMES = {
  "1": "WIN", "=": "DRAW", "0": "LOSS", W: "SHORT_WIN", D: "SHORT_DRAW", L: "SHORT_LOSS",
  "+": "FORFEIT_WIN", "-": "FORFEIT_LOSS", H: "HALF_BYE", F: "FULL_BYE", U: "PAB", Z: "ZERO_BYE",
  X: "UNKNOWN", "*": "PENDING",
};

/** Points as a crosstable writes them: 1, ½, 0, 1½ (any other value as the language writes it). */
export function score(points) {
  const [whole, frac = ""] = String(points).split(".");
  if (/^0*$/.test(frac)) return whole;
  if (/^50*$/.test(frac)) return whole === "0" ? "½" : `${whole}½`;
  return num(points);
}

/** A round's cell as text: "12w1", "5b½", "3w+", "7b−", "4w*" (playing), "bye 1", "–". */
export function cellText(cell, rankOf) {
  if (cell.opponent !== null) {
    const mark = { "+": "+", "-": "−", "*": "*" }[cell.result] ?? score(cell.points);
    return `${rankOf(cell.opponent) ?? "?"}${cell.colour ? t(`xt.colour.${cell.colour}`) : ""}${mark}`;
  }
  if (cell.result === "Z") return Number(cell.points) ? `– ${score(cell.points)}` : "–";
  return `${t("xt.bye")} ${score(cell.points)}`;
}

/** A round's cell in words, for its tooltip. */
function cellTitle(cell, rankOf, nameOf) {
  const said = outcome(OUTCOMES[cell.result] ?? cell.result);
  const points = num(cell.points);
  if (cell.opponent === null) return t("xt.cell_bye", { round: cell.round, outcome: said, points });
  return t("xt.cell_game", {
    round: cell.round, colour: cell.colour ? t(`colour.${cell.colour}`) : "–",
    name: nameOf(cell.opponent) ?? cell.opponent, rank: rankOf(cell.opponent) ?? "?", outcome: said, points,
  });
}

class CrossTable extends HTMLElement {
  connectedCallback() {
    if (this.table) return;
    this.rows = new Map(); // start_no -> { key, tr }
    this.headKey = null;
    this.said = null;
    this.table = el("table", { class: "crosstable" }, el("caption", { class: "sr" }, t("crosstable.title")));
    this.head = el("thead");
    this.body = el("tbody");
    this.table.append(this.head, this.body);
    this.status = el("p", { class: "sr", role: "status", "aria-live": "polite" });
    this.replaceChildren(el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("crosstable.title") }, this.table),
      this.legend(), this.status);
  }

  legend() {
    return el("p", { class: "legend hint" }, t("xt.legend", { w: t("xt.colour.w"), b: t("xt.colour.b"), bye: t("xt.bye") }));
  }

  /** Show `doc` (the crosstable document). */
  show(doc) {
    const ranks = new Map(doc.rows.map((r) => [r.start_no, r.rank]));
    const names = new Map(doc.rows.map((r) => [r.start_no, r.name]));
    const rankOf = (no) => ranks.get(no);
    const nameOf = (no) => names.get(no);
    // The points column is the rounds' total; PTS, when the tie-breaks list it, is that total.
    const shown = doc.tiebreaks.map((code, i) => [code, i]).filter(([code]) => code !== "PTS");
    const headKey = JSON.stringify([doc.paired, doc.tiebreaks]);
    if (headKey !== this.headKey) {
      this.headKey = headKey;
      this.rows.clear(); // every row has new columns
      this.head.replaceChildren(el("tr", {},
        el("th", { scope: "col", class: "rank" }, el("abbr", { title: t("card.label.rank") }, t("xt.rank_short"))),
        el("th", { scope: "col", class: "name" }, t("col.name")),
        Array.from({ length: doc.paired }, (_, i) => el("th", { scope: "col", class: "rnd", dataset: { round: i + 1 } },
          el("abbr", { title: t("pairings.title", { round: i + 1 }) }, String(i + 1)))),
        el("th", { scope: "col", class: "pts" }, el("abbr", { title: t("card.label.points") }, t("pairings.points_short"))),
        shown.map(([code]) => el("th", { scope: "col", class: "tb", dataset: { tb: code } }, el("abbr", { title: tbName(code) }, code)))));
    }
    const links = this.hasAttribute("links");
    const wanted = doc.rows.map((row) => {
      const opponents = row.rounds.map((c) => (c.opponent === null ? null : [rankOf(c.opponent), nameOf(c.opponent)]));
      const key = JSON.stringify([row, opponents]);
      const kept = this.rows.get(row.start_no);
      if (kept?.key === key) return kept.tr;
      const name = links
        ? el("a", { href: href(`/t/${config.tournament}/player/${row.start_no}`) }, row.name)
        : row.name;
      const tr = el("tr", { dataset: { startNo: row.start_no, rank: row.rank } },
        el("td", { class: "rank" }, row.rank),
        el("th", { scope: "row", class: "name" }, name),
        row.rounds.map((c) => el("td", {
          class: "rnd",
          title: cellTitle(c, rankOf, nameOf),
          dataset: {
            round: c.round, result: c.result, points: c.points, colour: c.colour ?? null,
            opponent: c.opponent ?? null, opponentRank: c.opponent === null ? null : rankOf(c.opponent),
          },
        }, cellText(c, rankOf))),
        el("td", { class: "pts" }, num(row.points)),
        shown.map(([code, i]) => el("td", { class: "tb", dataset: { tb: code, status: row.statuses[i] } }, num(row.values[i]))));
      this.rows.set(row.start_no, { key, tr });
      return tr;
    });
    const keep = new Set(wanted);
    for (const no of [...this.rows.keys()]) if (!keep.has(this.rows.get(no).tr)) this.rows.delete(no);
    wanted.forEach((tr, i) => {
      const at = this.body.children[i];
      if (at !== tr) this.body.insertBefore(tr, at ?? null);
    });
    while (this.body.children.length > wanted.length) this.body.lastElementChild.remove();
    const n = doc.rows.length;
    const said = doc.round_in_progress ? t("xt.status_running", { round: doc.round_in_progress, n })
      : doc.after_round ? t("xt.status", { round: doc.after_round, n }) : t("xt.status_none", { n });
    if (said !== this.said) this.status.textContent = this.said = said;
  }
}

customElements.define("cross-table", CrossTable);
