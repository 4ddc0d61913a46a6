// /new: create a tournament — name, rounds, start date (which sets the rules' edition),
// scoring, private or public, and the tie-break list from a picker that knows every code and
// modifier livetb accepts, with FIDE's recommended lists to start from.
import { app, config, el, languageSwitch, problem, send } from "./common.js";
import { href, t, tbName } from "./i18n.js";

// Per code, the modifiers it offers ("" = none) and whether it is for team events only.
const { codes, presets } = config.tiebreaks;

function main() {
  const chosen = [...presets.swiss];
  const list = el("ol", { class: "tb-list", "aria-live": "polite" });
  const kind = el("select", { id: "s-kind", name: "kind" }, el("option", { value: "individual" }, t("setup.individual")), el("option", { value: "team" }, t("setup.team")));
  const system = el("select", { id: "s-system", name: "system" }, el("option", { value: "swiss" }, t("setup.swiss")), el("option", { value: "roundrobin" }, t("setup.roundrobin")));
  const family = el("select", { id: "s-code", name: "code" });
  const modifier = el("select", { id: "s-mod", name: "modifier" });
  const status = el("p", { class: "status", role: "alert" });

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
  const [idL, id] = input("s-id", t("setup.id"), { required: true, pattern: "[A-Za-z0-9][A-Za-z0-9_-]{0,63}" });
  const [tokL, token] = [el("label", { for: "token" }, t("token.label")), el("input", { id: "token", name: "token", type: "password", required: true, autocomplete: "off", "aria-describedby": "s-token-help" })];
  const [nameL, name] = input("s-name", t("setup.name"), { required: true, maxlength: 200 });
  const [roundsL, rounds] = input("s-rounds", t("setup.rounds"), { type: "number", min: 1, max: 99, required: true, value: 9 });
  const [dateL, date] = input("s-date", t("setup.start"), { type: "date" });
  const [winL, win] = input("s-win", t("setup.win"), { inputmode: "decimal", value: "1", pattern: "\\d+([.,]\\d+)?" });
  const [drawL, drawn] = input("s-draw", t("setup.draw"), { inputmode: "decimal", value: "0.5", pattern: "\\d+([.,]\\d+)?" });
  const priv = el("input", { id: "s-private", name: "private", type: "checkbox" });

  const form = el("form", { class: "grid-form setup", onsubmit: async (e) => {
    e.preventDefault();
    const decimal = (x) => x.value.replace(",", ".");
    const body = {
      name: name.value.trim(), rounds: Number(rounds.value), system: system.value, kind: kind.value,
      tiebreaks: chosen, private: priv.checked, scoring: { win: decimal(win), draw: decimal(drawn) },
      ...(date.value ? { start_date: date.value } : {}),
    };
    const path = `/api/tournaments/${encodeURIComponent(id.value.trim())}`;
    const answer = await send("PUT", path, token.value.trim(), body);
    if (!answer.ok) { status.textContent = problem(answer); return; }
    sessionStorage.setItem(`livetb.token.${id.value.trim()}`, token.value.trim());
    location.assign(href(`/t/${encodeURIComponent(id.value.trim())}/arbiter`));
  } },
    idL, id, tokL, token, el("p", { id: "s-token-help", class: "hint" }, t("setup.token_help")),
    nameL, name, roundsL, rounds, dateL, date, el("p", { class: "hint" }, t("setup.edition_help")),
    el("label", { for: "s-kind" }, t("setup.kind")), kind,
    el("label", { for: "s-system" }, t("setup.system")), system,
    winL, win, drawL, drawn,
    el("div", { class: "row" }, priv, el("label", { for: "s-private" }, t("setup.private"))),
    el("fieldset", {}, el("legend", {}, t("setup.tiebreaks")),
      el("div", { class: "actions" },
        el("button", { type: "button", onclick: () => preset(kind.value === "team" ? `team_${system.value}` : system.value) }, t("setup.recommended"))),
      list,
      el("div", { class: "row" },
        el("label", { for: "s-code" }, t("setup.code")), family,
        el("label", { for: "s-mod" }, t("setup.modifier")), modifier,
        el("button", { type: "button", onclick: () => {
          const code = modifier.value ? `${family.value}/${modifier.value}` : family.value;
          if (!chosen.includes(code)) chosen.push(code);
          draw();
        } }, t("setup.add")))),
    status,
    el("button", { type: "submit", class: "primary" }, t("setup.create")));
  fillFamilies();
  draw();
  app.replaceChildren(el("header", { class: "top" }, el("h1", {}, t("setup.title")), languageSwitch()), form);
  app.setAttribute("aria-busy", "false");
  id.focus();
}

main();
