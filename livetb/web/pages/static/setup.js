// /new: create a tournament — name, rounds, start date and the edition of the rules it sets,
// scoring, private or public, and the tie-break list from a picker that knows every code and
// modifier livetb accepts, with FIDE's recommended lists to start from. The organiser token
// arrives as #token=… (the link `livetb serve` prints); a creation with it answers with the
// new tournament's arbiter token, shown here once, with the way into the console.
import { app, config, el, languageSwitch, oneAtATime, problem, send, statusLine } from "./common.js";
import { href, lang, t, tbName } from "./i18n.js";

// Per code, the modifiers it offers ("" = none) and whether it is for team events only.
const { codes, presets } = config.tiebreaks;
// The editions of the unplayed-rounds rules, newest first, with the day each applies from
// (the engine's dates); the last one is the legacy rules, before the others.
const editions = config.editions;
const ORGANISER_KEY = "livetb.organiser";

/** The organiser token of the link (`#token=…`), kept for this browser session and taken
 * out of the address bar; else the one kept before. */
function takeOrganiser() {
  const found = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (found) {
    sessionStorage.setItem(ORGANISER_KEY, decodeURIComponent(found[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return { token: sessionStorage.getItem(ORGANISER_KEY) ?? "", fromLink: Boolean(found) };
}

const day = (iso) => new Date(`${iso}T00:00:00`).toLocaleDateString(lang, { day: "numeric", month: "long", year: "numeric" });
const editionName = (e) => (e.from ? t("setup.edition_name", { edition: e.edition }) : t("setup.edition_legacy"));

/** The edition a start date gets (no date: today's), as the engine picks it. */
function editionOn(iso) {
  const date = iso || new Date().toISOString().slice(0, 10);
  return editions.find((e) => e.from && date >= e.from) ?? editions[editions.length - 1];
}

/** The answer to an organiser's creation: the arbiter token, once, and the console's link. */
function created(tid, name, token) {
  const out = el("input", { id: "arbiter-token", class: "token-value", readonly: true, value: token, spellcheck: "false", "aria-describedby": "token-once" });
  const said = el("p", { class: "status", role: "status", "aria-live": "polite" });
  const copy = el("button", { type: "button", onclick: async () => {
    try {
      await navigator.clipboard.writeText(token); // only in a secure context (https, localhost)
      said.textContent = t("setup.copied");
    } catch {
      out.focus();
      out.select();
      said.textContent = t("setup.copy_select");
    }
  } }, t("setup.copy"));
  const consoleLink = `${href(`/t/${encodeURIComponent(tid)}/arbiter`)}#token=${encodeURIComponent(token)}`;
  const heading = el("h2", { tabindex: "-1" }, t("setup.created", { name, id: tid }));
  // No language switch here: leaving the page would lose the token, which is not shown again.
  app.replaceChildren(
    el("header", { class: "top" }, el("h1", {}, t("setup.title"))),
    el("section", { class: "created" },
      heading,
      el("label", { for: "arbiter-token" }, t("setup.arbiter_token")),
      el("div", { class: "token-out" }, out, copy),
      el("p", { id: "token-once", class: "hint" }, t("setup.token_once")),
      said,
      el("p", { class: "actions" },
        el("a", { class: "button primary", href: consoleLink }, t("setup.open_console")),
        el("a", { href: href("/new") }, t("setup.another")))));
  heading.focus();
}

function main() {
  const organiser = takeOrganiser();
  const chosen = [...presets.swiss];
  const list = el("ol", { class: "tb-list", "aria-live": "polite" });
  const kind = el("select", { id: "s-kind", name: "kind" }, el("option", { value: "individual" }, t("setup.individual")), el("option", { value: "team" }, t("setup.team")));
  const system = el("select", { id: "s-system", name: "system" }, el("option", { value: "swiss" }, t("setup.swiss")), el("option", { value: "roundrobin" }, t("setup.roundrobin")));
  const family = el("select", { id: "s-code", name: "code" });
  const modifier = el("select", { id: "s-mod", name: "modifier" });
  const status = statusLine({ role: "alert", "aria-live": "assertive" });

  function fillFamilies() {
    const team = kind.value === "team";
    family.replaceChildren(...Object.keys(codes).filter((c) => team || !codes[c].team_only)
      .map((c) => el("option", { value: c }, `${c} — ${tbName(c)}`)));
    fillModifiers();
  }
  function fillModifiers() {
    modifier.replaceChildren(...codes[family.value].modifiers.map((m) => el("option", { value: m }, m ? tbName(`${family.value}/${m}`) : t("setup.no_modifier"))));
  }
  function draw() {
    list.replaceChildren(...chosen.map((code, i) => el("li", {},
      el("span", {}, el("strong", {}, code), " ", tbName(code)),
      el("button", { type: "button", "aria-label": t("setup.up", { code }), disabled: i === 0, onclick: () => { [chosen[i - 1], chosen[i]] = [chosen[i], chosen[i - 1]]; draw(); } }, "↑"),
      el("button", { type: "button", "aria-label": t("setup.down", { code }), disabled: i === chosen.length - 1, onclick: () => { [chosen[i + 1], chosen[i]] = [chosen[i], chosen[i + 1]]; draw(); } }, "↓"),
      el("button", { type: "button", "aria-label": t("setup.remove", { code }), onclick: () => { chosen.splice(i, 1); draw(); } }, "✕"))));
  }
  function preset(name) {
    chosen.splice(0, chosen.length, ...presets[name]);
    draw();
  }
  family.addEventListener("change", fillModifiers);
  kind.addEventListener("change", () => { fillFamilies(); preset(kind.value === "team" ? `team_${system.value}` : system.value); });
  system.addEventListener("change", () => preset(kind.value === "team" ? `team_${system.value}` : system.value));

  const input = (id, label, attrs) => [el("label", { for: id }, label), el("input", { id, name: id.slice(2), autocomplete: "off", ...attrs })];
  // The id as the API's routes take it (livetb/web/http/routing.py TID). A `pattern` is
  // compiled with the `v` flag, where a "-" in a class must be escaped.
  const [idL, id] = input("s-id", t("setup.id"), {
    required: true, maxlength: 64, pattern: "[A-Za-z0-9._\\-]{1,64}", title: t("setup.id_hint"),
    "aria-describedby": "s-id-help", autocapitalize: "none", spellcheck: "false",
  });
  const [tokL, token] = [el("label", { for: "token" }, t("token.label")), el("input", { id: "token", name: "token", type: "password", required: true, autocomplete: "off", value: organiser.token, "aria-describedby": "s-token-help" })];
  const [nameL, name] = input("s-name", t("setup.name"), { required: true, maxlength: 200 });
  const [roundsL, rounds] = input("s-rounds", t("setup.rounds"), { type: "number", min: 1, max: 99, required: true, value: 9 });
  const [dateL, date] = input("s-date", t("setup.start"), { type: "date" });
  const [winL, win] = input("s-win", t("setup.win"), { inputmode: "decimal", value: "1", pattern: "\\d+([.,]\\d+)?" });
  const [drawL, drawn] = input("s-draw", t("setup.draw"), { inputmode: "decimal", value: "0.5", pattern: "\\d+([.,]\\d+)?" });
  const priv = el("input", { id: "s-private", name: "private", type: "checkbox" });

  // The edition: by the start date (the option says which that gives), or one chosen.
  const byDate = el("option", { value: "" });
  const edition = el("select", { id: "s-edition", name: "edition", "aria-describedby": "s-edition-help" },
    byDate, ...editions.map((e) => el("option", { value: e.edition }, editionName(e))));
  const showByDate = () => { byDate.textContent = t("setup.edition_auto", { edition: editionName(editionOn(date.value)) }); };
  date.addEventListener("input", showByDate);
  showByDate();
  const editionHelp = el("div", { id: "s-edition-help", class: "hint editions" },
    el("p", {}, t("setup.edition_help")),
    el("ul", {}, editions.map((e) => el("li", {}, e.from
      ? t("setup.edition_from", { edition: editionName(e), date: day(e.from) })
      : t("setup.edition_before", { edition: editionName(e), date: day(e.before) })))));

  const submit = el("button", { type: "submit", class: "primary" }, t("setup.create"));
  const form = el("form", { class: "grid-form setup", onsubmit: oneAtATime(async (e) => {
    e.preventDefault();
    const decimal = (x) => x.value.replace(",", ".");
    const tid = id.value.trim();
    const key = token.value.trim();
    const body = {
      name: name.value.trim(), rounds: Number(rounds.value), system: system.value, kind: kind.value,
      tiebreaks: chosen, private: priv.checked, scoring: { win: decimal(win), draw: decimal(drawn) },
      ...(date.value ? { start_date: date.value } : {}),
      ...(edition.value ? { edition: edition.value } : {}),
    };
    const answer = await send("PUT", `/api/tournaments/${encodeURIComponent(tid)}`, key, body);
    if (!answer.ok) {
      status.say(problem(answer), "error");
      if (answer.body.path === "id") { // the id refused: back to its field, marked
        id.setAttribute("aria-invalid", "true");
        id.focus();
      }
      return;
    }
    if (answer.body.token) { created(tid, body.name, answer.body.token); return; }
    // An arbiter token made for this id: the console takes the same one.
    sessionStorage.setItem(`livetb.token.${tid}`, key);
    location.assign(href(`/t/${encodeURIComponent(tid)}/arbiter`));
  }, status, "setup.creating") },
    idL, id, el("p", { id: "s-id-help", class: "hint" }, t("setup.id_hint")), tokL, token,
    el("p", { id: "s-token-help", class: "hint" }, t(organiser.fromLink ? "setup.token_from_link" : "setup.token_help")),
    nameL, name, roundsL, rounds, dateL, date,
    el("label", { for: "s-edition" }, t("setup.edition")), edition, editionHelp,
    el("label", { for: "s-kind" }, t("setup.kind")), kind,
    el("label", { for: "s-system" }, t("setup.system")), system,
    winL, win, drawL, drawn,
    el("div", { class: "row" }, priv, el("label", { for: "s-private" }, t("setup.private"))),
    el("fieldset", {}, el("legend", {}, t("setup.tiebreaks")),
      el("div", { class: "actions" },
        el("button", { type: "button", onclick: () => preset(kind.value === "team" ? `team_${system.value}` : system.value) }, t("setup.recommended"))),
      list,
      el("div", { class: "row pick" },
        el("label", { for: "s-code" }, t("setup.code")), family,
        el("label", { for: "s-mod" }, t("setup.modifier")), modifier,
        el("button", { type: "button", onclick: () => {
          const code = modifier.value ? `${family.value}/${modifier.value}` : family.value;
          if (!chosen.includes(code)) chosen.push(code);
          draw();
        } }, t("setup.add")))),
    status,
    submit);
  fillFamilies();
  draw();
  app.replaceChildren(el("header", { class: "top" }, el("h1", {}, t("setup.title")), languageSwitch()), form);
  app.setAttribute("aria-busy", "false");
  id.focus();
}

main();
