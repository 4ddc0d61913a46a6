// The console's forms: pairings (the pairing program's TRF, or FIDE's Berger tables), players
// (one by one, or a TRF player list), and round operations. Every write is previewed with
// ?dry_run=1 where there is something to look at first, and nothing is written until confirmed.
import { config, el, getJSON, oneAtATime, problem, send, statusLine } from "./common.js";
import { t } from "./i18n.js";
import { describe } from "./audit.js";

function field(id, label, attrs = {}) {
  const input = el("input", { id, name: id, autocomplete: "off", ...attrs });
  return [el("label", { for: id }, label), input];
}

function readFile(input) {
  const file = input.files?.[0];
  return file ? file.text() : Promise.resolve(null);
}

/** A late entry (a Swiss once round 1 is paired): what each round already paired counts for the
 * new player — absent unless the arbiter grants a bye. Hidden before the start and while an
 * existing player is edited. */
function lateEntry(ctx) {
  const node = el("fieldset", { class: "late", hidden: true }); // not a grid: `hidden` holds
  let selects = [];
  function update(registering) {
    const info = ctx.info();
    const open = registering && info.paired > 0 && info.system === "swiss" && info.kind !== "team" && info.closed < info.rounds;
    node.hidden = !open;
    if (!open) { selects = []; return; }
    // Any refresh lands here (a result, a tab shown): the same rounds keep their selects, so
    // the one being chosen keeps its focus and its choice.
    if (selects.length === info.paired) return;
    const kept = new Map(selects.map((s) => [s.dataset.round, s]));
    const focused = selects.find((s) => s === document.activeElement);
    selects = Array.from({ length: info.paired }, (_, i) => {
      const round = String(i + 1);
      return kept.get(round) ?? el("select", { id: `pl-missed-${round}`, name: `missed-${round}`, dataset: { round } },
        ["absent", "zero", "half"].map((v) => el("option", { value: v, selected: v === "absent" }, t(`players.missed.${v}`))));
    });
    node.replaceChildren(el("legend", {}, t("players.late")),
      el("p", { class: "hint" }, t("players.late_hint")),
      el("div", { class: "grid-form" },
        selects.flatMap((s) => [el("label", { for: s.id }, t("players.missed_round", { round: s.dataset.round })), s])));
    focused?.focus();
  }
  /** The command's `missed`: every round already paired, as chosen. */
  const body = () => (node.hidden ? {} : { missed: Object.fromEntries(selects.map((s) => [s.dataset.round, s.value])) });
  return { node, update, body, reset: () => { for (const s of selects) s.value = "absent"; } };
}

/** The previewed boards in the order they will be published (the server's numbering: FIDE's
 *  publication order for a TRF, the engine's own order, the Berger table's). The arbiter may
 *  move a board up or down — its buttons, or Alt+↑/↓ on its row — to match the pairing
 *  program's slips; the numbers follow the rows. `order` is what Publish sends. */
function boardsTable(ctx, boards, byes) {
  const who = (no) => `${ctx.person(no)?.name ?? "?"} (${no})`;
  const order = [...boards].sort((a, b) => a.board - b.board).map((b) => ({ white: b.white, black: b.black }));
  const body = el("tbody", {});
  const said = el("p", { class: "sr", role: "status", "aria-live": "polite" });

  function move(from, to, which) {
    if (to < 0 || to >= order.length) return;
    const [game] = order.splice(from, 1);
    order.splice(to, 0, game);
    render();
    said.textContent = t("pair.moved", { white: who(game.white), black: who(game.black), board: to + 1 });
    // Focus stays with the moved board (its other button once it reaches an end).
    const buttons = [...body.rows[to].querySelectorAll("button")];
    (buttons.find((b) => b.classList.contains(which) && !b.disabled) ?? buttons.find((b) => !b.disabled))?.focus();
  }

  function render() {
    body.replaceChildren(...order.map((g, i) => el("tr", { dataset: { board: i + 1 }, onkeydown: (ev) => {
      if (!ev.altKey || !["ArrowUp", "ArrowDown"].includes(ev.key)) return;
      ev.preventDefault();
      move(i, ev.key === "ArrowUp" ? i - 1 : i + 1, ev.key === "ArrowUp" ? "up" : "down");
    } },
      el("td", { class: "board" }, i + 1),
      el("td", {}, who(g.white)),
      el("td", {}, who(g.black)),
      el("td", { class: "move" },
        el("button", { type: "button", class: "up", "aria-label": t("pair.move_up", { board: i + 1 }), disabled: i === 0, onclick: () => move(i, i - 1, "up") }, "↑"),
        el("button", { type: "button", class: "down", "aria-label": t("pair.move_down", { board: i + 1 }), disabled: i === order.length - 1, onclick: () => move(i, i + 1, "down") }, "↓")))));
  }
  render();

  const node = el("div", { class: "preview" },
    el("p", { class: "hint", id: "p-order-hint" }, t("pair.order_hint")),
    el("div", { class: "scroll" }, el("table", { class: "pairings reorder", "aria-describedby": "p-order-hint" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", class: "board" }, t("pairings.board")),
        el("th", { scope: "col" }, t("pairings.white")),
        el("th", { scope: "col" }, t("pairings.black")),
        el("th", { scope: "col" }, t("pair.order")))),
      body)),
    byes.length ? el("p", {}, `${t("pairings.bye")}: ${byes.map(who).join(", ")}`) : null,
    said);
  return { node, order };
}

