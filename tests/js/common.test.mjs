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
