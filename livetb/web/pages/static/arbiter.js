// /t/{id}/arbiter: the arbiters' console — results at speed, pairings, players, round
// operations, provisional ranks and the audit trail. The token is entered once (or arrives
// as #token=…), kept for this browser session, and only ever sent as a header.
import { app, config, el, getJSON, languageSwitch, oneAtATime, problem, send, stateLine, statusLine, takeToken } from "./common.js";
import { href, t } from "./i18n.js";
import { boot } from "./boot.js";
import "./standings-table.js";
import { Grid, quickEntry } from "./grid.js";
import { auditPanel } from "./audit.js";
import { pairingPanel, playersPanel, operationsPanel } from "./admin.js";
import { syncPanel } from "./sync.js";
import { delaySpan } from "./words.js";
import { categoriesPanel } from "./categories-form.js";
import { delayForm, prizesPanel } from "./prizes-form.js";

const tid = config.tournament;
const base = `/api/tournaments/${encodeURIComponent(tid)}`;
let token = takeToken(tid);
let info, model;
const ui = {};

function say(text, tone = "info") {
  ui.notice.say(text, tone);
}

/** The tournament as the server has it now (participants registered elsewhere included);
 * the panels that depend on it hear "livetb:info". */
async function refreshInfo() {
  try {
    info = await getJSON(base, token);
  } catch {
    return; // the feed's badge already says when the server is away
  }
  document.dispatchEvent(new CustomEvent("livetb:info"));
}

/** The token form: `<input name="token">`; checked against the server before it is kept. */
function tokenForm(message) {
  const input = el("input", { id: "token", name: "token", type: "password", autocomplete: "off", required: true });
  const error = el("p", { id: "token-error", class: "error", role: "alert" }, message ?? "");
  const form = el("form", { class: "token-form", onsubmit: async (e) => {
    e.preventDefault();
    const candidate = input.value.trim();
    const answer = await checkToken(candidate);
    if (answer.ok || unknown(answer)) {
      token = candidate;
      sessionStorage.setItem(`livetb.token.${tid}`, token);
      start();
    } else {
      error.textContent = problem(answer);
      input.select();
    }
  } },
    el("h1", {}, t("arbiter.title")), el("p", {}, t("arbiter.token_prompt")),
    el("label", { for: "token" }, t("token.label")), input, error,
    el("button", { type: "submit" }, t("token.submit")));
  app.replaceChildren(form);
  app.setAttribute("aria-busy", "false");
  input.focus();
}

/** A token is an arbiter's of this tournament when the audit trail answers to it (or says,
 * having accepted it, that the tournament does not exist yet). */
function checkToken(candidate) {
  return send("GET", `${base}/audit?limit=1`, candidate);
}

const unknown = (answer) => answer.status === 404 && answer.body.code === "unknown_tournament";

/** A tournament not created yet, with an arbiter token made for its id beforehand: the sync
 * with the pairing program's file creates it, and then the whole console opens. */
function creationView() {
  const ctx = {
    tid, base, token: () => token, person: () => undefined, refresh: () => {},
    applied: (said) => start(said),
  };
  app.replaceChildren(
    el("header", { class: "top" },
      el("div", {}, el("h1", {}, t("console.new.title", { id: tid })), el("p", { class: "sub" }, t("arbiter.title"))),
      languageSwitch()),
    el("p", { class: "hint new-hint" }, t("console.new.hint", { id: tid })),
    syncPanel(ctx));
  app.setAttribute("aria-busy", "false");
  app.querySelector("#sync-file").focus();
}

