// /t/{id}/overlay: an OBS browser source. A transparent page with one solid panel that fits the
// source's frame, whatever its shape:
//   ?layout=panel (a table beside the video) | column (a sidebar: the frame's whole width) |
//           ticker (one line, for a lower third) | scoreboard (team events: the round's
//           matches); chosen by the frame's shape when absent
//   ?position=top-left | top-right | bottom-left | bottom-right | top | bottom | left | right
//   ?top=N  ?follow=3,17  ?columns=PTS,BH/C1 (any notation the API takes; an unknown code is
//   named on the overlay)  ?max_rows=N  ?scale=1.2  ?page_seconds=S  ?theme=dark|light
//   ?with=rating_change, or Δ / RC among ?columns=: a last column, each row's rating change
//   ?category=CODE (that category's standings, ranks counted inside it, its name in the
//   header; a code the tournament does not define is named on the overlay, which then shows
//   every player)
// The panel never reaches past the frame: the rows page instead (with "2 / 4"), as many a
// page as the frame shows, measured on the rows themselves. A surname is never cut (a long
// given name may end in "…"). The table is the one standings component (standings-table.js).
import { app, config, delayText, el, getJSON, stateLine, takeToken } from "./common.js";
import { boot } from "./boot.js";
import { num, t } from "./i18n.js";
import { clipped, fitRows, outside, throttled } from "./fit.js";
import "./standings-table.js";

const q = new URLSearchParams(location.search);
const int = (name) => {
  const n = Number.parseInt(q.get(name), 10);
  return Number.isFinite(n) && n > 0 ? n : null;
};
const POSITIONS = ["top-left", "top-right", "bottom-left", "bottom-right", "top", "bottom", "left", "right"];
const asked = {
  layout: ["panel", "column", "ticker", "scoreboard"].includes(q.get("layout")) ? q.get("layout") : null,
  position: POSITIONS.includes(q.get("position")) ? q.get("position") : null,
  top: int("top"),  // none asked: 10, unless the followed players alone or pages of the field
  maxRows: int("max_rows") ?? int("rows"), // `rows` was this parameter's first name
  scale: Math.min(3, Math.max(0.5, Number.parseFloat(q.get("scale")) || 1)),
  pageSeconds: int("page_seconds") ?? 10,
  follow: (q.get("follow") ?? "").split(",").map((x) => Number.parseInt(x, 10)).filter((n) => n > 0),
  theme: q.get("theme") === "light" ? "light" : "dark",
  category: q.get("category") || null,
};
// ?columns= as the server read it: each code in the standings' spelling, or null for no
// tie-break at all (named on the overlay, with the ones the tournament does not have).
const RATING_CHANGE = ["Δ", "RC"];
const ratingAsked = (c) => RATING_CHANGE.includes(String(c.asked ?? "").trim().toUpperCase());
const columns = (config.columns ?? []).filter((c) => !ratingAsked(c));
asked.rated = q.get("with") === "rating_change" || (config.columns ?? []).some(ratingAsked);
if (asked.top === null && !asked.follow.length && asked.maxRows === null) asked.top = 10;
const ui = {};
let feed = null;
let shape = null; // what the last fit was made for: the layout, the frame, the rows
let scorePage = 0;
const MATCHES_BESIDE_STANDINGS = 4; // a page of matches above the standings, in turn

/** The layout for this frame: very short -> ticker; narrow or tall -> column; else panel. */
function chooseLayout(w, h) {
  if (asked.layout === "scoreboard") return feed.info.kind === "team" ? "scoreboard" : "panel";
  if (asked.layout) return asked.layout;
  if (h <= 260 || w / h >= 4) return "ticker";
  if (w < 900 || w / h < 1.1) return "column";
  return "panel";
}

/** Font size (px) from the frame: rows readable on air, several rows in any frame. */
function fontSize(layout, w, h) {
  const px = {
    panel: Math.min(h * 0.032, w * 0.018),
    column: Math.min(w * 0.04, h * 0.045),
    ticker: Math.min(h * 0.22, w * 0.016),
    scoreboard: Math.min(h * 0.04, w * 0.024),
  }[layout];
  return Math.max(11, Math.min(44, px)) * asked.scale;
}

/** The columns shown: those asked for (known to the server's parser), else the first few. */
function columnCodes(layout) {
  const known = columns.filter((c) => c.code !== null).map((c) => c.code);
  if (known.length) return known;
  const codes = feed.model.doc.tiebreaks;
  return codes.slice(0, { panel: 3, column: 2, ticker: 1, scoreboard: 1 }[layout]);
}

/** Codes asked for that this tournament does not have, in words on the panel (and a
 *  category it does not define). */
