// One websocket to the standings feed (wire v2, see livetb/wire/messages.py): a snapshot, then the
// deltas applied to a local copy. On a drop it reconnects by itself with since=<last seq>, so
// the server sends exactly what was missed (or a fresh snapshot); `state` tells the page
// whether it is live. A snapshot older than the page's copy (a node that has not reached it)
// never replaces it: it is followed aside and shown once it has caught up. Pages do not call
// it directly: boot.js does.

/** The standings as the server has them: rows by start number, the order, the ties. */
export class Standings {
  constructor(filtered) {
    this.filtered = filtered; // a top= / participants= view: ranks come with the deltas
    this.doc = null; // header: seq, edition, after_round, round_in_progress, tiebreaks
    this.rows = new Map();
    this.order = []; // start numbers, best first
    this.shares = new Set(); // rows sharing the rank of the row above
    this.statuses = [];
    this.round = null; // the last round paired, results filling in
    this.prizes = null; // the live prize list (GET …/prizes), when the tournament has prizes
  }

  snapshot(msg) {
    const { standings, ...header } = msg.standings;
    this.doc = header;
    this.rows = new Map(standings.map((r) => [r.start_no, r]));
    this.order = standings.map((r) => r.start_no);
    this.shares = new Set(standings.filter((r, i) => i > 0 && r.rank === standings[i - 1].rank).map((r) => r.start_no));
    this.statuses = standings.length ? standings[0].statuses : [];
    this.round = msg.round;
    this.prizes = msg.prizes ?? null;
  }

  /** Apply one delta; what it changed: rows with new content, rank moves, finished games. */
  delta(msg) {
    const doc = this.doc;
    doc.seq = msg.seq;
    doc.after_round = msg.after_round;
    doc.round_in_progress = msg.round_in_progress;
    if (msg.statuses) this.statuses = msg.statuses;
    for (const no of msg.drop ?? []) this.rows.delete(no);
    const changed = new Set();
    for (const change of msg.rows ?? []) {
      const row = this.rows.get(change.start_no) ?? { start_no: change.start_no, rank: 0, name: "", values: [], fb_prediction: null, bh_projected: null };
      if (change.name !== undefined) row.name = change.name;
      for (const [column, value] of change.cells ?? []) {
        if (typeof column === "number") row.values[column] = value;
        else row[column] = value;
      }
      this.rows.set(row.start_no, row);
      changed.add(row.start_no);
    }
    if (msg.order) this.order = [...msg.order];
    for (const [no, at] of msg.moves ?? []) {
      const was = this.order.indexOf(no);
      if (was >= 0) this.order.splice(was, 1);
      this.order.splice(at, 0, no);
    }
    for (const no of msg.tied ?? []) this.shares.add(no);
    for (const no of msg.untied ?? []) this.shares.delete(no);
    const moved = this.rerank(new Map(msg.ranks ?? []));
    if (msg.round) this.round = msg.round;
    const round = this.round;
    if (round && round.round <= msg.after_round) round.closed = true;
    for (const [rnd, board, result] of msg.games ?? []) {
      const game = round && round.round === rnd ? round.games.find((g) => g.board === board) : null;
      if (game) game.result = result;
    }
    for (const [no, value] of msg.rating_change ?? []) { // a with=rating_change feed's
      const row = this.rows.get(no);
      if (!row) continue;
      row.rating_change = value;
      changed.add(no);
    }
    return { changed, moved, games: msg.games ?? [], round: Boolean(msg.round), prizes: false };
  }

  /** A new prize list (it comes apart from the deltas, within 50 ms of a change); a change of
   *  nothing but the list. */
  prizeList(msg) {
    this.prizes = msg.prizes;
    return { changed: new Set(), moved: new Map(), games: [], round: false, prizes: true };
  }

  /** Ranks from the order and the ties (or as given, for a filtered view); the moved rows. */
  rerank(given) {
    const moved = new Map();
    const set = (row, rank) => {
      if (row.rank !== rank) moved.set(row.start_no, [row.rank, rank]);
      row.rank = rank;
    };
    if (this.filtered) {
      for (const row of this.rows.values()) set(row, given.get(row.start_no) ?? row.rank);
      this.order = [...this.rows.values()].sort((a, b) => a.rank - b.rank || a.start_no - b.start_no).map((r) => r.start_no);
    } else {
      let rank = 0;
      this.order.forEach((no, i) => {
        rank = this.shares.has(no) ? rank : i + 1;
        set(this.rows.get(no), rank);
      });
    }
    return moved;
  }

