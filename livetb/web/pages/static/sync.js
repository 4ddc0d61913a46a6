// The console's sync with the pairing program's file: the arbiter chooses (or drops) the TRF
// the program saves; the console asks the server what it would append (?dry_run=1) and shows
// it in words — or that there is nothing to add, the file's located errors, or the results
// entered here that the file contradicts, with the choice of which stand. Apply sends the same
// file with that choice; the grid and the ranks follow through the feed. Every request names
// the file (`file=`), which the corrections' reasons quote. A file that declares no round
// count, for a tournament the sync creates, asks for it (`rounds=`); a file that looks older
// than those synced before, or another tournament's, is explained and may be synced anyway
// (`force=1`, previewed again first).
import { el, getJSON, issuePart, oneAtATime, problem, send, statusLine } from "./common.js";
import { t } from "./i18n.js";
import { boardLines, describe } from "./audit.js";
import { resultText } from "./results.js";

// The sync's own record of the file it read: written with the changes, never one of them.
const isRecord = (e) => e.type === "FileSynced";

/** The query of a sync request: the arbiter's answers so far, and the file's name. */
function query(s) {
  const q = new URLSearchParams();
  if (s.prefer) q.set("prefer", s.prefer);
  if (s.rounds) q.set("rounds", String(s.rounds));
  if (s.force) q.set("force", "1");
  q.set("file", s.file);
  return q;
}