function columnsProblem(unknownFromTable = []) {
  const unknown = [...columns.filter((c) => c.code === null).map((c) => c.asked), ...unknownFromTable];
  const lines = [];
  if (ui.categoryError) lines.push(ui.categoryError);
  if (unknown.length) {
    lines.push(t("overlay.unknown_columns", {
      codes: unknown.join(", "), known: feed.model.doc.tiebreaks.join(", "),
    }));
  }
  ui.error.hidden = !lines.length;
  ui.error.textContent = lines.join(" ");
}

/** The category asked for: { code, name } when the tournament defines it; otherwise null,
 *  and the reason in words for the panel. */
async function askedCategory(tid, token) {
  if (!asked.category) return null;
  let found = [];
  try {
    found = (await getJSON(`/api/tournaments/${encodeURIComponent(tid)}/categories`, token)).categories ?? [];
  } catch { /* none readable: said below as unknown */ }
  const hit = found.find((c) => c.code === asked.category);
  if (hit) return hit;
  ui.categoryError = found.length
    ? t("overlay.unknown_category", { code: asked.category, known: found.map((c) => c.code).join(", ") })
    : t("overlay.no_categories", { code: asked.category });
  return null;
}

/** "Round 6 · in progress · 23 / 30 games finished · delayed 15 min". */
function stateText() {
  const doc = feed.model.doc;
  const parts = [stateLine(doc, feed.info.rounds)];
  const round = feed.model.round;
  if (round && !round.closed && doc.round_in_progress && round.games.length) {
    const done = round.games.filter((g) => g.result).length;
    parts.push(t("overlay.progress", { done, total: round.games.length }));
  }
  if (feed.delay > 0) parts.push(delayText(feed.delay)); // the badge, then hidden, would say it twice
  return parts.join(" · ");
}

// --- team events: the round's matches, each board's points summed ---

/** The running round's matches: [{home, away, homePts, awayPts, done, boards}], from the teams'
 *  players in board order (a match's first board names its home team). */
function matches() {
  const round = feed.model.round;
  const teams = feed.info.teams ?? [];
  if (!round || !teams.length) return [];
  const teamOf = new Map();
  for (const team of teams) for (const no of team.members) teamOf.set(no, team);
  const byPair = new Map();
  for (const g of round.games) {
    const a = teamOf.get(g.white);
    const b = teamOf.get(g.black);
    if (!a || !b) continue;
    const key = [a.number, b.number].sort((x, y) => x - y).join("-");
    if (!byPair.has(key)) byPair.set(key, { home: a, away: b, home2: 0, away2: 0, done: 0, boards: 0, first: g.board });
    const m = byPair.get(key);
    const [w, bl] = halves(g.result);
    const homeIsWhite = m.home === a;
    m.home2 += homeIsWhite ? w : bl;
    m.away2 += homeIsWhite ? bl : w;
    m.boards += 1;
    if (g.result) m.done += 1;
  }
  return [...byPair.values()].sort((x, y) => x.first - y.first);
}

/** A result's points for white and black, in half points (a forfeit counts as a game). */
function halves(result) {
  return { "1-0": [2, 0], "0-1": [0, 2], "1/2-1/2": [1, 1], "+-": [2, 0], "-+": [0, 2] }[result] ?? [0, 0];
}

const points = (h) => num(`${Math.floor(h / 2)}${h % 2 ? ".5" : ""}`);

function matchesTable(list) {
  return el("table", { class: "matches" },
    el("caption", { class: "sr" }, t("overlay.matches")),
    el("tbody", {}, list.map((m) => el("tr", { dataset: { match: `${m.home.number}-${m.away.number}` } },
      el("td", { class: "team home" }, m.home.name),
      el("td", { class: "score" }, `${points(m.home2)} – ${points(m.away2)}`),
      el("td", { class: "team away" }, m.away.name),
      el("td", { class: "boards" }, t("overlay.boards_done", { done: m.done, total: m.boards }))))));
}

/** The scoreboard: as many matches a page as the frame shows, the pages in turn. */
function renderScoreboard(fitting) {
  const list = matches();
  let per = ui.perMatches ?? list.length;
  const show = (n) => {
    per = n;
    const pages = Math.max(1, Math.ceil(list.length / n));
    scorePage %= pages;
    ui.matches.replaceChildren(matchesTable(list.slice(scorePage * n, (scorePage + 1) * n)));
    ui.matchPager.hidden = pages < 2;
    ui.matchPager.textContent = t("table.page", { page: scorePage + 1, pages });
  };
  if (fitting && list.length) {
    per = fitRows(show, () => outside(ui.panel, ui.margin), list.length, list.length);
    ui.perMatches = per;
  } else {
    show(Math.max(1, per));
  }
}

// --- fitting the panel to the frame ---