  sorted() {
    return this.order.map((no) => this.rows.get(no));
  }

  /** The standings as a snapshot message again (what boot.js keeps for an offline reopen). */
  message() {
    const standings = this.sorted().map((row) => ({ ...row, statuses: this.statuses }));
    return { type: "snapshot", seq: this.doc.seq, standings: { ...this.doc, standings }, round: this.round, prizes: this.prizes };
  }

  column(code) {
    return this.doc.tiebreaks.indexOf(code);
  }
}

/**
 * Follow a tournament's feed. handlers: snapshot(model), delta(model, changes), state(s) with
 * s = "connecting" | "live" | "reconnecting" | "offline", refused() when a private
 * tournament's token stops being accepted. Returns a function that stops following.
 *
 * "live" is honest: the socket is open and a frame (a ping at least) arrived within twice the
 * server's ping interval (`heartbeat`, seconds: the page's settings carry the server's). A
 * silent socket (a frozen server, a dropped Wi-Fi that TCP has not noticed) is abandoned and
 * a new one opened; an attempt that hangs for CONNECT_MOST is abandoned too. "offline" after
 * OFFLINE_AFTER ms not live and without an open socket (one still bringing what was missed is
 * "reconnecting"), or at once when the browser knows it has no network.
 * A socket is live once the page shows what the server has: from its snapshot, or for a resume
 * from the ping the server writes after the missed deltas (on a slow phone they arrive a while
 * after the socket opens), and never while the page waits for a node behind it to catch up.
 * `model` may come filled (the last standings kept by this browser): the first connection
 * resumes from its seq.
 */
