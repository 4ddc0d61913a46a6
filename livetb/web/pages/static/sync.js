// The console's sync with the pairing program's file: the arbiter chooses (or drops) the TRF
// the program saves; the console asks the server what it would append (?dry_run=1) and shows
// it in words — or that there is nothing to add, the file's located errors, or the results
// entered here that the file contradicts, with the choice of which stand. Apply sends the same
// file with that choice; the grid and the ranks follow through the feed.
import { el, freshKey, getJSON, problem, statusLine } from "./common.js";
import { t } from "./i18n.js";
import { describe } from "./audit.js";
import { resultText } from "./results.js";

/** POST the file as text/plain; never throws for an HTTP answer. */
async function post(url, token, text, key) {
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "text/plain", "Idempotency-Key": key };
  let resp;
  try {
    resp = await fetch(url, { method: "POST", headers, body: text, cache: "no-store" });
  } catch (err) {
    return { ok: false, status: 0, body: { code: "network", message: String(err) } };
  }
  let data = null;
  try { data = await resp.json(); } catch { /* not JSON */ }
  return { ok: resp.ok, status: resp.status, body: data ?? {} };
}

export function syncPanel(ctx) {
  const status = statusLine({ id: "sync-status" });
  const preview = el("div", { class: "preview sync-preview", id: "sync-preview", hidden: true });
  const input = el("input", { id: "sync-file", name: "sync-file", type: "file", accept: ".trf,.txt,text/plain", "aria-describedby": "sync-hint" });
  const zone = el("div", { class: "drop-zone", id: "sync-drop" },
    el("label", { for: "sync-file" }, t("console.sync.choose")), input,
    el("p", { class: "hint" }, t("console.sync.drop")));
  // The file being looked at: its text, name, the choice for conflicts, and the events planned.
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

  const apply = el("button", { type: "button", class: "primary", id: "sync-apply", onclick: async () => {
    const s = staged;
    if (!s) return;
    drop();
    const query = s.prefer ? `?prefer=${s.prefer}` : "";
    const answer = await post(`${ctx.base}/sync${query}`, ctx.token(), s.text, s.key);
    if (!answer.ok) { refused(answer, s); return; }
    if (answer.body.events) status.say(t("console.sync.applied", { file: s.file, n: answer.body.events, seq: answer.body.seq }), "ok");
    else status.say(t("console.sync.nothing", { file: s.file }), "ok");
    ctx.refresh();
    input.focus();
  } }, t("console.sync.apply"));
  const cancel = el("button", { type: "button", onclick: () => {
    const file = staged?.file ?? "";
    drop();
    status.say(t("console.sync.cancelled", { file }), "info");
    input.focus();
  } }, t("console.cancel"));

  /** A refusal in words: the file's located errors, a round the file pairs otherwise, or the
   * catalog's message for the others (token, store, someone writing first). */
  function refused(answer, s) {
    const code = answer.body.code;
    if (code === "trf_invalid") {
      const issues = answer.body.issues ?? [];
      status.say(t("console.sync.invalid", { file: s.file }), "error");
      preview.replaceChildren(el("ul", { class: "issues" }, issues.map((i) => el("li", {},
        t(i.columns ? "console.sync.issue" : "console.sync.issue_line",
          { line: i.line, columns: i.columns?.join("–"), where: i.where, found: i.found, expected: i.expected })))));
      preview.hidden = false;
    } else if (code === "sync_mismatch") {
      status.say(t("console.sync.mismatch", { file: s.file }), "error");
    } else {
      status.say(problem(answer), "error");
    }
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
    const query = new URLSearchParams({ dry_run: "1" });
    if (s.prefer) query.set("prefer", s.prefer);
    const answer = await post(`${ctx.base}/sync?${query}`, ctx.token(), s.text, freshKey());
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
    const conflicts = s.prefer ? s.conflicts : [];
    if (!events.length && !conflicts.length) {
      status.say(t("console.sync.nothing", { file: s.file }), "ok");
      return;
    }
    staged = { ...s, events, key: freshKey() };
    const name = namer(events);
    const before = await befores(events);
    const lines = events.map((e) => describe({ event: e, before: before.get(`${e.round}:${e.board}`) }, name));
    if (s.prefer === "log") {
      lines.push(...conflicts.map((c) => t("console.sync.kept", { round: c.round, board: c.board, log: resultText(c.log), file: resultText(c.file) })));
    }
    preview.replaceChildren(
      ...(conflicts.length ? [...conflictPart(staged), el("p", { class: "hint" }, t(`console.sync.chose_${s.prefer}`))] : []),
      el("p", {}, t("console.sync.will_add", { file: s.file, n: events.length })),
      el("ul", { class: "events" }, lines.map((line) => el("li", {}, line))),
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
    await look({ text, file: file.name, prefer: null, conflicts: [] });
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
