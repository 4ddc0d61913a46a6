// common.js: the broadcast delay in words, as every public page's badge says it ("delayed
// 15 min", not "live"), in both languages.
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./pages.mjs";

const en = await load("common.js", { lang: "en" });
const it = await load("common.js", { lang: "it" });

test("a delay of whole minutes, or of ten minutes and more, is said in minutes", () => {
  assert.equal(en.delayText(900), "delayed 15 min");
  assert.equal(en.delayText(60), "delayed 1 min");
  assert.equal(en.delayText(3600), "delayed 60 min");
  assert.equal(en.delayText(630), "delayed 11 min"); // rounded, from 10 min on
  assert.equal(it.delayText(900), "in differita di 15 min");
});

test("a shorter delay that is not whole minutes is said in seconds", () => {
  assert.equal(en.delayText(5), "delayed 5 s");
  assert.equal(en.delayText(90), "delayed 90 s"); // not "2 min"
  assert.equal(it.delayText(90), "in differita di 90 s");
});

// send(): a write the server may or may not have made (no answer) is sent again with its
// idempotency key, so that it is made once; a read or a preview without an answer made nothing.
function fakeServer(answers) {
  const seen = [];
  globalThis.fetch = async (url, init) => {
    seen.push({ url, method: init.method, key: init.headers["Idempotency-Key"] });
    const next = answers.shift();
    if (next === "drop") throw new TypeError("Failed to fetch");
    return { ok: true, status: 201, json: async () => next };
  };
  return seen;
}

test("a write with no answer is sent again with its key, and says it may have been written", async () => {
  const seen = fakeServer(["drop", { seq: 7 }, { seq: 8 }]);
  const path = "/api/tournaments/t/rounds/1/results";
  const lost = await en.send("POST", path, "tok", { board: 3, result: "1-0" });
  assert.equal(lost.body.code, "unanswered");
  assert.match(en.problem(lost), /^No answer from the server: this may have been written or not\./);
  const again = await en.send("POST", path, "tok", { board: 3, result: "1-0" });
  assert.equal(again.body.seq, 7);
  assert.equal(seen[1].key, seen[0].key); // the same write: the server makes it once
  await en.send("POST", path, "tok", { board: 3, result: "1-0" }); // answered: a new write
  assert.notEqual(seen[2].key, seen[0].key);
});

test("another write after one with no answer has a key of its own", async () => {
  const seen = fakeServer(["drop", { seq: 9 }]);
  const path = "/api/tournaments/t/rounds/1/results";
  await en.send("POST", path, "tok", { board: 4, result: "1-0" });
  await en.send("POST", path, "tok", { board: 4, result: "0-1" });
  assert.notEqual(seen[1].key, seen[0].key);
});

test("a preview or a read with no answer wrote nothing and says so", async () => {
  const seen = fakeServer(["drop", "drop"]);
  const preview = await en.send("POST", "/api/tournaments/t/sync?file=a.trf", "tok", undefined, { text: "x", dryRun: true });
  assert.equal(seen[0].url, "/api/tournaments/t/sync?file=a.trf&dry_run=1");
  assert.equal(preview.body.code, "network");
  assert.equal(en.problem(preview), "The server cannot be reached: nothing was written. Try again.");
  const read = await it.send("GET", "/api/tournaments/t/audit?limit=1", "tok");
  assert.equal(it.problem(read), "Il server non è raggiungibile: non è stato scritto nulla. Riprova.");
});

// problem(): a refused TRF's issues are worded from the catalog keys the server sends with
// each one (`expected_key`, `found_key`), the English fields being the fallback.
test("a refused TRF's issues are said in the page's language", () => {
  const issue = {
    line: 13, columns: [99, 99], where: "001 #2, round 1 result", found: "Q",
    expected: "one of 1 = 0 W D L + - H F U Z or blank",
    where_key: "trf.where.player_round_result", where_params: { no: 2, round: 1 },
    found_key: null, found_params: {}, expected_key: "trf.expected.result", expected_params: {},
  };
  const refused = { ok: false, status: 422, body: { code: "trf_invalid", message: "…", issues: [issue] } };
  assert.equal(it.problem(refused),
    "Il TRF è stato rifiutato, non è stato scritto nulla: riga 13, colonne 99–99: trovato Q, " +
    "atteso uno tra 1 = 0 W D L + - H F U Z o spazio");
  assert.equal(en.problem(refused),
    "The TRF was refused, nothing was written: line 13, columns 99–99: found Q, " +
    "expected one of 1 = 0 W D L + - H F U Z or blank");
  const older = { line: 1, columns: null, where: "001 records", found: "no 001 line", expected: "at least one player record" };
  assert.equal(it.issuePart(older, "expected"), "at least one player record"); // no key: as sent
  const worded = { ...older, found_key: "trf.found.no_players", found_params: {}, where_key: "trf.where.records", where_params: { tag: "001" } };
  assert.equal(it.issuePart(worded, "found"), "nessuna riga 001");
  assert.equal(it.issuePart(worded, "where"), "record 001");
});

