// The results grid of the arbiter console: the running round's boards, one compact line each
// (board, white, the result buttons, black, what the server said), and the quick entry —
// board number, then the result key, Enter.
import { el, problem, send } from "./common.js";
import { t } from "./i18n.js";
import { resultText } from "./results.js";

export const RESULTS = ["1-0", "1/2-1/2", "0-1", "0-0", "+-", "-+", "--"];
// The keys of the quick entry: 1 = 1-0, = or 5 = ½-½, 0 = 0-1, x = lost by both (0-0, a game
// played), + / - forfeits, * double forfeit.
export const KEYS = { "1": "1-0", "=": "1/2-1/2", "5": "1/2-1/2", "0": "0-1", "x": "0-0", "+": "+-", "-": "-+", "*": "--" };

export class Grid {
  /** `console` gives: tid, token(), person(no), say(text, tone), askReason(board, from, to). */
  constructor(ctx) {
    this.ctx = ctx;
    this.round = null;
    this.boards = new Map(); // board -> element
    this.root = el("div", { class: "grid", role: "group", "aria-label": t("grid.title") });
    // Not a live region: the console's one status line says each outcome.
    this.missing = el("p", { class: "missing" });
  }

  /** Draw the round's boards (a new pairing, or the first snapshot). */
  show(round) {
    this.round = round;
    this.boards.clear();
    if (!round) {
      this.root.replaceChildren(el("p", {}, t("pairings.none")));
      this.missing.textContent = "";
      return;
    }
    this.root.replaceChildren(...round.games.map((g) => this.board(g)));
    this.refreshMissing();
  }

  board(game) {
    // A name too long for its column is cut with an ellipsis, never the start number; the
    // whole name stays in the text (read aloud) and in the tooltip.
    const who = (no, side) => {
      const name = this.ctx.person(no)?.name ?? "?";
      return el("span", { class: side, title: `${name} (${no})` },
        el("span", { class: "name" }, name), " ", el("span", { class: "sno" }, `(${no})`));
    };
    const state = game.result ? "confirmed" : "empty";
    const status = el("span", { class: "status" }, game.result ? resultText(game.result) : "");
    const node = el("div", { class: "board-row", dataset: { board: game.board, state } },
      el("span", { class: "bno" }, game.board),
      who(game.white, "white"),
      el("span", { class: "sr" }, " – "),
      who(game.black, "black"), // read after white; drawn after the result buttons
      el("span", { class: "choices" }, RESULTS.map((r) => el("button", {
        type: "button", dataset: { result: r }, "aria-pressed": String(game.result === r),
        "aria-label": t("grid.set", { board: game.board, result: resultText(r) }),
        onclick: () => this.enter(game.board, r),
      }, resultText(r)))),
      status);
    node.status = status;
    this.boards.set(game.board, node);
    return node;
  }

  game(board) {
    return this.round?.games.find((g) => g.board === board) ?? null;
  }

  set(board, state, text, result) {
    const node = this.boards.get(board);
    if (!node) return;
    node.dataset.state = state;
    node.status.textContent = text;
    if (result !== undefined) {
      for (const b of node.querySelectorAll("button[data-result]")) b.setAttribute("aria-pressed", String(b.dataset.result === result));
    }
  }

  refreshMissing() {
    const open = this.round ? this.round.games.filter((g) => !g.result).map((g) => g.board) : [];
    this.missing.textContent = open.length ? t("grid.missing", { boards: open.join(", "), n: open.length }) : t("grid.complete");
    this.missing.dataset.count = open.length;
  }

  /** A result for a board: recorded, or — over another result — a correction with a reason. */
  async enter(board, result) {
    const game = this.game(board);
    if (!game) {
      this.ctx.say(t("grid.no_board", { board }), "error");
      return false;
    }
    const before = game.result;
    if (before === result) {
      this.ctx.say(t("grid.same", { board, result: resultText(result) }), "info");
      return true;
    }
    let reason = null;
    if (before) {
      reason = await this.ctx.askReason(board, before, result);
      if (!reason) {
        this.ctx.say(t("console.correction_cancelled", { board, result: resultText(before) }), "info");
        return false;
      }
    }
    this.set(board, "pending", t("grid.pending", { result: resultText(result) }), result);
    const path = `/api/tournaments/${encodeURIComponent(this.ctx.tid)}/rounds/${this.round.round}/results`;
    const answer = before
      ? await send("PUT", path, this.ctx.token(), { board, result, reason, expected: before })
      : await send("POST", path, this.ctx.token(), { board, result });
    if (answer.ok) {
      game.result = result;
      this.set(board, "confirmed", t("grid.confirmed", { result: resultText(result), seq: answer.body.seq }), result);
      this.refreshMissing();
      // The outcome replaces whatever the status line said before (an older refusal included).
      const done = before ? "console.corrected" : "console.recorded";
      this.ctx.say(t(done, { board, result: resultText(result), seq: answer.body.seq }), "ok");
      return true;
    }
    // Refused: the board as it was (or as another arbiter left it), and why in words.
    const current = answer.body.current ?? game.result;
    if (answer.body.current !== undefined) game.result = current;
    this.set(board, "error", problem(answer), current ?? null);
    this.ctx.say(problem(answer), "error");
    this.refreshMissing();
    return false;
  }

  /** A result recorded by anyone (the feed): the board shows it, with the log's seq. */
  confirmed(board, result, seq) {
    const game = this.game(board);
    if (!game) return;
    const node = this.boards.get(board);
    if (node?.dataset.state === "pending") return; // our own write: its answer settles it
    game.result = result;
    this.set(board, result ? "confirmed" : "empty", result ? t("grid.confirmed", { result: resultText(result), seq }) : "", result);
    this.refreshMissing();
  }
}

/** The quick entry: board number, then a result key (or Space / Tab to the result field). */
export function quickEntry(grid, say) {
  const board = el("input", { id: "q-board", name: "board", inputmode: "numeric", autocomplete: "off", size: 4, "aria-describedby": "q-help" });
  const result = el("input", { id: "q-result", name: "result", autocomplete: "off", size: 2, maxlength: 1, "aria-describedby": "q-help" });
  const form = el("form", { class: "quick", onsubmit: async (e) => {
    e.preventDefault();
    let [no, key] = [board.value.trim(), result.value.trim()];
    const spaced = /^(\d+)\s*(\S)$/.exec(no); // "12 1" typed in one field
    if (spaced && !key) [no, key] = [spaced[1], spaced[2]];
    if (!/^\d+$/.test(no)) { say(t("quick.board_first"), "error"); board.focus(); return; }
    if (!(key in KEYS)) { say(t("quick.result_key"), "error"); result.focus(); return; }
    board.value = result.value = "";
    board.focus();
    await grid.enter(Number(no), KEYS[key]);
  } },
    el("label", { for: "q-board" }, t("quick.board")), board,
    el("label", { for: "q-result" }, t("quick.result")), result,
    el("button", { type: "submit" }, t("quick.enter")),
    el("p", { id: "q-help", class: "hint" }, t("quick.help")));
  board.addEventListener("keydown", (e) => {
    if (e.key === " " || (e.key in KEYS && !/\d/.test(e.key))) {
      e.preventDefault();
      if (e.key !== " ") result.value = e.key;
      result.focus();
    }
  });
  result.addEventListener("input", () => {
    if (result.value && !(result.value in KEYS)) {
      say(t("quick.result_key"), "error");
      result.value = "";
    }
  });
  return { form, board };
}