export function syncPanel(ctx) {
  const status = statusLine({ id: "sync-status" });
  const preview = el("div", { class: "preview sync-preview", id: "sync-preview", hidden: true });
  const input = el("input", { id: "sync-file", name: "sync-file", type: "file", accept: ".trf,.txt,text/plain", "aria-describedby": "sync-hint" });
  const zone = el("div", { class: "drop-zone", id: "sync-drop" },
    el("label", { for: "sync-file" }, t("console.sync.choose")), input,
    el("p", { class: "hint" }, t("console.sync.drop")));
  // The file being looked at: its text, name, the arbiter's answers (which results stand, the
  // round count, sync anyway) and the events planned.
  let staged = null;

  const drop = () => { staged = null; preview.hidden = true; preview.replaceChildren(); };

  /** A start number as the audit trail names it: the log's participants, else the file's. */
  function namer(events) {
    const fresh = new Map(events.filter((e) => e.type === "ParticipantRegistered").map((e) => [e.start_no, e.name]));
    return (no) => ctx.person(no)?.name ?? fresh.get(no) ?? "?";
  }

  /** The results the corrections replace, from the rounds as published. */
  async function befores(events) {
    const rounds = [...new Set(events.filter((e) => e.type === "ResultCorrected").map((e) => e.round))];
    const known = new Map();
    for (const rnd of rounds) {
      try {
        const round = await getJSON(`${ctx.base}/rounds/${rnd}`, ctx.token());
        for (const g of round.games) known.set(`${rnd}:${g.board}`, g.result);
      } catch { /* left unnamed: the feed's badge says when the server is away */ }
    }
    return known;
  }

  const apply = el("button", { type: "button", class: "primary", id: "sync-apply", onclick: oneAtATime(async () => {
    const s = staged;
    if (!s) return;
    drop();
    const answer = await send("POST", `${ctx.base}/sync?${query(s)}`, ctx.token(), undefined, { text: s.text });
    if (!answer.ok) { refused(answer, s); return; }
    // Counted as the preview counted: the changes, not the sync's record of the file.
    const written = answer.body.events - s.events.filter(isRecord).length;
    const said = written > 0
      ? t("console.sync.applied", { file: s.file, n: written, seq: answer.body.seq })
      : t("console.sync.nothing", { file: s.file });
    status.say(said, "ok");
    ctx.refresh();
    if (ctx.applied) ctx.applied(said); // a tournament the sync created: its console opens
    else input.focus();
  }, status) }, t("console.sync.apply"));
  const cancel = el("button", { type: "button", onclick: () => {
    const file = staged?.file ?? "";
    drop();
    status.say(t("console.sync.cancelled", { file }), "info");
    input.focus();
  } }, t("console.cancel"));

  /** A refusal in words: the file's located errors, a round the file pairs otherwise, the
   * round count asked for, a file older than the log's or another tournament's (with the
   * choice to sync it anyway), or the catalog's message for the others (token, store,
   * someone writing first, a round count other than the tournament's). */
  function refused(answer, s) {
    const code = answer.body.code;
    if (code === "rounds_required") {
      askRounds(s);
    } else if (code === "sync_stale" || code === "sync_foreign") {
      offerForce(s, answer.body);
    } else if (code === "trf_invalid") {
      const issues = answer.body.issues ?? [];
      status.say(t("console.sync.invalid", { file: s.file }), "error");
      preview.replaceChildren(el("ul", { class: "issues" }, issues.map((i) => el("li", {},
        t(i.columns ? "console.sync.issue" : "console.sync.issue_line",
          { line: i.line, columns: i.columns?.join("–"), where: issuePart(i, "where"),
            found: issuePart(i, "found"), expected: issuePart(i, "expected") })))));
      preview.hidden = false;
    } else if (code === "sync_mismatch") {
      status.say(t("console.sync.mismatch", { file: s.file }), "error");
    } else {
      status.say(problem(answer), "error");
    }
  }

  /** The round count of the tournament the file creates, which the file does not declare. */
  function askRounds(s) {
    const rounds = el("input", { id: "sync-rounds", name: "rounds", type: "number", inputmode: "numeric", min: 1, max: 99, step: 1,
      required: true, autocomplete: "off", value: s.rounds ?? "", "aria-describedby": "sync-rounds-hint" });
    // The browser's own words for an empty or out-of-range field are replaced by the catalog's.
    const check = () => {
      rounds.setCustomValidity("");
      if (!rounds.validity.valid) rounds.setCustomValidity(t("console.sync.rounds_range"));
    };
    rounds.addEventListener("input", check);
    check();
    const form = el("form", { id: "sync-rounds-form", class: "rounds-form", onsubmit: (e) => {
      e.preventDefault();
      look({ ...s, rounds: Number(rounds.value) });
    } },
      el("p", { class: "hint", id: "sync-rounds-hint" }, t("console.sync.rounds_hint", { file: s.file })),
      el("div", { class: "row" }, el("label", { for: "sync-rounds" }, t("console.sync.rounds")), rounds),
      el("div", { class: "actions" }, el("button", { type: "submit", class: "primary" }, t("console.sync.rounds_go")), cancel));
    staged = { ...s, rounds: null, events: null };
    preview.replaceChildren(form);
    preview.hidden = false;
    status.say(t("console.sync.rounds_required", { file: s.file }), "info");
    rounds.focus();
  }

  /** A file older than those synced before, or another tournament's: why, and the choice to
   * sync it anyway (previewed again first, like any file). */
  function offerForce(s, body) {
    const stale = body.code === "sync_stale";
    // Each reason in the page's language; a correction's results as the pairings show them.
    const why = (body.why ?? []).map((w) => t(w.key, w.key === "sync.why.corrected"
      ? { ...w.params, old: resultText(w.params.old), new: resultText(w.params.new) } : w.params));
    const anyway = el("button", { type: "button", id: "sync-force", "aria-describedby": "sync-why",
      onclick: () => look({ ...s, force: true }) }, t("console.sync.force"));
    staged = { ...s, events: null };
    preview.replaceChildren(
      el("div", { id: "sync-why" },
        why.length ? el("ul", { class: stale ? "reasons" : "differences" }, why.map((w) => el("li", {}, w))) : null),
      el("p", { class: "hint" }, t(stale ? "console.sync.force_stale" : "console.sync.force_foreign")),
      el("div", { class: "actions" }, anyway, cancel));
    preview.hidden = false;
    status.say(t(stale ? "console.sync.stale" : "console.sync.foreign", { file: s.file }), "error");
    anyway.focus();
  }

  /** The results entered here that the file contradicts, and the two answers. */
  function conflictPart(s) {
    const who = (no) => `${ctx.person(no)?.name ?? "?"} (${no})`;
    const choose = (prefer) => el("button", { type: "button", dataset: { prefer }, "aria-pressed": String(s.prefer === prefer),
      onclick: () => look({ ...s, prefer }) }, t(`console.sync.prefer_${prefer}`));
    return [
      el("p", {}, t("console.sync.conflict_list")),
      el("ul", { class: "conflicts" }, s.conflicts.map((c) => el("li", { dataset: { round: c.round, board: c.board } },
        t("console.sync.conflict", { round: c.round, board: c.board, white: who(c.white), black: who(c.black),
          log: resultText(c.log), file: resultText(c.file), line: c.line })))),
      el("fieldset", { class: "choice" }, el("legend", {}, t("console.sync.choice")),
        el("div", { class: "actions" }, choose("file"), choose("log"))),
    ];
  }

  /** Ask what the file adds (with the arbiter's choice for conflicts, once made) and show it. */
  async function look(s) {
    drop();
    const answer = await send("POST", `${ctx.base}/sync?${query(s)}`, ctx.token(), undefined, { text: s.text, dryRun: true });
    if (!answer.ok && answer.body.code === "sync_conflict") {
      // Nothing can be applied before the arbiter says which results stand.
      staged = { ...s, conflicts: answer.body.boards, events: null };
      preview.replaceChildren(...conflictPart(staged), el("div", { class: "actions" }, cancel));
      preview.hidden = false;
      status.say(t("console.sync.conflicts", { file: s.file, n: staged.conflicts.length }), "error");
      preview.querySelector("button[data-prefer='file']").focus();
      return;
    }
    if (!answer.ok) { refused(answer, s); return; }
    const events = answer.body.events;
    const changes = events.filter((e) => !isRecord(e)); // a file record alone adds nothing
    const conflicts = s.prefer ? s.conflicts : [];
    if (!changes.length && !conflicts.length) {
      status.say(t("console.sync.nothing", { file: s.file }), "ok");
      return;
    }
    staged = { ...s, events };
    const name = namer(events);
    const before = await befores(events);
    // A pairing lists its boards under it, with both players' names.
    const items = changes.map((e) => el("li", {}, describe({ event: e, before: before.get(`${e.round}:${e.board}`) }, name),
      e.type === "RoundPaired" ? el("ul", { class: "boards" }, boardLines(e, name).map((line) => el("li", {}, line))) : null));
    if (s.prefer === "log") {
      items.push(...conflicts.map((c) => el("li", {}, t("console.sync.kept", { round: c.round, board: c.board, log: resultText(c.log), file: resultText(c.file) }))));
    }
    const notes = [];
    if (s.rounds) notes.push(t("console.sync.with_rounds", { n: s.rounds }));
    if (s.force) notes.push(t("console.sync.forced", { file: s.file }));
    preview.replaceChildren(
      ...(conflicts.length ? [...conflictPart(staged), el("p", { class: "hint" }, t(`console.sync.chose_${s.prefer}`))] : []),
      ...notes.map((note) => el("p", { class: "hint" }, note)),
      el("p", {}, t("console.sync.will_add", { file: s.file, n: changes.length })),
      el("ul", { class: "events" }, items),
      el("div", { class: "actions" }, apply, cancel));
    preview.hidden = false;
    status.say(t("console.sync.previewed", { file: s.file }), "info");
    apply.focus();
  }

  async function read(file) {
    if (!file) return;
    drop();
    status.say(t("console.sync.reading", { file: file.name }), "info");
    const text = await file.text();
    input.value = ""; // the same file, saved again by the program, can be chosen again
    if (!text.trim()) { status.say(t("console.sync.empty", { file: file.name }), "error"); return; }
    await look({ text, file: file.name, prefer: null, conflicts: [], rounds: null, force: false });
  }

  input.addEventListener("change", () => read(input.files?.[0]));
  const root = el("div", { class: "form-stack sync" },
    el("h2", {}, t("console.sync.title")),
    el("p", { class: "hint", id: "sync-hint" }, t("console.sync.hint")),
    zone, status, preview);
  // The whole tab takes the drop: a file let go beside the zone is read, not opened by the
  // browser in place of the console.
  root.addEventListener("dragover", (e) => { e.preventDefault(); zone.dataset.over = "true"; });
  root.addEventListener("dragleave", (e) => { if (!root.contains(e.relatedTarget)) delete zone.dataset.over; });
  root.addEventListener("drop", (e) => {
    e.preventDefault();
    delete zone.dataset.over;
    read(e.dataTransfer?.files?.[0]);
  });
  return root;
}
