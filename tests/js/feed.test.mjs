// feed.js: the standings a page keeps from the feed's messages (wire v2), and the connection's
// timing with a fake socket and fake clocks: when a silent server is given up, how soon a
// returning one is tried again. (The browser tests see the same through a real server, with
// the generous timeouts of a loaded machine: these numbers are checked here.)
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

import { load } from "./pages.mjs";

const { Standings, follow } = await load("feed.js");

const row = (no, rank, points) => ({
  start_no: no, rank, name: `P${no}`, values: [points], statuses: ["provisional"],
});

function snapshot(seq, rows, extra = {}) {
  return {
    type: "snapshot",
    standings: { seq, after_round: 0, round_in_progress: 1, tiebreaks: ["PTS"], standings: rows },
    round: { round: 1, games: [{ board: 1, result: null }, { board: 2, result: null }] },
    ...extra,
  };
}

test("a snapshot gives the rows, the order and the shared ranks", () => {
  const model = new Standings(false);
  model.snapshot(snapshot(4, [row(1, 1, "0"), row(2, 1, "0"), row(3, 3, "0")]));
  assert.equal(model.doc.seq, 4);
  assert.deepEqual(model.order, [1, 2, 3]);
  assert.deepEqual([...model.shares], [2]);
  assert.equal(model.prizes, null);
});

test("a delta changes cells, moves rows, reranks from the ties and fills in a game", () => {
  const model = new Standings(false);
  model.snapshot(snapshot(4, [row(1, 1, "0"), row(2, 1, "0"), row(3, 1, "0")]));
  model.shares = new Set([2, 3]);
  const changes = model.delta({
    type: "delta", seq: 5, after_round: 0, round_in_progress: 1,
    rows: [{ start_no: 3, cells: [[0, "1"]] }],
    moves: [[3, 0]], untied: [3], // 3 alone ahead; 2 still shares 1's rank, now 2nd
    games: [[1, 2, "0-1"]],
  });
  assert.equal(model.doc.seq, 5);
  assert.deepEqual(model.order, [3, 1, 2]);
  assert.deepEqual(model.sorted().map((r) => [r.start_no, r.rank, r.values[0]]),
    [[3, 1, "1"], [1, 2, "0"], [2, 2, "0"]]);
  assert.deepEqual([...changes.changed], [3]);
  assert.deepEqual([...changes.moved], [[1, [1, 2]], [2, [1, 2]]]);
  assert.equal(model.round.games[1].result, "0-1");
  assert.deepEqual(changes.games, [[1, 2, "0-1"]]);
});

test("a filtered view takes its ranks from the delta and drops the rows that left", () => {
  const model = new Standings(true);
  model.snapshot(snapshot(9, [row(1, 1, "1"), row(2, 2, "1")]));
  model.delta({
    type: "delta", seq: 10, after_round: 1, round_in_progress: null,
    rows: [{ start_no: 8, name: "P8", cells: [[0, "1.5"]] }], drop: [2], ranks: [[8, 1], [1, 2]],
  });
  assert.deepEqual(model.sorted().map((r) => [r.start_no, r.rank]), [[8, 1], [1, 2]]);
  assert.equal(model.round.closed, true); // round 1 is closed once after_round reaches it
});

test("a setting's delta (the broadcast delay's own event) changes nothing a page shows", () => {
  // What boot.js reads the settings again on: a public feed says nothing else of a delay.
  const model = new Standings(false);
  model.snapshot(snapshot(4, [row(1, 1, "0"), row(2, 1, "0")]));
  const change = model.delta({ type: "delta", seq: 5, after_round: 0, round_in_progress: 1 });
  assert.equal(model.doc.seq, 5);
  assert.deepEqual(change, { changed: new Set(), moved: new Map(), games: [], round: false, prizes: false });
  const result = model.delta({
    type: "delta", seq: 6, after_round: 0, round_in_progress: 1, games: [[1, 1, "1-0"]],
    rows: [{ start_no: 1, cells: [[0, "1"]] }],
  });
  assert.ok(result.changed.size && result.games.length); // a result is no setting
});

