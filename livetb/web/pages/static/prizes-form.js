// The console's prize table editor: the allocation rule, one prize per player, the currency and
// one row per prize (the main list or a category, place, amount, label), saved whole with PUT;
// under it the provisional prize list as the server computes it now.
import { el, getJSON, loadHeld, oneAtATime, problem, send, statusLine } from "./common.js";
import { t } from "./i18n.js";
import { pathInput, showFieldError } from "./categories-form.js";
import { delaySpan, money, ordinal, paid, prizeName } from "./words.js";

let rows = 0;

function prizeRow(index, prize, codes, remove) {
  const n = ++rows;
  const p = (key) => `$.prizes[${index}].${key}`;
  const listId = `pz-list-${n}`;
  // A list no longer among the categories stays offered: the server then refuses it at this
  // field, rather than the prize moving to another list unseen.
  const options = (codes, chosen) => [...new Set(["main", ...codes, chosen])]
    .map((code) => el("option", { value: code, selected: code === chosen }, code === "main" ? t("prizeform.main") : code));
  const list = el("select", { id: listId, name: listId, dataset: { path: p("list") }, "aria-describedby": `${listId}-err` },
    options(codes, prize.list ?? "main"));
  const place = pathInput(p("place"), `pz-place-${n}`, t("prizeform.place"), { type: "number", min: 1, max: 999, required: true, value: prize.place ?? "" });
  const amount = pathInput(p("amount"), `pz-amount-${n}`, t("prizeform.amount"), { inputmode: "decimal", value: prize.amount ?? "", placeholder: "100" });
  const label = pathInput(p("label"), `pz-label-${n}`, t("prizeform.label"), { maxlength: 100, value: prize.label ?? "" });
  const node = el("fieldset", { class: "prize-row", dataset: { row: index } },
    el("legend", {}, t("prizeform.row", { n: index + 1 })),
    el("div", { class: "fields" },
      el("div", { class: "field" }, el("label", { for: listId }, t("prizeform.list")), list, el("span", { id: `${listId}-err`, class: "field-error" })),
      place.cell, amount.cell, label.cell),
    el("button", { type: "button", class: "remove", onclick: remove }, t("prizeform.remove", { n: index + 1 })));
  // The amount goes as typed (a decimal comma read as a point): the server keeps it exact.
  const read = () => ({
    list: list.value, place: Number(place.input.value),
    amount: amount.input.value.trim().replace(",", ".") || "0",
    ...(label.input.value.trim() ? { label: label.input.value.trim() } : {}),
  });
  return { node, read, focus: () => list.focus(), offer: (codes) => list.replaceChildren(...options(codes, list.value)) };
}

