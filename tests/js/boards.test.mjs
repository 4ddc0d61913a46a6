// Where a participant sits in a round (pairings.js) and a crosstable cell as the page writes it
// (cross-table.js), in both languages.
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./pages.mjs";

// cross-table.js defines its element when it loads: stand-ins for the two browser names.
globalThis.HTMLElement ??= class {};
globalThis.customElements ??= { define() {} };

const en = await load("pairings.js", { lang: "en" });
const it = await load("pairings.js", { lang: "it" });
const xtEn = await load("cross-table.js", { lang: "en" });
const xtIt = await load("cross-table.js", { lang: "it" });

const round = {
  round: 3,
  games: [{ board: 1, white: 1, black: 3, result: "1-0" }, { board: 2, white: 5, black: 2, result: null }],
  bye: 9,
  more_byes: [13],
  requested_byes: [{ start_no: 8, points: "half" }],
};

test("a participant's seat: a board with colour and opponent, a bye, or none", () => {
  assert.deepEqual(en.seatOf(round, 2), { board: 2, colour: "b", opponent: 5, result: null });
  assert.deepEqual(en.seatOf(round, 1), { board: 1, colour: "w", opponent: 3, result: "1-0" });
  assert.deepEqual(en.seatOf(round, 9), { bye: "pab" });
  assert.deepEqual(en.seatOf(round, 13), { bye: "pab" });
  assert.deepEqual(en.seatOf(round, 8), { bye: "requested", points: "half" });
  assert.deepEqual(en.seatOf(round, 10), { absent: true });
});

test("no board, in words", () => {
  assert.equal(en.noBoardText({ bye: "pab" }), "pairing-allocated bye");
  assert.equal(en.noBoardText({ bye: "requested", points: "full" }), "requested bye (full point)");
  assert.equal(en.noBoardText({ absent: true }), "not paired (absent)");
  assert.equal(en.noBoardText({ absent: true }, true), "withdrawn");
  assert.equal(it.noBoardText({ bye: "requested", points: "half" }), "bye richiesto (mezzo punto)");
  assert.equal(it.noBoardText({ absent: true }), "non abbinato (assente)");
});

test("points as a crosstable writes them", () => {
  assert.deepEqual(["1.0", "0.5", "0.0", "1.5", "3", "2.50"].map(xtEn.score), ["1", "½", "0", "1½", "3", "2½"]);
  assert.equal(xtIt.score("0.25"), "0,25");
});

test("a crosstable cell: the opponent's rank, the colour, the points or the forfeit", () => {
  const ranks = new Map([[5, 12], [7, 3]]);
  const rankOf = (no) => ranks.get(no);
  const cell = (opponent, colour, result, points) => ({ round: 1, opponent, colour, result, points });
  assert.equal(xtEn.cellText(cell(5, "w", "1", "1.0"), rankOf), "12w1");
  assert.equal(xtEn.cellText(cell(5, "b", "=", "0.5"), rankOf), "12b½");
  assert.equal(xtEn.cellText(cell(7, "w", "+", "1.0"), rankOf), "3w+");
  assert.equal(xtEn.cellText(cell(7, "b", "-", "0.0"), rankOf), "3b−");
  assert.equal(xtEn.cellText(cell(7, "b", "*", "0.0"), rankOf), "3b*");
  assert.equal(xtEn.cellText(cell(null, null, "U", "1.0"), rankOf), "bye 1");
  assert.equal(xtEn.cellText(cell(null, null, "H", "0.5"), rankOf), "bye ½");
  assert.equal(xtEn.cellText(cell(null, null, "Z", "0.0"), rankOf), "–");
  assert.equal(xtIt.cellText(cell(5, "w", "1", "1.0"), rankOf), "12b1");
  assert.equal(xtIt.cellText(cell(5, "b", "0", "0.0"), rankOf), "12n0");
});
