// codes.js: a page's ?columns= matched against the tournament's tie-breaks, in any notation the
// API accepts, as livetb/engine/spec.py reads them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "./pages.mjs";

// The engine's aliases and group tie-breaks, as the page's settings carry them.
const config = {
  tiebreak_aliases: { REP: "GE", POINTS: "PTS", RBT: "DE", HARK: "MED" },
  group_tiebreaks: ["DE", "EDE", "TBR", "BBE"],
};
const { familyOf, pickColumns, GROUP } = await load("codes.js", { config });
const MINE = ["PTS", "BH/C1", "BH", "SB", "KS/L+1", "DE", "AOB:GP"];

test("a code's family is its head, without modifiers or point type", () => {
  assert.equal(familyOf("BH/C1/M2"), "BH");
  assert.equal(familyOf("AOB:GP"), "AOB");
  assert.equal(familyOf("PTS"), "PTS");
});

test("the group tie-breaks come from the page's settings", () => {
  assert.deepEqual([...GROUP], ["DE", "EDE", "TBR", "BBE"]);
});

test("columns are picked in the order asked, whatever the notation", () => {
  const { picked, unknown } = pickColumns(["bh-c1", "PTS", " sb ", "BHC1"], MINE);
  assert.deepEqual(picked, [1, 0, 3]); // BHC1 is BH/C1 again: once
  assert.deepEqual(unknown, []);
});

test("modifiers match in any order and an alias reads as its code", () => {
  const mine = ["BH/C1/M1", "DE", "KS/L+1", "PTS"];
  assert.deepEqual(pickColumns(["BH/M1/C1", "RBT", "KS/L+1", "points"], mine).picked, [0, 1, 2, 3]);
});

test("a point type is part of the code", () => {
  assert.deepEqual(pickColumns(["AOB:GP", "AOB"], MINE), { picked: [6], unknown: ["AOB"] });
});

test("codes the tournament does not have are told apart, as asked", () => {
  const { picked, unknown } = pickColumns(["WIN", "BH/C2", "bh", "??"], MINE);
  assert.deepEqual(picked, [2]);
  assert.deepEqual(unknown, ["WIN", "BH/C2", "??"]);
});