// problem(): a refusal the server words from the catalogs sends `said` (its key and values);
// the page words it in its own language, a nested message too, the English being the fallback.
test("a refusal with said is worded in the page's language", () => {
  const said = { key: "tiebreak.unknown", params: { code: "'XYZ'", known: "BH, PTS" } };
  const message = "unknown tie-break 'XYZ'; known: BH, PTS";
  const refused = { ok: false, status: 422, body: { code: "tiebreak_unknown", message, said } };
  assert.equal(it.problem(refused),
    "L'elenco degli spareggi non è valido: spareggio sconosciuto 'XYZ'; quelli noti: BH, PTS");
  assert.equal(en.problem(refused), `The tie-break list is not valid: ${message}`);
  const older = { ...refused, body: { ...refused.body, said: undefined } }; // the English as sent
  assert.equal(it.problem(older), `L'elenco degli spareggi non è valido: ${message}`);
  const none = { key: "category.none_defined", params: {} };
  const unknown = { key: "category.unknown", params: { code: "'U9'", defined: none } };
  const missing = { ok: false, status: 404, body: { code: "not_found", message: "…", said: unknown } };
  assert.equal(it.problem(missing), "Rifiutato: categoria 'U9': non esiste (definite: nessuna è definita)");
});

test("a TRF issue's values may be messages of their own", () => {
  const issue = {
    line: 4, columns: [89, 92], where: "XXS", found: "ZZ", expected: "…",
    where_key: null, where_params: {}, found_key: null, found_params: {},
    expected_key: "trf.expected.tiebreak",
    expected_params: { reason: { key: "tiebreak.unknown", params: { code: "'ZZ'", known: "BH, PTS" } } },
  };
  const refused = { ok: false, status: 422, body: { code: "trf_invalid", message: "…", issues: [issue] } };
  assert.equal(it.problem(refused),
    "Il TRF è stato rifiutato, non è stato scritto nulla: riga 4, colonne 89–92: trovato ZZ, " +
    "atteso uno spareggio che livetb calcola (spareggio sconosciuto 'ZZ'; quelli noti: BH, PTS)");
  assert.equal(en.issuePart(issue, "expected"),
    "a tie-break livetb computes (unknown tie-break 'ZZ'; known: BH, PTS)");
});

test("several messages in one value are worded one by one", () => {
  const line = (n, found) => ({ key: "input.engine.line", params: { line: n, problem: { key: "input.engine.not_a_pair", params: { found } } } });
  const said = { key: "input.engine.output", params: { problems: [line(2, "'x'"), line(3, "'y'")] } };
  const refused = { ok: false, status: 422, body: { code: "invalid_input", message: "…", said } };
  assert.equal(it.problem(refused),
    "Il server ha rifiutato i dati: output del motore di abbinamento: " +
    "riga 2: trovato 'x'; atteso `bianco nero`, ad es. `12 5`; riga 3: trovato 'y'; atteso `bianco nero`, ad es. `12 5`");
});

test("a decimal in a message takes the language's separator", () => {
  const said = { key: "input.prizes.finer", params: { amount: { num: "12.345" }, unit: { num: "0.01" }, currency: "EUR" } };
  const body = { code: "invalid_input", message: "amount 12.345: finer than 0.01 EUR", said };
  assert.equal(it.serverWords(body), "importo 12,345: non è un multiplo di 0,01 EUR");
  assert.equal(en.serverWords(body), "amount 12.345: finer than 0.01 EUR");
});