function rows() {
  return [...ui.table.querySelectorAll("tr[data-start-no]")];
}

/** A ticker's rows past their line (into the page indicator beside it, or beyond). */
function tickerOverflows() {
  const line = ui.table.querySelector("table.standings").getBoundingClientRect();
  return rows().some((r) => !r.hidden && r.getBoundingClientRect().right > line.right + 0.5);
}

/** Lay the panel out for the frame and find how many rows a page holds. */
function fit() {
  if (!feed?.model?.doc) return;
  const w = innerWidth;
  const h = innerHeight;
  const layout = chooseLayout(w, h);
  const position = asked.position ?? (layout === "ticker" ? "bottom" : "top-left");
  ui.margin = Math.round(Math.min(w, h) * (layout === "ticker" ? 0.06 : 0.025));
  ui.panel.className = `overlay ${asked.theme} layout-${layout} at-${position}`;
  ui.panel.style.setProperty("--ov-font", `${fontSize(layout, w, h).toFixed(2)}px`);
  ui.panel.style.setProperty("--ov-margin", `${ui.margin}px`);
  ui.panel.style.setProperty("--ov-scale", asked.scale);
  const cols = columnCodes(layout).join(",");
  if (ui.table.getAttribute("columns") !== cols) ui.table.setAttribute("columns", cols);
  ui.state.textContent = stateText();
  const team = feed.info.kind === "team";
  ui.matchBox.hidden = !(team && (layout === "scoreboard" || layout === "panel") && matches().length);
  ui.table.hidden = layout === "scoreboard";
  if (layout === "panel") ui.perMatches = MATCHES_BESIDE_STANDINGS; // the rest of the room: rows
  if (!ui.matchBox.hidden) renderScoreboard(layout === "scoreboard");
  shape = { layout, w, h, count: feed.model.order.length };
  ui.overflows = null;
  if (layout === "scoreboard") return;
  const total = Math.max(1, Math.min(asked.top ?? Infinity, feed.model.order.length));
  const cap = Math.min(total, asked.maxRows ?? total);
  const overflows = layout === "ticker"
    ? () => outside(ui.panel, ui.margin) || tickerOverflows()
    : () => outside(ui.panel, ui.margin) || clipped(names());
  ui.overflows = overflows;
  const page = ui.table.page ?? 0; // measuring turns to the first page: come back after
  if (layout !== "ticker") surnamesOnOneLine(layout, cap, fontSize(layout, w, h));
  const n = rowsAPage(layout, cap, overflows);
  fitRows((k) => ui.table.setAttribute("rows", k), overflows, n, n);
  ui.table.page = page;
  ui.table.layout?.();
}

/** Smaller type, down to 70 %, while the longest surname of the list would wrap: rows of one
 *  height, so every page holds as many rows as the first. */
function surnamesOnOneLine(layout, cap, px) {
  ui.table.setAttribute("rows", cap);
  let size = px;
  for (let i = 0; i < 3; i += 1) {
    ui.panel.classList.add("measuring"); // surnames on one line, however long
    const short = Math.min(...[...ui.table.querySelectorAll("tr[data-start-no]:not([hidden]) [data-name] .sn")]
      .map((sn) => sn.closest("[data-name]").clientWidth / Math.max(sn.scrollWidth, 1)));
    ui.panel.classList.remove("measuring");
    if (!(short < 1) || size <= px * 0.7) return;
    size = Math.max(px * 0.7, size * short * 0.99);
    ui.panel.style.setProperty("--ov-font", `${size.toFixed(2)}px`);
  }
}

/** Rows a page so that every page fits, not only the first: room for the largest rows of the
 *  whole list (a longer name on a later page), and for the followed rows, which every page
 *  shows besides its own. The frame's room is measured with the page indicator showing. */