test("the kept standings are a snapshot again, for an offline reopen", () => {
  const model = new Standings(false);
  model.snapshot(snapshot(4, [row(1, 1, "0"), row(2, 1, "0")], { prizes: { lists: [] } }));
  const again = new Standings(false);
  again.snapshot(model.message());
  assert.deepEqual(again.sorted(), model.sorted());
  assert.deepEqual(again.doc, model.doc);
  assert.deepEqual(again.prizes, { lists: [] });
});

// --- the connection ------------------------------------------------------------------------

class FakeSocket {
  static made = [];

  constructor(url, protocols) {
    this.url = url;
    this.protocols = protocols;
    this.closed = false;
    FakeSocket.made.push(this);
  }

  close() {
    this.closed = true;
  }

  open() {
    this.onopen?.();
  }

  say(msg) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }

  drop() {
    this.onclose?.();
  }
}

let states;
let stop;

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"], now: 1_000_000 });
  FakeSocket.made = [];
  states = [];
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "http:", host: "venue.local:8080" };
  Object.defineProperty(globalThis, "navigator", { value: { onLine: true }, configurable: true });
  globalThis.addEventListener = () => {};
  globalThis.removeEventListener = () => {};
});

afterEach(() => {
  stop?.();
  mock.timers.reset();
});

const last = () => FakeSocket.made.at(-1);
const state = () => states.at(-1);

function live(heartbeat) {
  stop = follow("club", { heartbeat }, { state: (s) => states.push(s) });
  last().open();
  last().say(snapshot(1, [row(1, 1, "0")]));
  assert.equal(state(), "live");
}

test("a silent server is given up 2 heartbeats and 1.5 s after its last word", () => {
  live(3); // the server's default ping interval
  mock.timers.tick(7000);
  assert.equal(state(), "live");
  assert.equal(FakeSocket.made.length, 1);
  mock.timers.tick(1000); // the watchdog looks every 500 ms: past 7.5 s, gone
  assert.notEqual(state(), "live");
  assert.equal(FakeSocket.made[0].closed, true);
  assert.equal(FakeSocket.made.length, 2); // and tried again at once
});

test("a ping keeps a quiet feed live", () => {
  live(3);
  for (let i = 0; i < 10; i += 1) {
    mock.timers.tick(3000);
    last().say({ type: "ping" });
  }
  assert.equal(state(), "live");
  assert.equal(FakeSocket.made.length, 1);
});

test("a server that stays away is tried at least every 1.75 s, however long", () => {
  live(3);
  const gaps = [];
  let at = Date.now();
  last().drop();
  for (let tries = 0; tries < 12; tries += 1) {
    const made = FakeSocket.made.length;
    while (FakeSocket.made.length === made) mock.timers.tick(50);
    gaps.push(Date.now() - at);
    at = Date.now();
    last().drop();
  }
  assert.ok(Math.max(...gaps) <= 1750, gaps); // RETRY_MOST and its jitter
  assert.ok(gaps.at(-1) >= 1500, gaps); // backed off to the most
});

/** Time passing while the server refuses every connection. */
function refusing(ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const made = FakeSocket.made.length;
    mock.timers.tick(50);
    if (FakeSocket.made.length > made) last().drop();
  }
}

test("a returning server's resumed socket asks from the last seq and is live once caught up", () => {
  live(3);
  last().drop();
  refusing(19_500);
  assert.equal(state(), "reconnecting"); // not yet 20 s away: not "offline"
  refusing(1000);
  assert.equal(state(), "offline");
  const made = FakeSocket.made.length;
  mock.timers.tick(1750); // the server is back: tried within RETRY_MOST and its jitter
  assert.ok(FakeSocket.made.length > made);
  assert.match(last().url, /^ws:\/\/venue\.local:8080\/ws\?tournament=club&since=1$/);
  last().open();
  assert.equal(state(), "offline"); // open, but what was missed has not arrived yet
  last().say({ type: "ping" }); // the server's word that the missed deltas are all sent
  assert.equal(state(), "live");
});