export function pairingPanel(ctx) {
  const info = ctx.info();
  const status = statusLine({ id: "p-status" });
  const round = el("input", { id: "p-round", name: "round", type: "number", min: 1, max: info.rounds, value: Math.min(info.paired + 1, info.rounds) });
  const text = el("textarea", { id: "p-trf", name: "trf", rows: 8, spellcheck: "false", "aria-describedby": "p-trf-hint" });
  const file = el("input", { id: "p-file", name: "file", type: "file", accept: ".trf,.txt,text/plain" });
  const preview = el("div", {});
  let pending = null; // what Publish sends: the previewed round, its boards as shown
  // The round follows the tournament (the next one to pair) until the arbiter types another.
  let chosen = false;
  round.addEventListener("input", () => { chosen = true; });
  document.addEventListener("livetb:info", () => {
    if (!chosen) round.value = Math.min(ctx.info().paired + 1, ctx.info().rounds);
  });

  async function show(request) {
    const path = `${ctx.base}/rounds/${round.value}/pairings`;
    const answer = await send("POST", path, ctx.token(), request.body, { text: request.text ?? null, dryRun: true });
    if (!answer.ok) {
      pending = null;
      preview.replaceChildren();
      status.say(problem(answer), "error");
      return;
    }
    const paired = answer.body.events.find((e) => e.type === "RoundPaired");
    const table = boardsTable(ctx, paired.boards, [paired.bye, ...(paired.more_byes ?? [])].filter((no) => no));
    pending = { paired, order: table.order };
    status.say(t("pair.previewed", { round: round.value, n: paired.boards.length }), "info");
    preview.replaceChildren(table.node, publish);
    publish.focus();
  }

  const publish = el("button", { type: "button", class: "primary", onclick: oneAtATime(async () => {
    if (!pending) return;
    // The boards as the preview shows them (moved or not), numbered from 1: JSON keeps them.
    const { paired, order } = pending;
    const body = { boards: order.map((g, i) => ({ board: i + 1, white: g.white, black: g.black })), bye: paired.bye ?? null };
    if (paired.team_bye?.length) body.team_bye = paired.team_bye;
    if (paired.more_byes?.length) body.more_byes = paired.more_byes;
    const answer = await send("POST", `${ctx.base}/rounds/${round.value}/pairings`, ctx.token(), body);
    status.answered(answer, (done) => t("pair.published", { round: round.value, seq: done.seq }));
    if (answer.ok) { pending = null; chosen = false; preview.replaceChildren(); ctx.refresh(); }
  }, status) }, t("pair.publish"));

  const fromTrf = el("button", { type: "button", onclick: oneAtATime(async () => {
    const data = (await readFile(file)) ?? text.value;
    if (!data.trim()) { status.say(t("pair.nothing"), "error"); return; }
    await show({ text: data });
  }, status, "console.checking") }, t("pair.preview"));

  const rr = bergerPart(ctx, round, show, (text) => status.say(text, "error"));

  return el("div", { class: "form-stack" },
    el("h2", {}, t("tab.pairings")),
    el("div", { class: "row" }, el("label", { for: "p-round" }, t("pair.round")), round),
    el("label", { for: "p-trf" }, t("pair.paste")), el("p", { class: "hint", id: "p-trf-hint" }, t("pair.paste_hint")), text,
    el("label", { for: "p-file" }, t("pair.upload")), file,
    el("div", { class: "actions" }, fromTrf),
    rr,
    status, preview);
}

