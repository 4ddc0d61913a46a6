// words.js: the engine's explanations, money, ranks and rating changes in the page's language.
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./pages.mjs";

const en = await load("words.js", { lang: "en" });
const it = await load("words.js", { lang: "it" });

test("ordinals follow each language's plural rules", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map(en.ordinal),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]);
  assert.deepEqual([1, 3, 23].map(it.ordinal), ["1º", "3º", "23º"]);
});

test("money is the exact decimal, without cents when whole unless asked", () => {
  assert.equal(en.money("80.00", "EUR"), "€80");
  assert.equal(en.money("80.50", "EUR"), "€80.50");
  assert.equal(en.money("80", "EUR", { cents: true }), "€80.00");
  assert.equal(it.money("80.50", "EUR"), "80,50\u00a0€");
  assert.equal(it.money("1000", "EUR"), "1000\u00a0€");
  // 0.1 + 0.2 in floating point is 0.30000000000000004: a string stays what it says.
  assert.equal(en.money("12345678901234567.35", "USD"), "$12,345,678,901,234,567.35");
});

test("a currency that is not an ISO code is written after the number", () => {
  assert.equal(en.money("5", "points"), "5 points");
  assert.equal(en.money("5.5", "points"), "5.50 points");
  assert.equal(it.money("5.5", "punti"), "5,50 punti");
});

test("exact decimals compare without floating point", () => {
  assert.equal(en.compareDecimal("0.30", "0.3"), 0);
  assert.equal(en.compareDecimal("-3.6", "0"), -1);
  assert.equal(en.compareDecimal("10.05", "10.5"), -1);
  assert.equal(en.compareDecimal("99999999999999999.01", "99999999999999999.00"), 1);
  assert.equal(en.compareDecimal("-0.5", "-1.25"), 1);
});

test("a rating change is signed for reading, with the language's decimal comma", () => {
  assert.deepEqual(["7.2", "-3.6", "0.0"].map(en.signed), ["+7.2", "\u22123.6", "0.0"]);
  assert.deepEqual(["7.2", "-3.6"].map(it.signed), ["+7,2", "\u22123,6"]);
});

test("a broadcast delay in minutes and seconds", () => {
  assert.deepEqual([900, 90, 45, 60].map(en.delaySpan), ["15 min", "1 min 30 s", "45 s", "1 min"]);
});

test("lists read as a sentence", () => {
  assert.equal(en.listing([]), "");
  assert.equal(en.listing(["A"]), "A");
  assert.equal(en.listing(["A", "B", "C"]), "A, B and C");
  assert.equal(it.listing(["A", "B"]), "A e B");
});

test("an explanation's source in words from the catalog, a known opponent by name", () => {
  const who = (no) => (no === 7 ? "Rossi, Anna" : null);
  assert.equal(en.sourceText({ kind: "opponent", no: 7 }, who), "Rossi, Anna (start no. 7)");
  assert.equal(en.sourceText({ kind: "opponent", no: 8 }, who), "opponent 8");
  assert.equal(it.sourceText({ kind: "opponent", no: 8 }), "avversario 8");
  assert.equal(en.sourceText({ kind: "opponent_value", no: 7, code: "BH" }, who), "BH of Rossi, Anna (start no. 7)");
  assert.equal(en.sourceText({ kind: "result", outcome: "half_bye" }), "half-point bye");
  assert.equal(it.sourceText({ kind: "own_unplayed_capped", outcome: "zero_bye" }),
    "proprio turno non giocato (bye da zero punti), con tetto");
  // Nested and listed fields, numbers with the language's decimal separator.
  const product = { kind: "product", of: { kind: "opponent", no: 5 }, score: "7", scored: "3.0" };
  assert.equal(it.sourceText(product), "avversario 5: 7 × 3,0");
  assert.equal(en.sourceText({ kind: "board_products", boards: [[1, "0.0"], [2, "1.5"]] }),
    "board × game points: 1 × 0.0 + 2 × 1.5");
  // A kind the catalog does not know is an error, never English shown as it came.
  assert.throws(() => en.sourceText({ kind: "something_new" }), /no message explain.something_new/);
});

test("a cut's reason in words; none when the part counts", () => {
  assert.equal(en.cutText("voluntary"), "cut first: own voluntarily unplayed round");
  assert.equal(it.cutText("below_limit"), "tagliato: avversario sotto il limite Koya");
  assert.equal(en.cutText(null), "");
});

const option = (result, worst, best, worstPrizes = [], bestPrizes = []) => ({
  result, worst, best, worst_prizes: worstPrizes, best_prizes: bestPrizes,
});

test("the last round's prize sentence: the weakest result that guarantees, the best reach", () => {
  const u1800 = { list: "U1800", place: 2 };
  const third = { list: "main", place: 3 };
  const options = [
    option("loss", "0", "80", [], [u1800]),
    option("draw", "80", "80", [u1800], [u1800]),
    option("win", "80", "200", [u1800], [third]),
  ];
  assert.equal(en.prizeSentence(options, "EUR"),
    "A draw guarantees at least the U1800 2nd prize (€80); a win can reach the 3rd overall (€200)");
  assert.equal(it.prizeSentence(options, "EUR"),
    "Con una patta ti assicuri almeno il 2º premio U1800 (80\u00a0€); con una vittoria puoi " +
    "ottenere il 3º premio assoluto (200\u00a0€)");
});

test("no sentence when no prize is open; a reach alone when nothing is sure", () => {
  assert.equal(en.prizeSentence([option("win", "0", "0"), option("loss", "0", "0")], "EUR"), null);
  const reach = [option("loss", "0", "0"), option("win", "0", "50", [], [{ list: "main", place: 5 }])];
  assert.equal(en.prizeSentence(reach, "EUR"), "A win can reach the 5th overall (€50)");
});
