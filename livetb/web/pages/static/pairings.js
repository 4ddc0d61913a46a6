// The running round's boards with their results, filling in live (standings page and screen).
import { t } from "./i18n.js";
import { el } from "./common.js";

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
    el("tbody", {}, games.map((g) => el("tr", { dataset: { board: g.board } },
      el("td", { class: "board" }, g.board),
      el("td", { class: "white" }, who(people, g.white)),
      el("td", { class: "result", dataset: { done: Boolean(g.result) } }, resultText(g.result)),
      el("td", { class: "black" }, who(people, g.black))))));
}

/** Byes of the round, in words. */
export function byesList(round, people) {
  const items = [];
  if (round.bye) items.push(`${who(people, round.bye)}: ${t("pairings.pab")}`);
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