/** FIDE's Berger tables: offered for a round robin of as many players as the tables cover
 * (the server's limits, in the page's settings), kept in step as players are registered. */
function bergerPart(ctx, round, show, refuse) {
  const [low, high] = config.berger;
  const double = el("input", { id: "p-double", name: "double", type: "checkbox" });
  const hint = el("p", { class: "hint", id: "p-berger-hint" });
  const button = el("button", { type: "button", id: "p-berger", "aria-describedby": "p-berger-hint", onclick: async () => {
    const players = ctx.info().participants.length;
    const answer = await send("GET", `/api/berger?players=${players}${double.checked ? "&double=1" : ""}`, ctx.token());
    if (!answer.ok) {
      refuse(answer.status === 0 ? problem(answer) : t("console.berger_failed", { n: players, min: low, max: high }));
      return;
    }
    const rnd = answer.body.rounds[Number(round.value) - 1];
    if (!rnd) { refuse(t("pair.no_such_round", { round: round.value, n: answer.body.rounds.length })); return; }
    // The Berger bye (an odd field) sits out unpaired — absent, not a pairing-allocated bye.
    await show({ body: { boards: rnd.boards } });
  } }, t("pair.berger"));
  const choices = el("div", {}, el("div", { class: "row" }, double, el("label", { for: "p-double" }, t("pair.double"))),
    el("div", { class: "actions" }, button));
  const part = el("div", { class: "berger" }, el("h3", {}, t("pair.rr")), hint, choices);
  function update() {
    const n = ctx.info().participants.length;
    const fits = low <= n && n <= high;
    part.hidden = ctx.info().system !== "roundrobin";
    choices.hidden = !fits;
    hint.textContent = fits ? t("pair.rr_hint") : t("console.berger_size", { n, min: low, max: high });
  }
  document.addEventListener("livetb:info", update);
  update();
  return part;
}

