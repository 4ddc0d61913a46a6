// The audit trail: the tournament's log in words — when, who (the token's label), what —
// corrections with before and after, filterable by round and player.
import { el, problem, send, statusLine } from "./common.js";
import { lang, t } from "./i18n.js";
import { resultText } from "./results.js";
import { delaySpan } from "./words.js";

/** One log entry in words; `name(no)` gives a participant's name. */
export function describe(entry, name) {
  const e = entry.event;
  const who = (no) => `${name(no)} (${no})`;
  switch (e.type) {
    case "TournamentCreated": return t("ev.created", { name: e.name, rounds: e.rounds, tiebreaks: e.tiebreaks.join(", ") });
    case "ParticipantRegistered": return t("ev.registered", { who: who(e.start_no), rating: e.rating ?? "–" });
    case "ParticipantUpdated": return t("ev.updated", { who: who(e.start_no) });
    case "ParticipantWithdrawn": return t("ev.withdrawn", { who: who(e.start_no), round: e.from_round });
    case "ParticipantReinstated": return t("ev.reinstated", { who: who(e.start_no), round: e.from_round });
    case "ByeRequested": return t("ev.bye", { who: who(e.start_no), round: e.round, points: t(`bye.${e.points}`) });
    case "RoundPaired": return t("ev.paired", { round: e.round, n: e.boards.length });
    case "ResultRecorded": return t("ev.result", { round: e.round, board: e.board, result: resultText(e.result) });
    case "ResultCorrected": return t("ev.corrected", { round: e.round, board: e.board, before: resultText(entry.before), after: resultText(e.result), reason: e.reason });
    case "ColoursSwapped": return t("ev.colours_swapped", { round: e.round, board: e.board });
    case "RoundClosed": return t("ev.closed", { round: e.round });
    case "LotsDrawn": return t("ev.lots", { seed: e.seed });
    case "PlayoffDecided": return t("ev.playoff", { order: e.order.map(who).join(" > ") });
    case "TeamRegistered": return t("ev.team", { name: e.name });
    case "CategoriesDefined": return e.categories.length
      ? t("ev.categories", { n: e.categories.length, list: e.categories.map((c) => `${c.code} (${c.name})`).join(", ") })
      : t("ev.categories_none");
    case "PrizesDefined": return e.prizes.length
      ? t("ev.prizes", { n: e.prizes.length, rule: t(`prizeform.rule.${e.rule}`), currency: e.currency, one: t(e.one_prize_per_player ? "ev.prizes_one" : "ev.prizes_many") })
      : t("ev.prizes_none");
    case "PublicDelaySet": return e.seconds > 0 ? t("ev.delay", { span: delaySpan(e.seconds) }) : t("ev.delay_none");
    case "FileSynced": return e.rounds > 0
      ? t(e.rounds === 1 ? "ev.synced_one" : "ev.synced", { source: e.source, rounds: e.rounds })
      : t("ev.synced_none", { source: e.source });
    case "ParticipantKSet": return e.k === null || e.k === undefined ? t("ev.k_default", { who: who(e.start_no) }) : t("ev.k", { who: who(e.start_no), k: e.k });
    default: return e.type;
  }
}

/** A pairing's boards in words, for a preview: "board 1: Adams – Short", then the bye. */
export function boardLines(e, name) {
  const lines = [...e.boards].sort((a, b) => a.board - b.board)
    .map((b) => t("ev.board", { board: b.board, white: name(b.white), black: name(b.black) }));
  for (const no of [e.bye, ...(e.more_byes ?? [])]) if (no) lines.push(t("ev.pab", { who: name(no) }));
  return lines;
}

export function auditPanel(ctx) {
  const list = el("ol", { class: "audit", reversed: true });
  const status = statusLine();
  const round = el("input", { id: "a-round", name: "round", type: "number", min: 1 });
  const player = el("input", { id: "a-player", name: "participant", type: "number", min: 1 });
  const when = new Intl.DateTimeFormat(lang, { dateStyle: "short", timeStyle: "medium" });
  const name = (no) => ctx.person(no)?.name ?? "?";

  async function load() {
    const query = new URLSearchParams({ limit: "500" });
    if (round.value) query.set("round", round.value);
    if (player.value) query.set("participant", player.value);
    const answer = await send("GET", `${ctx.base}/audit?${query}`, ctx.token());
    if (!answer.ok) { status.say(problem(answer), "error"); return; }
    const entries = [...answer.body.entries].sort((a, b) => b.seq - a.seq);
    status.say(t("audit.count", { n: entries.length }));
    list.replaceChildren(...entries.map((entry) => el("li", { dataset: { seq: entry.seq, type: entry.event.type } },
      el("span", { class: "seq" }, `#${entry.seq}`), " ",
      el("time", { datetime: entry.at }, when.format(new Date(entry.at))), " · ",
      el("span", { class: "who" }, entry.label ?? entry.actor), " · ",
      describe(entry, name))));
  }

  return el("div", { class: "form-stack" },
    el("h2", {}, t("tab.audit")),
    el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); load(); } },
      el("label", { for: "a-round" }, t("pair.round")), round,
      el("label", { for: "a-player" }, t("col.no")), player,
      el("button", { type: "submit" }, t("audit.show"))),
    status, list);
}