function rowsAPage(layout, cap, overflows) {
  const table = ui.table;
  if (layout === "ticker") ui.panel.style.removeProperty("--ov-item"); // an earlier frame's
  table.setAttribute("rows", cap);
  if (!overflows()) return cap; // one page: no indicator, nothing to page
  table.setAttribute("rows", 1);
  const inner = table.querySelector("table.standings");
  const shown = () => rows().filter((r) => !r.hidden);
  const ticker = layout === "ticker";
  const size = (r) => (ticker ? r.getBoundingClientRect().width : r.getBoundingClientRect().height);
  let room;
  if (ticker) {
    room = inner.getBoundingClientRect().width;
  } else {
    const used = shown().reduce((sum, r) => sum + size(r), 0);
    room = innerHeight - 2 * ui.margin - (ui.panel.getBoundingClientRect().height - used);
  }
  table.setAttribute("rows", cap);
  let widest = 0;
  if (ticker) {
    // Every item as wide as the widest with its surname and a whole "…" for its given names
    // (which take an ellipsis where they do not fit): each page then holds the same number,
    // exactly as many as the line shows, and one long name does not leave the others a line
    // each.
    ui.panel.style.removeProperty("--ov-item");
    ui.panel.classList.add("measuring");
    widest = Math.ceil(Math.max(...shown().map(size)));
    ui.panel.classList.remove("measuring");
    ui.panel.style.setProperty("--ov-item", `${widest}px`);
  }
  const sizes = shown().map(size).sort((x, y) => y - x);
  const gap = ticker ? Number.parseFloat(getComputedStyle(inner.tBodies[0]).columnGap) || 0 : 0;
  const reserved = asked.follow.length;
  let n = 0;
  let used = 0;
  for (let i = 0; i < sizes.length; i += 1) {
    used += sizes[i] + (i ? gap : 0);
    if (used > room) break;
    n = i + 1;
  }
  if (ticker && n > 0) {
    // The line's whole width shared by the items of a page: what one more item would not
    // fit in goes to the given names, not to a gap at the end of the line.
    const each = Math.floor((room - gap * (n - 1)) / n);
    if (each > widest) ui.panel.style.setProperty("--ov-item", `${each}px`);
  }
  return Math.max(1, Math.min(cap, n - reserved));
}

function names() {
  return [...ui.panel.querySelectorAll("[data-name]")].filter((n) => n.getClientRects().length);
}

const refit = throttled(fit);

// A broadcast delay set or lifted reaches no public feed until it is itself public (the
// stream holds still meanwhile): boot.js reads the settings again every few seconds instead.
const SETTINGS_SECONDS = 10;
function onSnapshot() {
  columnsProblem(ui.table.columnsError?.unknown ?? []);
  refit();
}

/** After a delta: the state line at once; a new fit only when what shapes the panel changed. */
function onDelta() {
  ui.state.textContent = stateText();
  if (feed.info.kind === "team" && !ui.matchBox.hidden) renderScoreboard(false);
  const changed = !shape || shape.count !== feed.model.order.length || ui.overflows?.();
  if (changed) refit();
}

async function main() {
  ui.state = el("p", { class: "state" });
  ui.error = el("p", { class: "ov-error", role: "alert", hidden: true });
  ui.table = document.createElement("standings-table");
  ui.table.setAttribute("density", "broadcast");
  ui.table.setAttribute("page-seconds", asked.pageSeconds);
  if (asked.top) ui.table.setAttribute("top", asked.top);
  if (asked.rated) ui.table.setAttribute("rating-change", "");
  if (asked.follow.length) ui.table.setAttribute("follow", asked.follow.join(","));
  ui.table.addEventListener("columns-error", (e) => { columnsProblem(e.detail.unknown); refit(); });
  ui.matches = el("div", {});
  ui.matchPager = el("p", { class: "pager", hidden: true });
  ui.matchBox = el("section", { class: "match-board", hidden: true }, ui.matches, ui.matchPager);
  // A small feed where it is enough: the top N alone, or the followed players alone; the
  // whole field when paging through it.
  // A category's view: the whole category (its members are anywhere in the field), or its
  // top N.
  const category = await askedCategory(config.tournament, takeToken(config.tournament));
  const filtered = category ? { category: category.code, ...(asked.top && !asked.maxRows ? { top: asked.top } : {}) }
    : asked.maxRows ? {}
      : asked.top && !asked.follow.length ? { top: asked.top }
        : !asked.top && asked.follow.length ? { participants: asked.follow } : {};
  feed = await boot({
    ...filtered, rated: asked.rated, settingsSeconds: SETTINGS_SECONDS, onSnapshot, onDelta,
    onState: () => { if (ui.state && feed?.model?.doc) ui.state.textContent = stateText(); },
  });
  if (!feed) return;
  document.title = `${category ? `${category.name} · ` : ""}${feed.info.name} · livetb`;
  const title = el("h1", {}, feed.info.name,
    category ? el("span", { class: "ov-cat", dataset: { category: category.code } }, ` · ${category.name}`) : "");
  ui.panel = el("section", { class: `overlay ${asked.theme}`, "aria-label": t("overlay.label") },
    el("header", { class: "ov-head" }, title, feed.badge),
    ui.state, ui.error, ui.matchBox, ui.table);
  app.replaceChildren(ui.panel);
  app.setAttribute("aria-busy", "false");
  ui.table.attach(feed);
  setInterval(() => {
    if (ui.matchBox.hidden || !ui.perMatches) return;
    scorePage += 1;
    renderScoreboard(false);
  }, asked.pageSeconds * 1000);
  addEventListener("resize", refit);
}

main();