export function playersPanel(ctx) {
  const status = statusLine({ id: "pl-status" });
  const list = el("tbody", {});
  const [noLabel, no] = field("pl-no", t("col.no"), { type: "number", min: 1, required: true });
  const [nameLabel, name] = field("pl-name", t("col.name"), { required: true, maxlength: 100 });
  const [ratingLabel, rating] = field("pl-rating", t("col.rating"), { type: "number", min: 0, max: 3500 });
  const [titleLabel, title] = field("pl-title", t("col.title"), { maxlength: 3 });
  const [fedLabel, fed] = field("pl-fed", t("col.fed"), { maxlength: 3 });
  const [fideLabel, fide] = field("pl-fide", t("players.fide_id"), { inputmode: "numeric", maxlength: 12 });
  const sex = el("select", { id: "pl-sex", name: "pl-sex" },
    ["", "m", "w"].map((v) => el("option", { value: v }, t(`players.sex.${v || "unknown"}`))));
  const sexLabel = el("label", { for: "pl-sex" }, t("players.sex"));
  // What the server takes (a TRF's ways of writing it): YYYY/MM/DD, YYYY-MM-DD or the year.
  const [bornLabel, born] = field("pl-born", t("players.birth_date"), {
    inputmode: "numeric", maxlength: 10, pattern: "\\d{4}([\\-\\/.]\\d{2}[\\-\\/.]\\d{2})?", placeholder: t("players.birth_date_placeholder"),
    "aria-describedby": "pl-born-hint",
  });
  const bornHint = el("p", { class: "hint", id: "pl-born-hint" }, t("players.birth_date_hint"));
  const bornCheck = () => {
    born.setCustomValidity("");
    if (!born.validity.valid) born.setCustomValidity(t("players.birth_date_invalid"));
  };
  born.addEventListener("input", bornCheck);
  const details = [name, rating, title, fed, fide, sex, born];
  const late = lateEntry(ctx);
  let editing = null;

  /** The next free start number: after every one known (and `taken`, not yet listed). */
  const nextNo = (taken = 0) => Math.max(taken, ...ctx.info().participants.map((p) => p.start_no)) + 1;

  function refresh() {
    const info = ctx.info();
    late.update(!editing);
    // The server refuses a change of details once round 1 is paired; K stays open.
    const fixed = info.paired > 0;
    fixedNote.hidden = !fixed;
    if (fixed && editing) cancelEdit();
    const focused = list.contains(document.activeElement) ? document.activeElement : null;
    list.replaceChildren(...info.participants.map((p) => el("tr", { dataset: { startNo: p.start_no, ...(p.withdrawn_from ? { withdrawn: p.withdrawn_from } : {}) } },
      el("td", {}, p.start_no),
      el("td", {}, p.name, p.withdrawn_from ? [" ", el("span", { class: "withdrawn" }, t("players.withdrawn", { round: p.withdrawn_from }))] : null),
      el("td", {}, p.rating ?? ""), el("td", {}, p.title), el("td", {}, p.federation),
      el("td", {}, p.sex ? t(`players.sex.${p.sex}`) : ""), el("td", {}, p.birth_date ?? ""),
      el("td", {}, kField(p)),
      el("td", {}, fixed ? "" : el("button", { type: "button", onclick: () => edit(p) }, t("players.edit", { name: p.name }))))));
    if (!editing) no.value = nextNo();
    if (focused?.isConnected) focused.focus(); // rows are rebuilt; the K being typed keeps focus
    const shown = new Set(info.participants.map((p) => `${p.start_no}\u0000${p.name}`));
    for (const key of kForms.keys()) if (!shown.has(key)) kForms.delete(key);
  }

  // The K in effect (set or default) shown as each K field's placeholder, read from the
  // participant's rating change when its row first comes into view: one request per row
  // looked at, not one per player at every refresh.
  const kInEffect = new Map();
  async function loadK(input, no) {
    const answer = await send("GET", `${ctx.base}/participants/${no}/rating`, ctx.token());
    if (!answer.ok || answer.body.k === null) return;
    kInEffect.set(no, String(answer.body.k));
    input.placeholder = String(answer.body.k);
  }
  const kSeen = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      kSeen.unobserve(entry.target);
      const no = Number(entry.target.id.slice("pl-k-".length));
      if (!kInEffect.has(no)) loadK(entry.target, no);
    }
  });

  // A row's K form is kept across refreshes: an event landing while the arbiter types a K
  // must not swap the field for an empty one (Enter would then clear K instead of setting it).
  const kForms = new Map();
  function kField(p) {
    const key = `${p.start_no}\u0000${p.name}`;
    if (!kForms.has(key)) kForms.set(key, kForm(p));
    return kForms.get(key);
  }

  /** K for the rating change, set at any time; empty: the default from rating and age. */
  function kForm(p) {
    const id = `pl-k-${p.start_no}`;
    const input = el("input", { id, name: id, type: "number", min: 1, max: 100, step: 1, class: "k", placeholder: kInEffect.get(p.start_no) ?? t("players.k_default") });
    kSeen.observe(input);
    return el("form", { class: "k-form", onsubmit: oneAtATime(async (e) => {
      e.preventDefault();
      const k = input.value === "" ? null : Number(input.value);
      const answer = await send("PATCH", `${ctx.base}/participants/${p.start_no}`, ctx.token(), { k });
      status.answered(answer, (done) => t(k === null ? "players.k_cleared" : "players.k_saved", { name: p.name, k, seq: done.seq }));
      if (answer.ok) { kInEffect.delete(p.start_no); input.value = ""; loadK(input, p.start_no); }
    }, status) }, el("label", { for: id, class: "sr" }, t("players.k_label", { name: p.name })), input,
      el("button", { type: "submit" }, t("players.k_set")));
  }

  function cancelEdit() {
    editing = null;
    no.disabled = false;
    submit.textContent = t("players.register");
    for (const input of details) input.value = "";
    bornCheck();
  }

  function edit(p) {
    editing = p.start_no;
    no.value = p.start_no;
    no.disabled = true;
    name.value = p.name;
    rating.value = p.rating ?? "";
    title.value = p.title;
    fed.value = p.federation;
    fide.value = p.fide_id ?? "";
    sex.value = p.sex ?? "";
    born.value = p.birth_date ?? "";
    bornCheck();
    submit.textContent = t("players.save");
    late.update(false);
    name.focus();
  }

  async function reload() {
    const fresh = await getJSON(ctx.base, ctx.token());
    Object.assign(ctx.info(), { participants: fresh.participants, paired: fresh.paired, closed: fresh.closed });
    refresh();
  }

  const submit = el("button", { type: "submit", class: "primary" }, t("players.register"));
  const form = el("form", { class: "grid-form", onsubmit: oneAtATime(async (e) => {
    e.preventDefault();
    const body = { name: name.value.trim(), rating: rating.value ? Number(rating.value) : null, title: title.value.trim(), federation: fed.value.trim().toUpperCase(), fide_id: fide.value.trim(),
      sex: sex.value, birth_date: born.value.trim() };
    const answer = editing
      ? await send("PATCH", `${ctx.base}/participants/${editing}`, ctx.token(), body)
      : await send("POST", `${ctx.base}/participants`, ctx.token(), { start_no: Number(no.value), ...body, ...late.body() });
    status.answered(answer, (done) => t("players.saved", { name: body.name, seq: done.seq }));
    if (answer.ok) {
      const registered = editing ? 0 : Number(no.value);
      editing = null;
      no.disabled = false;
      submit.textContent = t("players.register");
      for (const input of details) input.value = "";
      bornCheck();
      late.reset(); // the next entrant starts from absent again
      // The next free number at once: the next entrant may be sent before the list is read
      // again (not awaited, so this submit is over and the next one is not held back).
      no.value = nextNo(registered);
      name.focus();
      reload();
    }
  }, status) }, noLabel, no, nameLabel, name, ratingLabel, rating, titleLabel, title, fedLabel, fed, fideLabel, fide,
    sexLabel, sex, bornLabel, born, bornHint, late.node, submit);
  const fixedNote = el("p", { class: "hint", id: "pl-fixed", hidden: true }, t("players.fixed"));
  document.addEventListener("livetb:info", refresh); // a round paired since: one more to choose

  const trf = el("textarea", { id: "pl-trf", name: "players-trf", rows: 6, spellcheck: "false" });
  const file = el("input", { id: "pl-file", name: "players-file", type: "file", accept: ".trf,.txt,text/plain" });
  const preview = el("div", {});
  let staged = null;
  const confirm = el("button", { type: "button", class: "primary", onclick: oneAtATime(async () => {
    if (staged === null) return;
    const answer = await send("POST", `${ctx.base}/participants`, ctx.token(), undefined, { text: staged });
    status.answered(answer, (done) => t("players.imported", { seq: done.seq }));
    if (answer.ok) { staged = null; preview.replaceChildren(); await reload(); }
  }, status) }, t("players.confirm"));
  const check = el("button", { type: "button", onclick: oneAtATime(async () => {
    const data = (await readFile(file)) ?? trf.value;
    const answer = await send("POST", `${ctx.base}/participants`, ctx.token(), undefined, { text: data, dryRun: true });
    if (!answer.ok) { staged = null; preview.replaceChildren(); status.say(problem(answer), "error"); return; }
    staged = data;
    const people = answer.body.events.filter((e) => e.type === "ParticipantRegistered");
    status.say(t("players.previewed", { n: people.length }), "info");
    preview.replaceChildren(el("div", { class: "scroll" }, el("table", { class: "pairings players-preview" },
      el("thead", {}, el("tr", {}, [t("col.no"), t("col.name"), t("col.rating"), t("col.title"), t("col.fed"), t("players.fide_id")]
        .map((label) => el("th", { scope: "col" }, label)))),
      el("tbody", {}, people.map((p) => el("tr", {}, el("td", {}, p.start_no), el("td", {}, p.name), el("td", {}, p.rating ?? ""),
        el("td", {}, p.title), el("td", {}, p.federation), el("td", {}, p.fide_id)))))), confirm);
    confirm.focus();
  }, status, "console.checking") }, t("players.preview"));

  refresh();
  return el("div", { class: "form-stack" },
    el("h2", {}, t("tab.players")), form, status,
    el("h3", {}, t("players.from_trf")),
    el("label", { for: "pl-trf" }, t("players.paste")), trf,
    el("label", { for: "pl-file" }, t("pair.upload")), file,
    el("div", { class: "actions" }, check), preview,
    el("h3", {}, t("players.list")), fixedNote,
    el("div", { class: "scroll" }, el("table", { class: "pairings players-list" },
      el("thead", {}, el("tr", {}, [t("col.no"), t("col.name"), t("col.rating"), t("col.title"), t("col.fed"), t("players.sex"), t("players.birth_date"), t("players.k"), ""]
        .map((label) => el("th", { scope: "col" }, label)))), list)));
}

