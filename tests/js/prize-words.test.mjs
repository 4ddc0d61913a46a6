// words.js's prize phrases as the card writes its outlook: a share names the places it shares,
// and a best that is only a bound (`exact: false`) is said as what a result pays at most.
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./pages.mjs";

const en = await load("words.js", { lang: "en" });
const it = await load("words.js", { lang: "it" });

const ref = (list, place, amount, places = [place, place], shared = 1) => ({ list, place, amount, places, shared });
const option = (result, worst, best, worstPrizes, bestPrizes, exact = true) => ({
  result, worst, best, worst_prizes: worstPrizes, best_prizes: bestPrizes, exact,
});

test("a prize taken alone by its place, a share by the places it shares", () => {
  assert.equal(en.prizeRef(ref("main", 3, "200.00")), "the 3rd overall");
  assert.equal(en.prizeRef(ref("U1800", 1, "50.00")), "the U1800 1st prize");
  assert.equal(en.prizeRef(ref("main", 1, "50.00", [1, 4], 4)), "the 1st–4th overall shared by 4");
  assert.equal(en.prizeRef(ref("U1800", 2, "40.00", [2, 3], 2)), "the U1800 2nd–3rd prizes shared by 2");
  assert.equal(it.prizeRef(ref("main", 1, "50.00", [1, 4], 4)), "il premio assoluto 1º–4º diviso fra 4");
});

test("an exact best can be reached; a bound is what the result pays at most", () => {
  const shared = [ref("main", 1, "80.00", [1, 2], 2)];
  const four = [ref("main", 1, "50.00", [1, 4], 4)];
  const exact = [option("loss", "0.00", "0.00", [], []), option("win", "50.00", "80.00", four, shared)];
  assert.equal(en.prizeSentence(exact, "EUR"),
    "A win guarantees at least the 1st–4th overall shared by 4 (€50) and can reach the 1st–2nd overall shared by 2 (€80)");
  const first = [ref("main", 1, "100.00")];
  const bounds = [option("loss", "0.00", "0.00", [], []), option("win", "0.00", "100.00", [], first, false)];
  assert.equal(en.prizeSentence(bounds, "EUR"), "A win pays at most the 1st overall (€100)");
  assert.equal(it.prizeSentence(bounds, "EUR"), "Con una vittoria ottieni al massimo il 1º premio assoluto (100\u00a0€)");
  const both = [option("draw", "40.00", "40.00", [ref("main", 3, "40.00")], [ref("main", 3, "40.00")]),
    option("win", "40.00", "100.00", [ref("main", 3, "40.00")], first, false)];
  assert.equal(en.prizeSentence(both, "EUR"),
    "A draw guarantees at least the 3rd overall (€40); a win pays at most the 1st overall (€100)");
});