test("a resume's missed deltas are shown as they come, and the page is live after the last", () => {
  const shown = [];
  stop = follow("club", { heartbeat: 3 }, {
    state: (s) => states.push(s),
    delta: (m) => shown.push(m.doc.seq),
  });
  last().open();
  last().say(snapshot(1, [row(1, 1, "0"), row(2, 1, "0")]));
  last().drop();
  mock.timers.tick(2000);
  assert.match(last().url, /since=1$/);
  last().open();
  assert.equal(state(), "reconnecting");
  const won = (seq) => ({
    type: "delta", seq, after_round: 0, round_in_progress: 1, rows: [{ start_no: 1, cells: [[0, String(seq - 1)]] }],
  });
  last().say(won(2)); // a slow phone: the backlog arrives a frame at a time
  mock.timers.tick(1000);
  last().say(won(3));
  assert.deepEqual(shown, [2, 3]);
  assert.equal(state(), "reconnecting"); // seq 3 shown, the server may be further on
  last().say({ type: "ping" });
  assert.equal(state(), "live");
  last().say(won(4)); // then every delta as it comes
  assert.deepEqual(shown, [2, 3, 4]);
  assert.equal(state(), "live");
});

test("a resume whose backlog takes longer than the offline delay says reconnecting, not offline", () => {
  stop = follow("club", { heartbeat: 3 }, { state: (s) => states.push(s), delta: () => {} });
  last().open();
  last().say(snapshot(1, [row(1, 1, "0")]));
  last().drop();
  mock.timers.tick(2000);
  last().open();
  for (let seq = 2; seq <= 26; seq += 1) { // a frame a second: 25 s, a very slow phone
    mock.timers.tick(1000);
    last().say({ type: "delta", seq, after_round: 0, round_in_progress: 1 });
    assert.equal(state(), "reconnecting", `at seq ${seq}`);
  }
  assert.equal(FakeSocket.made.length, 2); // the same socket throughout
  last().say({ type: "ping" });
  assert.equal(state(), "live");
});

test("the standings are kept from every delta, whoever listens", () => {
  live(3); // a state handler alone
  for (const seq of [2, 3]) last().say({ type: "delta", seq, after_round: 0, round_in_progress: 1 });
  assert.equal(FakeSocket.made.length, 1); // no gap seen
  last().drop();
  mock.timers.tick(2000);
  assert.match(last().url, /since=3$/);
});

test("a gap in the seqs resumes at once from the last seq held", () => {
  live(3);
  last().say({ type: "delta", seq: 3, after_round: 0, round_in_progress: 1 });
  mock.timers.tick(0);
  assert.equal(FakeSocket.made.length, 2);
  assert.match(last().url, /since=1$/);
});

test("a resume answered by a node behind the page never shows its older standings", () => {
  const model = new Standings(false);
  const shown = [];
  stop = follow("club", { heartbeat: 3, model }, {
    state: (s) => states.push(s),
    snapshot: (m) => shown.push(["snapshot", m.doc.seq, m.sorted().map((r) => r.values[0])]),
    delta: (m) => shown.push(["delta", m.doc.seq, m.sorted().map((r) => r.values[0])]),
  });
  const won = (seq, no, points, at) => ({
    type: "delta", seq, after_round: 0, round_in_progress: 1,
    rows: [{ start_no: no, cells: [[0, points]] }], moves: [[no, at]], untied: [no],
  });
  const older = () => snapshot(4, [row(1, 1, "0"), row(2, 1, "0")], { prizes: { seq: 4 } });
  last().open();
  last().say(older());
  last().say(won(5, 2, "1", 0));
  last().say({ type: "prizes", prizes: { seq: 5 } });
  last().say(won(6, 1, "1", 1));
  last().drop();
  mock.timers.tick(2000);
  assert.match(last().url, /since=6$/);
  last().open();
  last().say(older()); // this node is still at seq 4
  last().say(won(5, 2, "1", 0));
  last().say({ type: "ping" });
  assert.equal(model.doc.seq, 6);
  assert.equal(shown.length, 4); // nothing shown from the node behind
  assert.notEqual(state(), "live"); // the page's newer standings are not being kept up
  last().say(won(6, 1, "1", 1)); // it caught up: its copy is shown, the newer prizes kept
  assert.equal(state(), "live");
  last().say(won(7, 1, "2", 0));
  assert.deepEqual(shown, [
    ["snapshot", 4, ["0", "0"]], ["delta", 5, ["1", "0"]], ["delta", 5, ["1", "0"]], // prizes
    ["delta", 6, ["1", "1"]], ["snapshot", 6, ["1", "1"]], ["delta", 7, ["2", "1"]],
  ]);
  assert.deepEqual(model.prizes, { seq: 5 });
  assert.equal(state(), "live");
});