export function follow(tid, {
  token = null, top = null, participants = null, category = null, heartbeat = 20, model = null,
  rated = false,
} = {}, handlers = {}) {
  // Ranks given outright (a with=rating_change feed is a view of its own, every row or not).
  const filtered = top !== null || participants !== null || category !== null || rated;
  model ??= new Standings(filtered);
  const deadline = (2 * heartbeat + 1.5) * 1000;
  let ws = null;
  let stopped = false;
  let failures = 0;
  let heard = 0; // Date.now() of the last frame (or of the opening) on the current socket
  let opened = false; // the current socket is open
  let caughtUp = false; // the current socket has brought the page up to the server's seq
  let since = Date.now(); // since when the feed is not live
  let retry = null;
  let current = null;
  let behind = null; // an older snapshot than the page shows, with its deltas, catching up
  const state = (s) => {
    if (s === current) return;
    current = s;
    handlers.state?.(s);
  };

  function url() {
    const query = new URLSearchParams({ tournament: tid });
    if (model.doc && !model.filtered) query.set("since", model.doc.seq);
    if (top !== null) query.set("top", top);
    if (participants !== null) query.set("participants", participants.join(","));
    if (category !== null) query.set("category", category);
    if (rated) query.set("with", "rating_change");
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws?${query}`;
  }

  function live() {
    heard = Date.now();
    caughtUp = true;
    state("live");
  }

  function notLive() {
    if (current === "live") since = Date.now();
    // An open socket still bringing what was missed is no "offline", however long it takes.
    const away = !navigator.onLine || (!opened && Date.now() - since > OFFLINE_AFTER);
    state(away ? "offline" : current === "connecting" && !model.doc ? "connecting" : "reconnecting");
  }

  /** Forget the current socket without waiting for its close handshake (a frozen server
   *  never answers it) and try again after `wait` ms. */
  function abandon(wait) {
    const old = ws;
    ws = null;
    opened = false;
    if (old) {
      old.onopen = old.onmessage = old.onclose = old.onerror = null;
      try { old.close(); } catch { /* already closing */ }
    }
    notLive();
    clearTimeout(retry);
    retry = setTimeout(connect, wait);
  }

  function backoff() {
    failures += 1;
    // Short enough that a restarted server has every page live again within about 2 s;
    // the jitter spreads a room of phones over the interval.
    return Math.min(250 * 2 ** failures, RETRY_MOST) + Math.random() * 250;
  }

  function connect() {
    if (stopped) return;
    heard = Date.now(); // the attempt's own clock: a handshake that hangs is abandoned too
    opened = caughtUp = false;
    // The token travels as a subprotocol (a header), never in the URL.
    const socket = token ? new WebSocket(url(), ["livetb", `bearer.${token}`]) : new WebSocket(url());
    ws = socket;
    socket.onopen = () => {
      failures = 0;
      opened = true;
      heard = Date.now();
    };
    socket.onmessage = (event) => {
      heard = Date.now();
      const msg = JSON.parse(event.data);
      if (msg.type === "snapshot") {
        if (model.doc && msg.standings.seq < model.doc.seq) {
          behind = new Standings(model.filtered); // not live: the page shows newer standings
          behind.snapshot(msg);
          return;
        }
        behind = null;
        model.snapshot(msg);
        live();
        handlers.snapshot?.(model);
      } else if (msg.type === "delta") {
        if (behind && msg.seq === behind.doc.seq + 1) {
          behind.delta(msg);
          if (msg.seq < model.doc.seq) return;
          const prizes = model.prizes;
          model.snapshot(behind.message()); // caught up: shown from here on
          model.prizes = newer(model.prizes, prizes);
          behind = null;
          live();
          handlers.snapshot?.(model);
          return;
        }
        if (!model.doc || msg.seq <= model.doc.seq) return; // a resume that overlapped
        if (msg.seq !== model.doc.seq + 1) { abandon(0); return; } // a gap: resume with since=
        behind = null;
        if (caughtUp) live(); // else a resume's missed delta: live at the ping after them
        const change = model.delta(msg); // kept whether or not a handler looks
        handlers.delta?.(model, change);
      } else if (msg.type === "prizes" && behind) {
        behind.prizeList(msg); // the list of the node that is behind
      } else if (msg.type === "prizes" && model.doc) {
        if (caughtUp) live();
        const change = model.prizeList(msg);
        handlers.delta?.(model, change);
      } else if (model.doc && !behind) {
        live(); // a ping: the server is there, and the page has what it has
      }
    };
    socket.onclose = async () => {
      if (stopped || socket !== ws) return;
      ws = null;
      opened = false;
      notLive();
      if (token && failures > 1 && (await refused())) {
        handlers.refused?.();
        return;
      }
      clearTimeout(retry);
      retry = setTimeout(connect, backoff());
    };
  }

  // The watchdog: a socket (or an attempt) silent for longer than the deadline is given up.
  const watchdog = setInterval(() => {
    if (stopped) return;
    // An attempt still opening is left longer: a frozen server answers it the moment it
    // wakes (one pending handshake, not a pile of abandoned ones on its backlog).
    if (ws && Date.now() - heard > (opened ? deadline : CONNECT_MOST)) abandon(opened ? 0 : backoff());
    else if (current !== "live") notLive();
  }, 500);

  const online = () => {
    if (stopped || opened) return;
    failures = 0;
    abandon(0);
  };
  const offline = () => notLive();
  addEventListener("online", online);
  addEventListener("offline", offline);

  async function refused() {
    try {
      const resp = await fetch(`/api/tournaments/${encodeURIComponent(tid)}`, {
        headers: { Authorization: `Bearer ${token}` }, cache: "no-store",
      });
      return [401, 403, 404].includes(resp.status); // 404: private, and the token no longer its
    } catch {
      return false; // the server is away: keep trying
    }
  }

  state(model.doc ? (navigator.onLine ? "reconnecting" : "offline") : "connecting");
  connect();
  return () => {
    stopped = true;
    clearInterval(watchdog);
    clearTimeout(retry);
    removeEventListener("online", online);
    removeEventListener("offline", offline);
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
  };
}

/** Of two prize lists (either may be null), the one that counts more events. */
const newer = (a, b) => (a && (!b || a.seq >= b.seq) ? a : b);

const OFFLINE_AFTER = 20000; // ms without a live socket before the badge says "offline"
const RETRY_MOST = 1500; // ms: the longest wait between two connection attempts
const CONNECT_MOST = 30000; // ms an attempt may take to open before another is tried