/** A start number field that names the participant as it is typed, or says nobody has it. */
function whoField(ctx, id) {
  const [label, input] = field(id, t("col.no"), { type: "number", min: 1, required: true, "aria-describedby": `${id}-who` });
  const who = el("span", { id: `${id}-who`, class: "who" });
  const find = () => ctx.info().participants.find((p) => p.start_no === Number(input.value)) ?? null;
  const unknown = () => t("console.who_unknown", { no: input.value.trim() });
  function update() {
    const typed = input.value.trim();
    const p = typed ? find() : null;
    who.dataset.tone = typed && !p ? "error" : "info";
    if (!typed) who.textContent = "";
    else if (!p) who.textContent = unknown();
    else who.textContent = p.withdrawn_from ? t("console.who_withdrawn", { name: p.name, round: p.withdrawn_from }) : p.name;
  }
  input.addEventListener("input", update);
  document.addEventListener("livetb:info", update);
  return { label, input, control: el("div", { class: "with-who" }, input, who), check: () => (find() ? null : unknown()) };
}

/** The withdrawn players, to choose one (kept in step with the tournament): its start number
 * as the select's value; none withdrawn, nothing to choose and a refusal in words. */
function withdrawnField(ctx, id) {
  const select = el("select", { id, name: id, "aria-describedby": `${id}-hint` });
  const label = el("label", { for: id }, t("ops.withdrawn_player"));
  let shown = null;
  function update() {
    const kept = select.value;
    const away = ctx.info().participants.filter((p) => p.withdrawn_from);
    // Every refresh lands here: the same choices stay as they are (a list open on a phone
    // would otherwise close under the arbiter's finger).
    const now = JSON.stringify(away.map((p) => [p.start_no, p.name, p.withdrawn_from]));
    if (now === shown) return;
    shown = now;
    select.replaceChildren(...(away.length
      ? away.map((p) => el("option", { value: p.start_no, selected: String(p.start_no) === kept },
        t("ops.withdrawn_option", { name: p.name, no: p.start_no, round: p.withdrawn_from })))
      : [el("option", { value: "" }, t("ops.none_withdrawn"))]));
  }
  document.addEventListener("livetb:info", update);
  update();
  return { label, input: select, check: () => (select.value ? null : t("ops.none_withdrawn")) };
}