function askReason(board, from, to) {
  return new Promise((resolve) => {
    const input = el("input", { id: "reason", name: "reason", required: true, autocomplete: "off", maxlength: 500 });
    const dialog = el("dialog", { class: "reason", "aria-labelledby": "reason-title" },
      el("form", { method: "dialog", onsubmit: (e) => {
        e.preventDefault();
        dialog.close();
        resolve(input.value.trim() || null);
      } },
        el("h2", { id: "reason-title" }, t("correct.title", { board })),
        el("p", {}, t("correct.what", { from: from, to: to })),
        el("label", { for: "reason" }, t("correct.reason")), input,
        el("div", { class: "actions" },
          el("button", { type: "submit" }, t("correct.confirm")),
          el("button", { type: "button", onclick: () => { dialog.close(); resolve(null); } }, t("correct.cancel")))));
    dialog.addEventListener("cancel", () => resolve(null));
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

function person(no) {
  return model?.rows.get(no) ?? info.participants.find((p) => p.start_no === no);
}

/** The tab list and its panels; `open(id)` selects one (the pre-round links use it). */
function tabs(panels) {
  const list = el("div", { role: "tablist", "aria-label": t("arbiter.title") });
  const buttons = panels.map(([id, label], i) => el("button", {
    type: "button", role: "tab", id: `tab-${id}`, "aria-controls": `panel-${id}`, "aria-selected": String(i === 0), tabindex: i === 0 ? "0" : "-1",
    onclick: () => select(i),
    onkeydown: (e) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (step) { e.preventDefault(); select((i + step + panels.length) % panels.length, true); }
    },
  }, label));
  list.append(...buttons);
  const sections = panels.map(([id, , body], i) => el("section", { role: "tabpanel", id: `panel-${id}`, "aria-labelledby": `tab-${id}`, hidden: i !== 0 }, body));
  function select(k, focus = false) {
    buttons.forEach((b, i) => { b.setAttribute("aria-selected", String(i === k)); b.tabIndex = i === k ? 0 : -1; });
    sections.forEach((s, i) => { s.hidden = i !== k; });
    if (focus) buttons[k].focus();
    ui.notice.clear(); // the status line speaks of the tab left behind
    refreshInfo();
  }
  const open = (id) => select(panels.findIndex(([name]) => name === id), true);
  return { nodes: [list, ...sections], open };
}

/** The round's part of the results tab; before round 1, what to do first instead. */
function showRound(round) {
  ui.roundTitle.textContent = round ? t("pairings.title", { round: round.round }) : "";
  for (const node of ui.roundOnly) node.hidden = !round;
  ui.preRound.hidden = Boolean(round);
}

/** A file of the export (TRF-2026, TRF-16): fetched with the token, saved by the browser. */
async function download(format) {
  const resp = await fetch(`${base}/export?format=${format}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!resp.ok) {
    say(problem({ status: resp.status, body: await resp.json().catch(() => ({})) }), "error");
    return;
  }
  const link = el("a", { href: URL.createObjectURL(await resp.blob()), download: `${tid}-${format}.trf` });
  link.click();
}

function csv() {
  const codes = model.doc.tiebreaks;
  const quote = (v) => `"${String(v ?? "").replaceAll('"', '""')}"`;
  const lines = [[t("col.rank"), t("col.no"), t("col.name"), ...codes].map(quote).join(",")];
  for (const r of model.sorted()) lines.push([r.rank, r.start_no, r.name, ...r.values].map(quote).join(","));
  const link = el("a", { href: URL.createObjectURL(new Blob([lines.join("\r\n") + "\r\n"], { type: "text/csv" })), download: `${tid}-standings.csv` });
  link.click();
}

/** The console, once the tournament is read; `said`: the outcome that opened it (a sync that
 * created the tournament), for the status line. */
async function start(said = null) {
  try {
    info = await getJSON(base, token);
  } catch (err) {
    if (err.status === 404 && unknown(await checkToken(token))) creationView();
    else tokenForm([401, 403, 404].includes(err.status) ? t("err.unknown_or_refused") : err.message);
    return;
  }
  const grid = new Grid({ tid, token: () => token, person, say, askReason });
  ui.grid = grid;
  ui.notice = statusLine({ class: "notice" });
  ui.badge = el("span"); // the feed's badge, once it is open
  ui.state = el("span", { class: "state" });
  // Said on every tab: what the public sees lags the console under a broadcast delay.
  ui.delay = el("span", { class: "delayed", id: "console-delay" });
  const showDelay = () => {
    const s = info.public_delay ?? 0;
    ui.delay.textContent = s > 0 ? t("delay.behind", { span: delaySpan(s) }) : "";
    ui.delay.hidden = s === 0;
  };
  document.addEventListener("livetb:info", showDelay);
  // The provisional ranks beside the grid: rank, name and every value with its status.
  ui.ranks = el("standings-table", { class: "ranks", legend: true, quiet: true });
  ui.roundTitle = el("h2", {});
  const quick = quickEntry(grid, say);
  const close = el("button", { type: "button", dataset: { action: "close-round" }, onclick: oneAtATime(async () => {
    const rnd = grid.round?.round;
    if (!rnd) return;
    const answer = await send("POST", `${base}/rounds/${rnd}/close`, token);
    ui.notice.answered(answer, (done) => t("ops.closed", { round: rnd, seq: done.seq }));
    quick.board.focus(); // back to typing results: the missing boards are named
  }, ui.notice) }, t("ops.close"));
  ui.roundOnly = [quick.form, grid.missing, close, grid.root];
  ui.preRound = el("div", { class: "pre-round", hidden: true },
    el("p", {}, t("console.no_round")),
    el("div", { class: "actions" },
      el("button", { type: "button", onclick: () => panes.open("players") }, t("console.open_tab", { tab: t("tab.players") })),
      el("button", { type: "button", onclick: () => panes.open("pairings") }, t("console.open_tab", { tab: t("tab.pairings") }))));
  const results = el("div", { class: "console-results" },
    el("div", { class: "entry" }, ui.roundTitle, ui.preRound, quick.form, grid.missing, close, grid.root),
    el("aside", { class: "side", "aria-label": t("arbiter.ranks") }, el("h2", {}, t("arbiter.ranks")), el("div", { class: "scroll" }, ui.ranks)));
  const ctx = { tid, base, token: () => token, say, person, info: () => info, model: () => model, refresh: refreshInfo };
  const panes = tabs([
    ["results", t("tab.results"), results],
    ["pairings", t("tab.pairings"), pairingPanel(ctx)],
    ["sync", t("console.sync.tab"), syncPanel(ctx)],
    ["players", t("tab.players"), playersPanel(ctx)],
    ["ops", t("tab.ops"), operationsPanel(ctx)],
    ["setup", t("console.setup_tab"), el("div", { class: "form-stack" }, el("h2", {}, t("console.setup_tab")), delayForm(ctx), categoriesPanel(ctx), prizesPanel(ctx))],
    ["audit", t("tab.audit"), auditPanel(ctx)],
  ]);
  app.replaceChildren(
    el("header", { class: "top" },
      el("div", {}, el("h1", {}, info.name), el("p", { class: "sub" }, ui.state, " ", ui.badge), ui.delay),
      el("nav", { class: "links", "aria-label": t("arbiter.title") },
        el("a", { href: href(`/t/${tid}`) }, t("nav.standings")),
        el("a", { href: href(`/t/${tid}`, { print: "standings" }), target: "_blank" }, t("arbiter.print_standings")),
        el("a", { href: href(`/t/${tid}`, { print: "pairings" }), target: "_blank" }, t("arbiter.print_pairings")),
        el("a", { href: href(`/t/${tid}`, { print: "pairings", order: "name" }), target: "_blank" }, t("arbiter.print_by_name")),
        el("a", { href: href(`/t/${tid}/crosstable`, { print: "crosstable" }), target: "_blank" }, t("arbiter.print_crosstable")),
        el("button", { type: "button", class: "link", onclick: csv }, t("arbiter.csv")),
        el("button", { type: "button", class: "link", onclick: () => download("trf26") }, t("arbiter.trf26")),
        el("button", { type: "button", class: "link", onclick: () => download("trf16") }, t("arbiter.trf16")),
        el("button", { type: "button", class: "link", onclick: () => { sessionStorage.removeItem(`livetb.token.${tid}`); token = null; tokenForm(); } }, t("arbiter.forget"))),
      languageSwitch()),
    ui.notice,
    ...panes.nodes);
  showDelay();
  app.setAttribute("aria-busy", "false");
  if (said) say(said, "ok");
  quick.board.focus();
  ui.feed?.stop();
  ui.feed = await boot({
    token,
    onSnapshot: (m) => {
      model = m;
      grid.show(m.round);
      showRound(m.round);
      ui.state.textContent = stateLine(m.doc, info.rounds);
    },
    onDelta: (m, change) => {
      if (change.round) {
        grid.show(m.round);
        showRound(m.round);
      }
      for (const [rnd, board, result] of change.games) if (grid.round?.round === rnd) grid.confirmed(board, result, m.doc.seq);
      ui.state.textContent = stateLine(m.doc, info.rounds);
    },
    onRefused: () => tokenForm(t("err.not_authenticated")),
  });
  if (!ui.feed) return;
  ui.badge.replaceWith(ui.feed.status);
  ui.ranks.attach(ui.feed);
}

if (token) start();
else tokenForm();
