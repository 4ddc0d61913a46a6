// /t/{id}/player/{no}: the participant's card — results strip, every tie-break with its parts
// and cuts, why above and below the neighbours, and while a round runs the FB prediction,
// the projected BH and what each result of the running game would mean.
import { app, config, el, getJSON, languageSwitch, liveBadge, openOrShow, showError, stateLine } from "./common.js";
import { href, num, t, tbName } from "./i18n.js";
import { follow } from "./feed.js";
import { categoryText, cutText, listing, noteText, outcome } from "./words.js";

const tid = config.tournament;
const no = config.start_no;
let info, token, model, card;
const ui = {};
let timer = null;

function opponentLine(opp) {
  if (opp === null) return t("card.no_opponent");
  const row = model?.rows.get(opp);
  const pts = model ? model.column("PTS") : -1;
  const link = el("a", { href: href(`/t/${tid}/player/${opp}`) }, row?.name ?? String(opp));
  if (!row) return link;
  return el("span", {}, link, ` (${opp}, ${t("col.rank")} ${row.rank}${pts >= 0 ? `, ${num(row.values[pts])} ${t("card.points").toLowerCase()}` : ""})`);
}

function strip() {
  return el("table", { class: "strip" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("card.round")),
      el("th", { scope: "col" }, t("card.opponent")),
      el("th", { scope: "col" }, t("card.colour")),
      el("th", { scope: "col" }, t("card.result")))),
    el("tbody", {}, card.results.map((r) => el("tr", { dataset: { round: r.round } },
      el("td", {}, r.round),
      el("td", {}, opponentLine(r.opponent)),
      el("td", {}, r.colour ? t(`colour.${r.colour}`) : "–"),
      el("td", {}, `${outcome(r.outcome.toUpperCase())} (${num(r.points)})`,
        el("div", { class: "cat" }, categoryText(r)))))));
}

function tiebreak(line, i) {
  const code = model?.doc.tiebreaks[i] ?? line.name;
  const rows = line.parts.map((p) => el("tr", { class: p.cut ? "cut" : null },
    el("td", {}, p.round || ""),
    el("td", {}, num(p.amount)),
    el("td", {}, noteText(p.note)),
    el("td", { class: "why" }, p.cut ? cutText(p.cut) : t("card.kept"))));
  return el("details", {},
    el("summary", {},
      el("span", {}, el("strong", {}, code), " ", tbName(code)),
      el("span", { class: "tbv", dataset: { tb: code, status: line.status } }, num(line.value), " ",
        el("span", { class: "badge", dataset: { status: line.status } }, t(`status.${line.status}`)))),
    el("p", { class: "hint" }, line.note ? t("card.de_note") : t("card.on_rounds", { rounds: line.rounds })),
    rows.length
      ? el("table", { class: "parts" }, el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, t("card.round")), el("th", { scope: "col" }, t("card.value")),
          el("th", { scope: "col" }, t("card.parts")), el("th", { scope: "col" }, t("card.cut")))),
        el("tbody", {}, rows))
      : el("p", { class: "hint" }, t("card.no_parts")));
}

function reason(sep) {
  if (sep.by === null) return null;
  if (sep.by === "playoff") return t("sep.playoff");
  if (sep.by === "lots") return t("sep.lots");
  const codes = model.doc.tiebreaks;
  const at = codes.indexOf(sep.tiebreak);
  const diff = { tb: sep.tiebreak, mine: num(sep.value), theirs: num(sep.neighbour_value) };
  return at > 0 ? t("sep.equal_then", { equal: listing(codes.slice(0, at)), ...diff }) : t("sep.tiebreak", diff);
}

function why() {
  const items = [];
  const { above, below } = card.separated_from;
  for (const [sep, side] of [[above, "above"], [below, "below"]]) {
    if (!sep) {
      items.push(t(side === "above" ? "sep.none_above" : "sep.none_below"));
      continue;
    }
    const because = reason(sep);
    const other = side === "above" ? "below" : "above"; // I am below the one above me
    items.push(because
      ? t(`sep.${other}_by`, { name: sep.name, reason: because })
      : t("sep.tied_with", { name: sep.name }));
  }
  return el("section", { class: "why" }, el("h2", {}, t("card.why")), el("ul", {}, items.map((x) => el("li", {}, x))));
}

function outlook() {
  const o = card.outlook;
  if (!o) return null;
  // One option: the game is over (or a bye): what it gave, not a choice.
  const over = o.options.length === 1;
  const label = (opt) => (over
    ? `${t("outlook.result.done")} (${t(`outlook.result.${opt.result}`).toLowerCase()})`
    : t(`outlook.result.${opt.result}`));
  return el("section", { class: "outlook", "aria-live": "polite" },
    el("h2", {}, t("outlook.title")),
    el("p", {}, t(o.ties_share_rank ? "outlook.sentence_pts" : "outlook.sentence", { round: o.round })),
    el("ul", {}, o.options.map((opt) => el("li", { dataset: { result: opt.result, best: opt.best, worst: opt.worst } },
      t(opt.best === opt.worst ? "outlook.option_one" : "outlook.option", {
        result: label(opt), points: num(opt.points), best: opt.best, worst: opt.worst,
      })))));
}

function render() {
  const p = info.participants.find((x) => x.start_no === no) ?? {};
  document.title = `${card.name} · livetb`;
  const facts = [card.title, card.federation, card.rating, `#${no}`].filter((x) => x !== "" && x !== null && x !== undefined);
  const running = card.round_in_progress
    ? el("ul", { class: "facts" },
        el("li", {}, t("card.fb", { value: num(card.fb_prediction) })),
        el("li", {}, t("card.bh", { value: num(card.bh_projected) })))
    : null;
  ui.body.replaceChildren(
    el("h1", { dataset: { startNo: no, rank: card.rank } }, card.name, " — ", t("card.rank", { rank: card.rank })),
    el("ul", { class: "facts" }, facts.map((f) => el("li", {}, String(f))),
      p.withdrawn_from ? el("li", {}, t("card.withdrawn", { round: p.withdrawn_from })) : null),
    running,
    outlook(),
    why(),
    el("section", {}, el("h2", {}, t("card.results")), el("div", { class: "scroll" }, strip())),
    el("section", { class: "tbs" }, el("h2", {}, t("card.tiebreaks")),
      el("p", { class: "legend" }, t("status.legend")), card.tiebreaks.map(tiebreak)));
  ui.state.textContent = stateLine(model.doc, info.rounds);
}

async function load() {
  try {
    card = await getJSON(`/api/tournaments/${encodeURIComponent(tid)}/participants/${no}`, token);
    render();
  } catch (err) {
    if (err.status === 404) ui.body.replaceChildren(el("p", { class: "error", role: "alert" }, t("error.player_not_found")));
    else showError(err);
  }
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(load, 250); // one card request for a burst of deltas
}

async function main() {
  const opened = await openOrShow(tid);
  if (!opened) return;
  ({ info, token } = opened);
  ui.badge = liveBadge();
  ui.state = el("span", { class: "state" });
  ui.body = el("div", { class: "card" });
  app.replaceChildren(
    el("header", { class: "top" },
      el("nav", { class: "links" }, el("a", { href: href(`/t/${tid}`) }, `← ${t("card.back")}`)),
      el("p", { class: "sub" }, info.name, " · ", ui.state, " ", ui.badge),
      languageSwitch()),
    ui.body);
  app.setAttribute("aria-busy", "false");
  follow(tid, { token }, {
    state: (s) => ui.badge.set(s),
    snapshot: (m) => { model = m; load(); },
    delta: later,
    refused: () => location.reload(),
  });
}

main();