/** A write previewed first: Preview asks the server what it would append (?dry_run=1) and
 * shows it in words; Confirm sends that same request; any edit of the form drops the preview. */
function previewedForm(ctx, { id, title, inputs, check, request }) {
  const status = statusLine({ id: `${id}-status` });
  const preview = el("div", { class: "preview write-preview", id: `${id}-preview`, hidden: true });
  const name = (no) => ctx.person(no)?.name ?? "?";
  let pending = null;
  const drop = () => { pending = null; preview.hidden = true; preview.replaceChildren(); };
  const confirm = el("button", { type: "button", class: "primary", onclick: oneAtATime(async () => {
    const staged = pending;
    if (!staged) return;
    drop();
    const answer = await send("POST", staged.path, ctx.token(), staged.body);
    if (!answer.ok) { status.say(problem(answer), "error"); return; }
    const what = staged.events.map((e) => describe({ event: e }, name)).join("; ");
    status.say(t("console.written", { what, seq: answer.body.seq }), "ok");
    ctx.refresh();
  }, status) }, t("console.confirm"));
  const cancel = el("button", { type: "button", onclick: () => {
    drop();
    status.say(t("console.cancelled"), "info");
    inputs[0][1].focus();
  } }, t("console.cancel"));
  const form = el("form", { class: "grid-form", id: `${id}-form`, "aria-labelledby": `${id}-h`, onsubmit: oneAtATime(async (e) => {
    e.preventDefault();
    drop();
    const refusal = check();
    if (refusal) { status.say(refusal, "error"); return; }
    const req = request();
    const answer = await send("POST", req.path, ctx.token(), req.body, { dryRun: true });
    if (!answer.ok) { status.say(problem(answer), "error"); return; }
    pending = { ...req, events: answer.body.events };
    preview.replaceChildren(el("p", {}, t("console.will_write")),
      el("ul", {}, pending.events.map((ev) => el("li", {}, describe({ event: ev }, name)))),
      el("div", { class: "actions" }, confirm, cancel));
    preview.hidden = false;
    status.say(t("console.previewed"), "info");
    confirm.focus();
  }, status, "console.checking") }, el("h3", { id: `${id}-h` }, title), ...inputs.flat(), el("button", { type: "submit" }, t("console.preview")), preview, status);
  form.addEventListener("input", drop);
  return form;
}

