// The console's categories editor: the categories as the server has them now, one row each
// (code, name and the criteria a member must all meet), saved whole with PUT. A refusal (422)
// names a field by its JSON path; the message is shown beside that input and nothing is saved.
import { el, getJSON, loadHeld, oneAtATime, problem, send, serverWords, statusLine } from "./common.js";
import { t } from "./i18n.js";

/** An input that answers to a JSON path of the request (`$.categories[1].rating_max`): a
 * refusal naming that path is shown beside it, and cleared by the next save. */
export function pathInput(path, id, label, attrs = {}) {
  const input = el("input", { id, name: id, autocomplete: "off", dataset: { path }, "aria-describedby": `${id}-err`, ...attrs });
  const error = el("span", { id: `${id}-err`, class: "field-error" });
  return { input, cell: el("div", { class: "field" }, el("label", { for: id }, label), input, error) };
}

/** Clear every field error under `root`; then show `answer`'s at the input its path names
 * (or its nearest parent path), falling back to the status line. True when placed. */
export function showFieldError(root, answer) {
  for (const node of root.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  for (const node of root.querySelectorAll(".field-error")) node.textContent = "";
  // A schema refusal names `path` ("$.categories[1].rating_max"); a check of the command
  // (an unknown start number) names `field` ("categories[1].members[0]").
  let path = answer?.body?.path ?? (answer?.body?.field ? `$.${answer.body.field}` : null);
  while (path) {
    const input = root.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      // At the field, the server's words without the path the field already stands for: a
      // schema refusal's reason alone, a check's words after the field they start with.
      const { said } = answer.body;
      const words = String(said?.key === "input.schema.at" ? t(said.params.reason.key, said.params.reason.params) : serverWords(answer.body) ?? "");
      const full = answer.body.path ?? "";
      const named = [full, full.replace(/^\$\./, "")].find((p) => p && words.startsWith(p));
      const message = named ? words.slice(named.length).replace(/^:?\s*/, "") : words;
      // A schema refusal has only the server's words; a check's code has the catalog's.
      const shown = answer.body.code === "invalid_input" && message ? message
        : problem(answer) + (answer.body.value !== undefined ? ` (${answer.body.value})` : "");
      document.getElementById(input.getAttribute("aria-describedby")).textContent = shown;
      input.focus();
      return true;
    }
    path = path.replace(/(\.[^.[]+|\[\d+\])$/, "");
    if (path === "$") break;
  }
  return false;
}

const list = (text) => text.split(/[\s,;]+/).filter(Boolean);

let rows = 0;

/** One category's row; `read()` gives the request's object for it (only the criteria set). */
function categoryRow(index, c, remove) {
  const n = ++rows;
  const p = (key) => `$.categories[${index}].${key}`;
  const code = pathInput(p("code"), `cat-code-${n}`, t("catform.code"), { required: true, maxlength: 20, value: c.code ?? "" });
  const name = pathInput(p("name"), `cat-name-${n}`, t("catform.name"), { required: true, maxlength: 100, value: c.name ?? "" });
  const rmin = pathInput(p("rating_min"), `cat-rmin-${n}`, t("catform.rating_min"), { type: "number", min: 0, max: 3500, value: c.rating_min ?? "" });
  const rmax = pathInput(p("rating_max"), `cat-rmax-${n}`, t("catform.rating_max"), { type: "number", min: 0, max: 3500, value: c.rating_max ?? "" });
  const from = pathInput(p("born_from"), `cat-from-${n}`, t("catform.born_from"), { type: "date", value: c.born_from ?? "" });
  const to = pathInput(p("born_to"), `cat-to-${n}`, t("catform.born_to"), { type: "date", value: c.born_to ?? "" });
  const feds = pathInput(p("federations"), `cat-feds-${n}`, t("catform.federations"), { value: (c.federations ?? []).join(", "), placeholder: "ITA, SMR" });
  const members = pathInput(p("members"), `cat-members-${n}`, t("catform.members"), { inputmode: "numeric", value: (c.members ?? []).join(", "), placeholder: "3, 7, 12" });
  const choice = (key, id, label, options, value) => {
    const select = el("select", { id, name: id, dataset: { path: p(key) }, "aria-describedby": `${id}-err` },
      options.map(([v, text]) => el("option", { value: v, selected: v === value }, text)));
    return { input: select, cell: el("div", { class: "field" }, el("label", { for: id }, label), select, el("span", { id: `${id}-err`, class: "field-error" })) };
  };
  const unrated = choice("unrated", `cat-unrated-${n}`, t("catform.unrated"),
    [["", t("catform.any")], ["true", t("catform.unrated_only")], ["false", t("catform.rated_only")]],
    c.unrated === true ? "true" : c.unrated === false ? "false" : "");
  const sex = choice("sex", `cat-sex-${n}`, t("catform.sex"),
    [["", t("catform.any")], ["w", t("catform.sex_w")], ["m", t("catform.sex_m")]], c.sex ?? "");
  const node = el("fieldset", { class: "category-row", dataset: { row: index } },
    el("legend", {}, t("catform.row", { n: index + 1 })),
    el("div", { class: "fields" }, [code, name, rmin, rmax, unrated, from, to, sex, feds, members].map((f) => f.cell)),
    el("button", { type: "button", class: "remove", onclick: remove }, t("catform.remove", { n: index + 1 })));
  function read() {
    const out = { code: code.input.value.trim(), name: name.input.value.trim() };
    if (rmin.input.value !== "") out.rating_min = Number(rmin.input.value);
    if (rmax.input.value !== "") out.rating_max = Number(rmax.input.value);
    if (unrated.input.value) out.unrated = unrated.input.value === "true";
    if (from.input.value) out.born_from = from.input.value;
    if (to.input.value) out.born_to = to.input.value;
    if (sex.input.value) out.sex = sex.input.value;
    if (feds.input.value.trim()) out.federations = list(feds.input.value.toUpperCase());
    if (members.input.value.trim()) out.members = list(members.input.value).map(Number);
    return out;
  }
  return { node, read, focus: () => code.input.focus() };
}

export function categoriesPanel(ctx) {
  const status = statusLine({ id: "cat-status" });
  const body = el("div", { class: "category-rows" });
  const current = el("ul", { class: "category-list", id: "cat-current" });
  let drafts = [];

  function draw(focusLast = false) {
    const made = drafts.map((c, i) => categoryRow(i, c, () => {
      drafts = readAll().filter((_, k) => k !== i);
      draw();
      status.say(t("catform.removed", { n: i + 1 }), "info");
      add.focus();
    }));
    body.replaceChildren(...made.map((r) => r.node));
    draw.rows = made;
    if (focusLast && made.length) made.at(-1).focus();
  }
  const readAll = () => (draw.rows ?? []).map((r) => r.read());

  function showCurrent(categories) {
    current.replaceChildren(...(categories.length
      ? categories.map((c) => el("li", { dataset: { code: c.code } }, el("strong", {}, c.code), ` ${c.name} · `,
        t("catform.members_now", { n: (c.start_nos ?? []).length })))
      : [el("li", {}, t("catform.none"))]));
  }

  async function load() {
    try {
      const doc = await getJSON(`${ctx.base}/categories`, ctx.token());
      drafts = doc.categories.map((c) => ({ ...c }));
      showCurrent(doc.categories);
      draw();
      return true;
    } catch (err) {
      status.say(err.message, "error");
    }
  }

  const add = el("button", { type: "button", onclick: () => { drafts = [...readAll(), {}]; draw(true); } }, t("catform.add"));
  const form = el("form", { class: "categories-form", "aria-labelledby": "cat-h", onsubmit: oneAtATime(async (e) => {
    e.preventDefault();
    const categories = readAll();
    const answer = await send("PUT", `${ctx.base}/categories`, ctx.token(), { categories });
    if (!answer.ok) {
      showFieldError(form, answer);
      status.say(problem(answer), "error");
      return;
    }
    showFieldError(form, null);
    status.say(t("catform.saved", { n: categories.length, seq: answer.body.seq }), "ok");
    await load();
    document.dispatchEvent(new CustomEvent("livetb:categories"));
  }, status) },
    el("h3", { id: "cat-h" }, t("catform.title")),
    el("p", { class: "hint" }, t("catform.hint")),
    body,
    el("div", { class: "actions" }, add, el("button", { type: "submit", class: "primary" }, t("catform.save"))),
    status);
  loadHeld(form, load);
  return el("div", { class: "form-stack" }, form, el("h3", {}, t("catform.current")), current);
}
