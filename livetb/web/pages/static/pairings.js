// The running round's boards with their results, filling in live (standings page and screen),
// and, on the printed notice, each player's points before the round; the round by name (every
// participant, a board or why none), and where one participant sits (the card, the search).
import { lang, num, t } from "./i18n.js";
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
    if (no) items.push([no, `${who(people, no)}: ${t("pairings.pab")}`]);
  }
  for (const b of round.requested_byes) {
    items.push([b.start_no, `${who(people, b.start_no)}: ${t("pairings.requested", { points: t(`bye.${b.points}`) })}`]);
  }
  return items.length
    ? el("ul", { class: "byes", "aria-label": t("pairings.bye") },
      items.map(([no, text]) => el("li", { dataset: { startNo: no } }, text)))
    : null;
}

/** Where participant `no` is in `round`: at a board ({ board, colour, opponent, result }), on
 *  the pairing-allocated bye ({ bye: "pab" }), on a requested bye ({ bye: "requested",
 *  points: "half" | "full" | "zero" }), or in none of them ({ absent: true }). */
export function seatOf(round, no) {
  const game = round.games.find((g) => g.white === no || g.black === no);
  if (game) {
    const white = game.white === no;
    return { board: game.board, colour: white ? "w" : "b", opponent: white ? game.black : game.white, result: game.result };
  }
  if (round.bye === no || (round.more_byes ?? []).includes(no)) return { bye: "pab" };
  const asked = round.requested_byes.find((b) => b.start_no === no);
  if (asked) return { bye: "requested", points: asked.points };
  return { absent: true };
}

/** Why a participant has no board in a round, in words. */
export function noBoardText(seat, withdrawn = false) {
  if (seat.bye === "pab") return t("pairings.pab");
  if (seat.bye === "requested") return t("pairings.requested", { points: t(`bye.${seat.points}`) });
  return t(withdrawn ? "pairings.withdrawn" : "pairings.absent");
}

/** The round for the notice board in alphabetical order of players: every participant in
 *  `participants` (start_no, name, withdrawn_from), with its board, colour and opponent, or
 *  why it has none. One `<tr data-start-no>` a participant, `data-board` on those at a board. */
export function namesTable(round, people, participants) {
  // By surname, then given names ("Adams, Ana" before "Adams-Berg, Ivan"), as the language
  // sorts them (accents beside their letter: "Ábrahám" among the A's).
  const collator = new Intl.Collator(lang, { sensitivity: "base", numeric: true });
  const parts = (name) => { const at = name.indexOf(","); return at < 0 ? [name, ""] : [name.slice(0, at), name.slice(at + 1)]; };
  const keyed = participants.map((p) => ({ p, key: parts(p.name.trim()) }));
  keyed.sort((a, b) => collator.compare(a.key[0], b.key[0]) || collator.compare(a.key[1], b.key[1]) || a.p.start_no - b.p.start_no);
  const sorted = keyed.map((x) => x.p);
  const row = (p) => {
    const seat = seatOf(round, p.start_no);
    const name = el("th", { scope: "row", class: "name" }, who(people, p.start_no));
    if (seat.board === undefined) {
      const out = p.withdrawn_from !== null && p.withdrawn_from !== undefined && p.withdrawn_from <= round.round;
      return el("tr", { dataset: { startNo: p.start_no, bye: seat.bye ?? "absent" } },
        name, el("td", { class: "none", colspan: 3 }, noBoardText(seat, out)));
    }
    return el("tr", { dataset: { startNo: p.start_no, board: seat.board, colour: seat.colour } },
      name,
      el("td", { class: "board" }, seat.board),
      el("td", { class: "colour" }, t(`colour.${seat.colour}`)),
      el("td", { class: "opponent" }, who(people, seat.opponent)));
  };
  return el("table", { class: "pairings by-name" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("pairings.player")),
      el("th", { scope: "col", class: "board" }, el("abbr", { title: t("pairings.board") }, t("pairings.board_short"))),
      el("th", { scope: "col" }, t("card.colour")),
      el("th", { scope: "col" }, t("card.opponent")))),
    el("tbody", {}, sorted.map(row)));
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
