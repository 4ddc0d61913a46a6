// The running round's boards with their results, filling in live (standings page and screen),
// and, on the printed notice, each player's points before the round.
import { num, t } from "./i18n.js";
import { el, getJSON } from "./common.js";

import { resultText } from "./results.js";

/** A player as "Name (12)". */
function who(people, no) {
  const p = people(no);
  return `${p?.name ?? "?"} (${no})`;
}

/** The round's table: one `<tr data-board>` per board; `games` limits it to a slice. */
export function pairingsTable(round, people, games = round.games) {
  return el("table", { class: "pairings" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", class: "board" }, el("abbr", { title: t("pairings.board") }, t("pairings.board_short"))),
      el("th", { scope: "col" }, t("pairings.white")),
      el("th", { scope: "col", class: "result" }, t("pairings.result")),
      el("th", { scope: "col" }, t("pairings.black")))),
    el("tbody", {}, games.map((g) => el("tr", { dataset: { board: g.board, white: g.white, black: g.black } },
      el("td", { class: "board" }, g.board),
      el("td", { class: "white" }, who(people, g.white)),
      el("td", { class: "result", dataset: { done: Boolean(g.result) } }, resultText(g.result)),
      el("td", { class: "black" }, who(people, g.black))))));
}

/** The score the standings rank by: PTS, or a team's match or game points; else the first. */
function scoreIndex(tiebreaks) {
  const at = tiebreaks.findIndex((code) => /^(PTS|MPTS|GPTS)\b/.test(code));
  return at < 0 ? 0 : at;
}

/** Points before round `rnd`: the standings when round `rnd - 1` was closed (a time-travel
 *  read, so only the printed notice asks for it), start number -> value; round 1: all 0. */
export async function scoresBefore(tid, rnd, token) {
  if (rnd <= 1) return new Map();
  const doc = await getJSON(`/api/tournaments/${encodeURIComponent(tid)}/standings?after_round=${rnd - 1}`, token);
  const at = scoreIndex(doc.tiebreaks);
  return new Map(doc.standings.map((row) => [row.start_no, num(row.values[at])]));
}

/** Put each player's points before the round beside the name: a column after White and one
 *  after the result (for Black), in the table `pairingsTable` made. Players the earlier
 *  standings do not hold (nobody before round 1, a late entrant) have 0, written as the
 *  server writes a score (0.0). */
export function addScores(table, scores) {
  if (!table || table.querySelector("th.pts")) return;
  const head = () => el("th", { scope: "col", class: "pts" }, el("abbr", { title: t("pairings.points") }, t("pairings.points_short")));
  const headRow = table.tHead.rows[0];
  headRow.querySelector(".result").before(head());
  headRow.querySelector(".result").after(head());
  for (const tr of table.tBodies[0].rows) {
    const cell = (no) => el("td", { class: "pts" }, scores.get(Number(no)) ?? num("0.0"));
    tr.querySelector(".white").after(cell(tr.dataset.white));
    tr.querySelector(".result").after(cell(tr.dataset.black));
  }
}

/** Byes of the round, in words. */
export function byesList(round, people) {
  const items = [];
  for (const no of [round.bye, ...(round.more_byes ?? [])]) {
    if (no) items.push(`${who(people, no)}: ${t("pairings.pab")}`);
  }
  for (const b of round.requested_byes) {
    items.push(`${who(people, b.start_no)}: ${t("pairings.requested", { points: t(`bye.${b.points}`) })}`);
  }
  return items.length ? el("ul", { class: "byes", "aria-label": t("pairings.bye") }, items.map((x) => el("li", {}, x))) : null;
}

/** "12 of 20 games finished". */
export function progress(round) {
  return t("pairings.done", { done: round.games.filter((g) => g.result).length, total: round.games.length });
}

/** Write a finished game's result into an open table. */
export function updateGame(table, board, result) {
  const cell = table?.querySelector(`tr[data-board="${board}"] .result`);
  if (!cell) return;
  cell.textContent = resultText(result);
  cell.dataset.done = Boolean(result);
  cell.classList.remove("fresh");
  void cell.offsetWidth;
  cell.classList.add("fresh");
}