export function prizesPanel(ctx) {
  const status = statusLine({ id: "pz-status" });
  const rule = el("select", { id: "pz-rule", name: "rule", dataset: { path: "$.rule" } },
    ["ranking", "shared", "hort"].map((r) => el("option", { value: r }, t(`prizeform.rule.${r}`))));
  const one = el("input", { id: "pz-one", name: "one_prize_per_player", type: "checkbox", checked: true });
  const currency = pathInput("$.currency", "pz-currency", t("prizeform.currency"), { required: true, maxlength: 3, value: "EUR", pattern: "[A-Za-z]{3}", autocapitalize: "characters" });
  const body = el("div", { class: "prize-rows" });
  const awards = el("div", { id: "pz-awards" });
  let drafts = [];
  let codes = [];
  let made = [];
  let edited = false; // since the table was last loaded: kept when the categories change

  function draw(focusLast = false) {
    made = drafts.map((prize, i) => prizeRow(i, prize, codes, () => {
      drafts = made.map((r) => r.read()).filter((_, k) => k !== i);
      edited = true;
      draw();
      status.say(t("prizeform.removed", { n: i + 1 }), "info");
      add.focus();
    }));
    body.replaceChildren(...made.map((r) => r.node));
    if (focusLast && made.length) made.at(-1).focus();
  }

  /** " (1st–4th shared by 4)": the places a shared prize's group occupies. */
  const shareOf = (a) => (a.shared > 1
    ? ` (${t("prize.shared", { n: a.shared, first: ordinal(a.places[0]), last: ordinal(a.places[1]) })})`
    : "");

  /** The label of the prize an award is part of (a share names it on its first line only). */
  const labelOf = (doc, a) => a.label || doc.prizes.find((p) => p.list === a.list && p.place === a.place)?.label || "";

  function showAwards(doc) {
    if (!doc.rule) { awards.replaceChildren(el("p", {}, t("prizeform.no_table"))); return; }
    const head = doc.status === "final" ? t("prizeform.final")
      : doc.after_round ? t("prizeform.provisional", { round: doc.after_round }) : t("prizeform.provisional_start");
    awards.replaceChildren(el("p", {}, head), el("div", { class: "scroll" }, el("table", { class: "pairings prize-awards" },
      el("thead", {}, el("tr", {}, [t("prizeform.prize"), t("col.no"), t("col.name"), t("prizeform.amount")].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, doc.awards.length
        ? doc.awards.map((a) => el("tr", { dataset: { startNo: a.start_no } },
          el("td", {}, prizeName(a.list, a.place) + shareOf(a) + (a.label && paid(a.amount) ? ` · ${a.label}` : "")),
          el("td", {}, a.start_no), el("td", {}, a.name),
          // a trophy without an amount: its label where the amount would be, never "€0"
          el("td", { class: "amount" }, paid(a.amount) ? money(a.amount, doc.currency) : labelOf(doc, a) || "–")))
        : [el("tr", {}, el("td", { colspan: 4 }, t("prizeform.nobody")))]))));
  }

  /** The table as saved and the awards it gives now; a table being edited keeps its rows and
   *  only learns the categories' new codes (`saved`: the edits are what was just saved). */
  async function load(saved = false) {
    try {
      const [cats, doc] = await Promise.all([getJSON(`${ctx.base}/categories`, ctx.token()), getJSON(`${ctx.base}/prizes`, ctx.token())]);
      codes = cats.categories.map((c) => c.code);
      if (edited && !saved) {
        for (const row of made) row.offer(codes);
      } else {
        if (doc.rule) {
          rule.value = doc.rule;
          one.checked = doc.one_prize_per_player;
          currency.input.value = doc.currency;
        }
        drafts = doc.prizes.map((x) => ({ ...x }));
        edited = false;
        draw();
      }
      showAwards(doc);
      return true;
    } catch (err) {
      status.say(err.message, "error");
    }
  }

  const add = el("button", { type: "button", onclick: () => {
    const kept = made.map((r) => r.read());
    const last = kept.at(-1);
    drafts = [...kept, { list: last?.list ?? "main", place: last ? last.place + 1 : 1 }];
    edited = true;
    draw(true);
  } }, t("prizeform.add"));
  const form = el("form", { class: "prizes-form", "aria-labelledby": "pz-h", onsubmit: oneAtATime(async (e) => {
    e.preventDefault();
    const table = { rule: rule.value, one_prize_per_player: one.checked, currency: currency.input.value.trim().toUpperCase(), prizes: made.map((r) => r.read()) };
    const answer = await send("PUT", `${ctx.base}/prizes`, ctx.token(), table);
    if (!answer.ok) {
      showFieldError(form, answer);
      status.say(problem(answer), "error");
      return;
    }
    showFieldError(form, null);
    status.say(t("prizeform.saved", { n: table.prizes.length, seq: answer.body.seq }), "ok");
    await load(true);
  }, status) },
    el("h3", { id: "pz-h" }, t("prizeform.title")),
    el("div", { class: "fields" },
      el("div", { class: "field" }, el("label", { for: "pz-rule" }, t("prizeform.rule")), rule),
      currency.cell,
      el("div", { class: "field row" }, one, el("label", { for: "pz-one" }, t("prizeform.one")))),
    el("p", { class: "hint" }, t("prizeform.hint")),
    body,
    el("div", { class: "actions" }, add, el("button", { type: "submit", class: "primary" }, t("prizeform.save"))),
    status);
  form.addEventListener("input", () => { edited = true; });
  document.addEventListener("livetb:categories", () => load()); // the lists a prize may name
  loadHeld(form, load);
  return el("div", { class: "form-stack" }, form, el("h3", {}, t("prizeform.current")), awards);
}

/** The broadcast delay: minutes or seconds (0–3600 s) with PATCH; says when public views lag. */
export function delayForm(ctx) {
  const status = statusLine({ id: "delay-status" });
  const now = el("p", { class: "delay-now", id: "delay-now" });
  const amount = el("input", { id: "delay-amount", name: "delay", type: "number", min: 0, max: 3600, step: 1, required: true, "aria-describedby": "delay-now" });
  const unit = el("select", { id: "delay-unit", name: "unit", "aria-label": t("delay.unit") },
    el("option", { value: "60" }, t("delay.minutes")), el("option", { value: "1" }, t("delay.seconds")));
  function show(seconds) {
    now.dataset.delayed = String(seconds > 0);
    now.textContent = seconds > 0 ? t("delay.behind", { span: delaySpan(seconds) }) : t("delay.live");
    if (document.activeElement !== amount) {
      const minutes = seconds % 60 === 0;
      unit.value = minutes ? "60" : "1";
      amount.value = minutes ? seconds / 60 : seconds;
    }
  }
  const form = el("form", { class: "delay-form", "aria-labelledby": "delay-h", onsubmit: oneAtATime(async (e) => {
    e.preventDefault();
    const seconds = Number(amount.value) * Number(unit.value);
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > 3600) { status.say(t("delay.range"), "error"); amount.focus(); return; }
    const answer = await send("PATCH", ctx.base, ctx.token(), { public_delay: seconds });
    if (!answer.ok) { status.say(problem(answer), "error"); return; }
    status.say(t("delay.saved", { seq: answer.body.seq }), "ok");
    ctx.info().public_delay = seconds;
    show(seconds);
    ctx.refresh(); // the header's line too
  }, status) },
    el("h3", { id: "delay-h" }, t("delay.title")),
    el("label", { for: "delay-amount" }, t("delay.label")), el("div", { class: "row" }, amount, unit),
    el("button", { type: "submit" }, t("delay.set")), now, status);
  document.addEventListener("livetb:info", () => show(ctx.info().public_delay ?? 0));
  show(ctx.info().public_delay ?? 0);
  return form;
}