export function operationsPanel(ctx) {
  const info = ctx.info();
  const next = Math.min(info.paired + 1, info.rounds);
  const form = (id, title, inputs, action) => {
    const status = statusLine();
    const done = status.answered;
    return el("form", { class: "grid-form", "aria-labelledby": `${id}-h`, onsubmit: oneAtATime(async (e) => {
      e.preventDefault();
      await action(done);
    }, status) }, el("h3", { id: `${id}-h` }, title), ...inputs.flat(), el("button", { type: "submit" }, title), status);
  };

  const w = whoField(ctx, "w-no");
  const [wRoundL, wRound] = field("w-round", t("ops.from_round"), { type: "number", min: 1, max: info.rounds, required: true, value: next });
  const r = withdrawnField(ctx, "r-no");
  const [rRoundL, rRound] = field("r-round", t("ops.back_from_round"), { type: "number", min: 1, max: info.rounds, required: true, value: next });
  // The round back follows the tournament (the next one to pair) until the arbiter types one.
  let rChosen = false;
  rRound.addEventListener("input", () => { rChosen = true; });
  document.addEventListener("livetb:info", () => {
    if (!rChosen) rRound.value = Math.min(ctx.info().paired + 1, ctx.info().rounds);
  });
  const b = whoField(ctx, "b-no");
  const [bRoundL, bRound] = field("b-round", t("pair.round"), { type: "number", min: 1, max: info.rounds, required: true, value: next });
  const bPoints = el("select", { id: "b-points", name: "points" }, el("option", { value: "half" }, t("bye.half")), el("option", { value: "zero" }, t("bye.zero")));
  const [seedL, seed] = field("l-seed", t("ops.seed"), { type: "number", min: 0, max: 2147483647, required: true });
  const [orderL, order] = field("po-order", t("ops.order"), { required: true, pattern: "\\s*\\d+(\\s*,\\s*\\d+)+\\s*", placeholder: "4, 9" });

  return el("div", { class: "form-stack" },
    el("h2", {}, t("tab.ops")),
    previewedForm(ctx, { id: "withdraw", title: t("ops.withdraw"), inputs: [[w.label, w.control], [wRoundL, wRound]], check: w.check,
      request: () => ({ path: `${ctx.base}/withdrawals`, body: { start_no: Number(w.input.value), from_round: Number(wRound.value) } }) }),
    previewedForm(ctx, { id: "reinstate", title: t("ops.reinstate"), inputs: [[r.label, r.input], [rRoundL, rRound],
      [el("p", { class: "hint", id: "r-no-hint" }, t("ops.reinstate_hint"))]], check: r.check,
      request: () => ({ path: `${ctx.base}/reinstatements`, body: { start_no: Number(r.input.value), from_round: Number(rRound.value) } }) }),
    previewedForm(ctx, { id: "bye", title: t("ops.bye"), inputs: [[b.label, b.control], [bRoundL, bRound], [el("label", { for: "b-points" }, t("ops.points")), bPoints]], check: b.check,
      request: () => ({ path: `${ctx.base}/byes`, body: { start_no: Number(b.input.value), round: Number(bRound.value), points: bPoints.value } }) }),
    form("lots", t("ops.lots"), [seedL, seed, el("button", { type: "button", onclick: () => { seed.value = crypto.getRandomValues(new Uint32Array(1))[0] % 2147483647; } }, t("ops.random_seed"))], async (done) =>
      done(await send("POST", `${ctx.base}/lots`, ctx.token(), { seed: Number(seed.value) }), (body) => t("ops.lots_done", { seed: seed.value, seq: body.seq }))),
    form("playoff", t("ops.playoff"), [orderL, order], async (done) =>
      done(await send("POST", `${ctx.base}/playoffs`, ctx.token(), { order: order.value.split(",").map((x) => Number(x.trim())) }),
        (body) => t("ops.done", { seq: body.seq }))));
}
