// One websocket to the standings feed (wire v2, see livetb/wire/messages.py): a snapshot, then the
// deltas applied to a local copy. On a drop it reconnects by itself with since=<last seq>, so
// the server sends exactly what was missed (or a fresh snapshot); `onstate` tells the page
// whether it is live.

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
  }

  snapshot(msg) {
    const { standings, ...header } = msg.standings;
    this.doc = header;
    this.rows = new Map(standings.map((r) => [r.start_no, r]));
    this.order = standings.map((r) => r.start_no);
    this.shares = new Set(standings.filter((r, i) => i > 0 && r.rank === standings[i - 1].rank).map((r) => r.start_no));
    this.statuses = standings.length ? standings[0].statuses : [];
    this.round = msg.round;
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
    return { changed, moved, games: msg.games ?? [], round: Boolean(msg.round) };
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

  column(code) {
    return this.doc.tiebreaks.indexOf(code);
  }
}

/**
 * Follow a tournament's feed. handlers: snapshot(model), delta(model, changes), state(s) with
 * s = "connecting" | "live" | "reconnecting" | "offline", refused() when a private
 * tournament's token stops being accepted. Returns a function that stops following.
 */
export function follow(tid, { token = null, top = null, participants = null } = {}, handlers = {}) {
  const model = new Standings(top !== null || participants !== null);
  let ws = null;
  let stopped = false;
  let delay = 500;
  let failures = 0;
  const state = (s) => handlers.state?.(s);

  function url() {
    const query = new URLSearchParams({ tournament: tid });
    if (model.doc && !model.filtered) query.set("since", model.doc.seq);
    if (top !== null) query.set("top", top);
    if (participants !== null) query.set("participants", participants.join(","));
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws?${query}`;
  }

  function connect() {
    // The token travels as a subprotocol (a header), never in the URL.
    ws = token ? new WebSocket(url(), ["livetb", `bearer.${token}`]) : new WebSocket(url());
    ws.onopen = () => {
      delay = 500;
      failures = 0;
    };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "snapshot") {
        model.snapshot(msg);
        state("live");
        handlers.snapshot?.(model);
      } else if (msg.type === "delta") {
        if (!model.doc || msg.seq <= model.doc.seq) return; // a resume that overlapped
        if (msg.seq !== model.doc.seq + 1) { ws.close(); return; } // a gap: resume with since=
        state("live");
        handlers.delta?.(model, model.delta(msg));
      }
    };
    ws.onclose = async () => {
      if (stopped) return;
      failures += 1;
      state(failures > 3 ? "offline" : "reconnecting");
      if (token && failures > 1 && (await refused())) {
        handlers.refused?.();
        return;
      }
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 8000);
    };
  }

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

  state("connecting");
  connect();
  return () => {
    stopped = true;
    ws?.close();
  };
}
