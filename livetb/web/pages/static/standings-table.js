// <standings-table>: the one standings table of every page (standings page, overlay, venue
// screen, the console's provisional ranks), fed by boot.js:
//
//   const feed = await boot({...});
//   const table = el("standings-table", { density: "dense", top: 10 });
//   table.attach(feed);        // a boot.js Feed (or any EventTarget with .model, .info and
//                              // "snapshot" / "delta" events); renders at once if it has standings
//
// Attributes (each may change at any time):
//   top="N"             only the first N rows
//   follow="3,17"       start numbers followed: shown even outside `top` / the page (class
//                       "followed"); alone (no `top`, `rows` or `pin`), only they are shown;
//                       with `pin`, in their own section on top
//   columns="PTS,BHC1"  the tie-breaks shown, in any notation the API accepts (BH/C1, BHC1,
//                       BH-C1, …); checked against the tournament's: unknown codes are left out
//                       and a "columns-error" CustomEvent says which (detail: { unknown, known })
//   rows="N"            rows per page; the pages follow each other every `page-seconds` (10)
//                       with a "2 / 4" indicator; rows not on the page shown carry `hidden`
//   page="N"            with `rows`: show page N (from 1) and turn none: the page that holds
//                       the table turns them (the venue screen, between its pairings pages)
//   density="comfortable" | "dense" (phones: rank, name, points and the first tie-break, the
//                       rest behind a button) | "broadcast" (no tooltips on the values, no
//                       marks) | "screen"
//   rating-change       a last column "Δ": each row's rating change so far, signed ("+7.2",
//                       "−3.6", "–" without a rated game); the feed must carry it (boot.js
//                       `rated: true`, the feed's &with=rating_change)
//   category="…"        the feed's &category= when the element opens its own feed (with
//                       `tournament="id"` and no attach(): a public tournament's full feed)
//   details             start number, title, federation and rating columns; links: the
//                       name links to the player's card; stars: follow buttons (the element
//                       updates `follow` and dispatches "follow-change", detail: { follow });
//                       pin: followed rows pinned on top; legend: the marks' legend, one tap away;
//                       quiet: no status of its own (the console, whose one status is the
//                       arbiter's: moves announced while results are typed would be noise)
// Methods: attach(feed), filter(predicate | null) -> { shown, total }, setPeople(list).
//
// A delta touches only the rows it changed (and the rank cells of those that moved): no row
// is rebuilt, and moves slide (FLIP, none under prefers-reduced-motion) with a polite status
// ("Rossi up to rank 3"). Rows: <tr data-start-no data-rank>, the name an element with
// data-name (the surname never cut: only given names take an ellipsis), each value a
// <td data-tb data-status>. Each tie-break's header is <th data-tb> with the code as its text
// and the full name as its accessible name, at every density and after every update
// (tbHeader). Light DOM, not a shadow root: the pages' one stylesheet (and its
// print rules) styles the table, and tests read it as the page's own.
import { config, el } from "./common.js";
import { href, num, t, tbName } from "./i18n.js";
import { GROUP, familyOf, pickColumns } from "./codes.js";

const NOT_FINAL = ["provisional", "pending", "predicted"];
const ANIMATED_MOST = 150; // rows measured for a move's animation; beyond, the rows just jump
const reduced = matchMedia("(prefers-reduced-motion: reduce)");

const list = (text) => (text ?? "").split(",").map((x) => x.trim()).filter(Boolean);
const positive = (text) => {
  const n = Number.parseInt(text ?? "", 10);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** A rating change's exact decimal string shown signed: "+7.2", "−3.6" (a minus sign), "0",
 *  "–" for none (no rated game yet). */
function signed(value) {
  if (value === null || value === undefined) return "–";
  if (value.startsWith("-")) return `−${num(value.slice(1))}`;
  return /^0(\.0*)?$/.test(value) ? num(value) : `+${num(value)}`;
}

/** A tie-break's column header, the same on every page and after every update: the code the
 *  tournament chose (BH/C1) as its text, `data-tb`, the full name as its accessible name and
 *  tooltip (with the values' status while they are not final: the tooltip is then its
 *  description too), the status's mark drawn beside it from `data-mark` (not text: the
 *  header's text is the code alone, whatever the round). */
export function tbHeader(code, status = "final", statusText = "") {
  const name = tbName(code);
  const mark = NOT_FINAL.includes(status) ? { mark: t(`table.mark.${status}`) } : {};
  return el("th", {
    scope: "col", class: "tb", "aria-label": name, title: statusText ? `${name}: ${statusText}` : name,
    dataset: { tb: code, status, ...mark },
  }, code);
}

/** "Rossi, Anna" -> the surname part (with its comma) and the given names. */
function nameParts(name) {
  const at = name.indexOf(",");
  return at < 0 ? [name, ""] : [name.slice(0, at + 1), name.slice(at + 1).trim()];
}

class StandingsTable extends HTMLElement {
  static observedAttributes = ["top", "follow", "columns", "rows", "page-seconds", "density", "page", "rating-change"];

  constructor() {
    super();
    this.trs = new Map(); // start no -> <tr>
    this.feed = null;
    this.model = null;
    this.people = new Map();
    this.page = 0;
    this.match = null; // the search: a row is shown when match(row) holds
    this.cols = []; // indexes of the tie-breaks shown
    this.columnsError = null; // { unknown, known } of the last check, for late listeners
    this.statusKey = "";
    this.listeners = [];
    this.timer = null;
  }

  connectedCallback() {
    if (!this.table) this.build();
    if (!this.feed && this.hasAttribute("tournament")) this.ownFeed();
    this.startPaging();
  }

  disconnectedCallback() {
    clearInterval(this.timer);
    this.timer = null;
  }

  attributeChangedCallback(name, was, now) {
    if (was === now || !this.model?.doc) return;
    if (name === "columns" || name === "density" || name === "rating-change") this.renderAll();
    else {
      if (name === "page-seconds" || name === "rows" || name === "page") this.startPaging();
      if (name === "follow") {
        this.syncStars();
        this.reorder();
      }
      this.layout();
    }
  }

  // --- the feed ---

  attach(feed) {
    for (const [type, fn] of this.listeners) this.feed.removeEventListener(type, fn);
    this.feed = feed;
    if (feed.info?.participants) this.people = new Map(feed.info.participants.map((p) => [p.start_no, p]));
    this.listeners = [
      ["snapshot", () => { this.model = feed.model; this.renderAll(); }],
      ["delta", (e) => { this.model = feed.model; this.applyDelta(e.detail.change); }],
    ];
    for (const [type, fn] of this.listeners) feed.addEventListener(type, fn);
    if (feed.model?.doc) {
      this.model = feed.model;
      this.renderAll();
    }
  }

  /** Without attach(): a feed of its own (boot.js), with `top` and `category`. */
  async ownFeed() {
    const { boot } = await import("./boot.js");
    const feed = await boot({
      tournament: this.getAttribute("tournament"), top: positive(this.getAttribute("top")),
      category: this.getAttribute("category"), rated: this.hasAttribute("rating-change"),
    });
    if (feed && !this.feed) this.attach(feed);
  }

  /** Participants' details (title, federation, rating) for the `details` columns. */
  setPeople(participants) {
    this.people = new Map(participants.map((p) => [p.start_no, p]));
    if (!this.hasAttribute("details")) return;
    for (const [no, tr] of this.trs) this.fillPerson(tr, no);
  }

  // --- building ---

  build() {
    this.table = el("table", { class: "standings" });
    this.pinned = el("tbody", { class: "pinned-rows" });
    this.body = el("tbody", { class: "rows" });
    this.legendBox = el("details", { class: "legend", hidden: true },
      el("summary", {}, t("table.legend.title")), el("ul", {}));
    this.pager = el("p", { class: "pager", hidden: true });
    this.live = this.hasAttribute("quiet") ? el("p", { class: "sr" }) : el("p", { class: "sr", role: "status", "aria-live": "polite" });
    this.append(this.legendBox, this.table, this.pager, this.live);
  }

  get density() {
    return this.getAttribute("density") ?? "comfortable";
  }

  get followed() {
    return new Set(list(this.getAttribute("follow")).map(Number));
  }

  statusText(status) {
    const doc = this.model.doc;
    const round = doc.round_in_progress ?? doc.after_round + 1;
    const first = status === "pending" && round <= 1 ? "_first" : ""; // no round before to be "as of"
    return t(`table.status.${status}${first}`, { round, before: round - 1 });
  }

  renderAll() {
    if (!this.table) this.build();
    const doc = this.model.doc;
    const asked = list(this.getAttribute("columns"));
    if (asked.length) {
      const { picked, unknown } = pickColumns(asked, doc.tiebreaks);
      this.cols = picked;
      const key = unknown.join();
      if (key !== (this.columnsError?.unknown ?? []).join()) {
        this.columnsError = unknown.length ? { unknown, known: doc.tiebreaks } : null;
        if (unknown.length) {
          this.dispatchEvent(new CustomEvent("columns-error", { detail: this.columnsError, bubbles: true }));
        }
      }
    } else {
      this.cols = doc.tiebreaks.map((_, i) => i);
      this.columnsError = null;
    }
    this.table.dataset.density = this.density;
    this.dataset.density = this.density;
    this.statusKey = this.model.statuses.join();
    this.trs.clear();
    const rows = this.model.sorted();
    this.body.replaceChildren();
    this.pinned.replaceChildren();
    for (const row of rows) this.trs.set(row.start_no, this.makeRow(row));
    const parts = [this.head()];
    if (this.hasAttribute("pin")) parts.push(this.pinned);
    parts.push(this.body);
    this.table.replaceChildren(...parts);
    if (!rows.length) {
      this.body.append(el("tr", {}, el("td", { class: "empty", colspan: 3 + this.cols.length }, t("console.no_players"))));
    }
    this.reorder();
    this.markAlone();
    this.legend();
    this.layout();
  }

  head() {
    const doc = this.model.doc;
    const tips = this.density !== "broadcast";
    return el("thead", {}, el("tr", {},
      el("th", { scope: "col", class: "rank" }, t("col.rank")),
      this.hasAttribute("stars") ? el("th", { scope: "col", class: "fol" }, el("span", { class: "sr" }, t("col.follow"))) : null,
      this.hasAttribute("details") ? [
        el("th", { scope: "col", class: "no" }, t("col.no")),
        el("th", { scope: "col", class: "name" }, t("col.name")),
        el("th", { scope: "col", class: "title" }, t("col.title")),
        el("th", { scope: "col", class: "fed" }, t("col.fed")),
        el("th", { scope: "col", class: "rating" }, t("col.rating")),
      ] : el("th", { scope: "col", class: "name" }, t("col.name")),
      this.cols.map((i) => {
        const code = doc.tiebreaks[i];
        const status = this.model.statuses[i] ?? "final";
        return tbHeader(code, status, tips && NOT_FINAL.includes(status) ? this.statusText(status) : "");
      }),
      this.hasAttribute("rating-change")
        ? el("th", { scope: "col", class: "rc", "aria-label": t("table.rating_change"), title: t("table.rating_change") }, "Δ")
        : null,
      this.density === "dense" ? [
        el("th", { scope: "col", class: "mark" }, el("span", { class: "sr" }, t("table.legend.title"))),
        el("th", { class: "more" }, el("span", { class: "sr" }, t("table.more_col"))),
      ] : null));
  }

  makeRow(row) {
    const p = this.people.get(row.start_no) ?? {};
    const [surname, given] = nameParts(row.name);
    const nameAttrs = { class: "who", dataset: { name: "" } };
    const name = this.hasAttribute("links")
      ? el("a", { ...nameAttrs, href: href(`/t/${this.tid()}/player/${row.start_no}`) })
      : el("span", nameAttrs);
    name.append(...this.nameSpans(row.name));
    const tr = el("tr", { dataset: { startNo: row.start_no, rank: row.rank } },
      el("td", { class: "rank" }, row.rank),
      this.hasAttribute("stars") ? el("td", { class: "fol" }, this.star(row.start_no, row.name)) : null,
      this.hasAttribute("details") ? [
        el("td", { class: "no" }, row.start_no),
        el("td", { class: "name" }, name),
        el("td", { class: "title" }, p.title ?? ""),
        el("td", { class: "fed" }, p.federation ?? ""),
        el("td", { class: "rating" }, p.rating ?? ""),
      ] : el("td", { class: "name" }, name),
      this.cols.map((i) => el("td", { class: "tb", dataset: { tb: this.model.doc.tiebreaks[i] } }, el("span", { class: "v" }))),
      this.hasAttribute("rating-change") ? el("td", { class: "rc" }) : null,
      this.density === "dense" ? el("td", { class: "mark" }) : null,
      this.density === "dense" ? el("td", { class: "more" }, el("button", {
        type: "button", "aria-expanded": "false", "aria-label": t("table.more", { name: row.name }),
        onclick: (e) => {
          const open = tr.classList.toggle("open");
          e.currentTarget.setAttribute("aria-expanded", String(open));
        },
      }, "▸")) : null);
    this.fill(tr, row);
    return tr;
  }

  /** The surname (never cut) and the given names (an ellipsis where room is short). */
  nameSpans(name) {
    const [surname, given] = nameParts(name);
    const spans = [el("span", { class: "sn" }, surname)];
    if (given) spans.push(el("span", { class: "gn" }, ` ${given}`));
    return spans;
  }

  tid() {
    return this.feed?.info?.id ?? this.getAttribute("tournament") ?? config.tournament;
  }

  star(no, name) {
    const on = this.followed.has(no);
    return el("button", {
      type: "button", class: "star", "aria-pressed": String(on),
      "aria-label": t(on ? "follow.remove" : "follow.add", { name }),
      onclick: () => this.toggleFollow(no),
    }, on ? "★" : "☆");
  }

  toggleFollow(no) {
    const now = this.followed;
    if (now.has(no)) now.delete(no);
    else now.add(no);
    const follow = [...now];
    this.setAttribute("follow", follow.join(","));
    this.dispatchEvent(new CustomEvent("follow-change", { detail: { follow }, bubbles: true }));
    this.trs.get(no)?.querySelector("button.star")?.focus();
  }

  syncStars() {
    if (!this.hasAttribute("stars")) return;
    const followed = this.followed;
    for (const [no, tr] of this.trs) {
      const button = tr.querySelector("button.star");
      if (button && (button.getAttribute("aria-pressed") === "true") !== followed.has(no)) {
        button.replaceWith(this.star(no, this.model.rows.get(no).name));
      }
    }
  }

  fillPerson(tr, no) {
    const p = this.people.get(no) ?? {};
    const set = (cls, value) => {
      const td = tr.querySelector(`td.${cls}`);
      const text = String(value ?? "");
      if (td && td.textContent !== text) td.textContent = text;
    };
    set("title", p.title);
    set("fed", p.federation);
    set("rating", p.rating);
  }

  /** Write a row's rank, name, values, statuses and mark into its <tr>: only what differs. */
  fill(tr, row) {
    if (tr.dataset.rank !== String(row.rank)) tr.dataset.rank = row.rank;
    const rank = tr.cells[0];
    if (rank.textContent !== String(row.rank)) rank.textContent = row.rank;
    const who = tr.querySelector("[data-name]");
    const [surname, given] = nameParts(row.name);
    if (who.textContent !== (given ? `${surname} ${given}` : surname)) who.replaceChildren(...this.nameSpans(row.name));
    const tips = this.density !== "broadcast";
    const marks = new Set();
    const marked = this.density === "dense" ? 2 : 0; // the values a dense row shows
    const cells = tr.querySelectorAll("td.tb");
    this.cols.forEach((i, k) => {
      const td = cells[k];
      const status = this.model.statuses[i] ?? "final";
      const v = td.firstChild;
      const text = td.dataset.alone === "true" ? "–" : num(row.values[i]);
      if (v.textContent !== text) v.textContent = text;
      if (td.dataset.status !== status) td.dataset.status = status;
      const code = this.model.doc.tiebreaks[i];
      const tip = !tips ? "" : td.dataset.alone === "true" ? t("table.alone", { code })
        : `${tbName(code)}: ${this.statusText(status)}`;
      if (td.title !== tip) td.title = tip;
      if (k < marked && NOT_FINAL.includes(status) && td.dataset.alone !== "true") marks.add(status);
    });
    const rc = tr.querySelector("td.rc");
    if (rc) {
      const text = signed(row.rating_change);
      if (rc.textContent !== text) {
        rc.textContent = text;
        rc.dataset.sign = text === "–" ? "none" : text[0] === "+" ? "up" : text[0] === "−" ? "down" : "zero";
      }
    }
    const mark = tr.querySelector("td.mark");
    const symbols = NOT_FINAL.filter((s) => marks.has(s));
    const text = symbols.map((s) => t(`table.mark.${s}`)).join("");
    if (mark && mark.textContent !== text) {
      mark.textContent = text;
      mark.title = tips ? symbols.map((s) => this.statusText(s)).join("; ") : "";
    }
  }

  // --- deltas ---

  applyDelta(change) {
    const { changed, moved } = change;
    const before = this.measure();
    const flipped = this.model.statuses.join() !== this.statusKey;
    this.statusKey = this.model.statuses.join();
    if (this.body.querySelector("td.empty")) this.body.replaceChildren();
    for (const no of this.model.rows.keys()) {
      if (this.trs.has(no)) continue;
      const tr = this.makeRow(this.model.rows.get(no));
      this.trs.set(no, tr);
      changed.delete(no);
    }
    for (const [no, tr] of this.trs) {
      if (!this.model.rows.has(no)) {
        tr.remove();
        this.trs.delete(no);
      }
    }
    const touched = flipped ? [...this.model.rows.keys()] : new Set([...changed, ...moved.keys()]);
    for (const no of touched) this.fill(this.trs.get(no), this.model.rows.get(no));
    if (flipped) {
      this.table.tHead.replaceWith(this.head());
      this.legend();
    }
    this.reorder();
    this.markAlone();
    this.layout();
    this.animate(before);
    for (const no of changed) {
      if (moved.has(no)) continue;
      const tr = this.trs.get(no);
      if (!tr || tr.hidden) continue;
      tr.classList.remove("fresh");
      void tr.offsetWidth; // restart the highlight
      tr.classList.add("fresh");
    }
    this.announce(moved);
  }

  /** Where each shown row is now, the running slides stopped first (a row measured in
   *  mid-slide would slide from the wrong place and cross its neighbours). */
  measure() {
    if (reduced.matches || !this.isConnected) return null;
    const shown = [...this.trs.values()].filter((tr) => !tr.hidden);
    if (shown.length > ANIMATED_MOST) return null;
    for (const tr of shown) for (const a of tr.getAnimations()) a.cancel();
    return new Map(shown.map((tr) => [tr, tr.getBoundingClientRect().top]));
  }

  /** Slide every shown row that moved from where it was (FLIP): all at once, the same
   *  duration, so the rows between keep their order and none covers another at rest. */
  animate(before) {
    if (!before) return;
    for (const [tr, top] of before) {
      if (tr.hidden || !tr.isConnected) continue;
      const dy = top - tr.getBoundingClientRect().top;
      if (Math.abs(dy) < 1) continue;
      tr.classList.add("moving");
      const slide = tr.animate([{ transform: `translateY(${dy}px)` }, { transform: "translateY(0)" }],
        { duration: 500, easing: "ease-in-out" });
      slide.onfinish = slide.oncancel = () => tr.classList.remove("moving");
    }
  }

  announce(moved) {
    if (this.hasAttribute("quiet")) return;
    const followed = this.followed;
    const said = [];
    for (const [no, [was, now]] of moved) {
      if (!was || !now || was === now) continue;
      if (!followed.has(no) && now > 10 && was > 10) continue;
      const tr = this.trs.get(no);
      if (!tr || tr.hidden) continue;
      const [surname] = nameParts(this.model.rows.get(no).name);
      said.push(t(now < was ? "table.moved_up" : "table.moved_down", { name: surname.replace(/,$/, ""), rank: now }));
      if (said.length >= 3) break;
    }
    if (said.length) this.live.textContent = said.join(t("list.comma"));
  }

  // --- order, pages, search ---

  /** The rows in the model's order (the followed ones in the pinned section with `pin`):
   *  only the rows out of place are moved. */
  reorder() {
    const place = (body, nos) => {
      const kids = body.children;
      nos.forEach((no, i) => {
        const tr = this.trs.get(no);
        if (kids[i] !== tr) body.insertBefore(tr, kids[i] ?? null);
      });
    };
    const order = this.model.order.filter((no) => this.trs.has(no));
    if (this.hasAttribute("pin")) {
      const followed = this.followed;
      place(this.pinned, order.filter((no) => followed.has(no)));
      place(this.body, order.filter((no) => !followed.has(no)));
      for (const tr of this.pinned.children) tr.classList.add("pinned");
      for (const tr of this.body.querySelectorAll("tr.pinned")) tr.classList.remove("pinned");
    } else {
      place(this.body, order);
    }
  }

  /** Group tie-breaks (DE and the like) mean something only inside a tie: a row that shares
   *  its points and the tie-breaks before with no other row shows a dash (its value stays in
   *  the feed and the JSON). A filtered view's last row may be tied with a row it does not
   *  hold: it keeps its value. */
  markAlone() {
    const doc = this.model.doc;
    const groups = this.cols.filter((i) => GROUP.has(familyOf(doc.tiebreaks[i])));
    if (!groups.length) return;
    const rows = this.model.sorted();
    for (const i of groups) {
      const key = (row) => JSON.stringify(row.values.slice(0, i));
      const k = this.cols.indexOf(i);
      rows.forEach((row, at) => {
        const mine = key(row);
        const tied = (at > 0 && key(rows[at - 1]) === mine) || (at + 1 < rows.length && key(rows[at + 1]) === mine)
          || (this.model.filtered && at === rows.length - 1);
        const td = this.trs.get(row.start_no).querySelectorAll("td.tb")[k];
        const alone = String(!tied);
        if (td.dataset.alone === alone) return;
        td.dataset.alone = alone;
        this.fill(this.trs.get(row.start_no), row);
      });
    }
  }

  filter(match) {
    this.match = match;
    return this.layout();
  }

  startPaging() {
    clearInterval(this.timer);
    this.timer = null;
    if (!positive(this.getAttribute("rows")) || this.hasAttribute("page") || !this.isConnected) return;
    const seconds = positive(this.getAttribute("page-seconds")) ?? 10;
    this.timer = setInterval(() => {
      this.page += 1;
      if (this.model?.doc) this.layout();
    }, seconds * 1000);
  }

  /** Which rows are shown: the search, `top`, the page, the followed ones; the others carry
   *  `hidden`. The count shown and the total. */
  layout() {
    if (!this.model?.doc) return { shown: 0, total: 0 };
    const top = positive(this.getAttribute("top"));
    const per = positive(this.getAttribute("rows"));
    const followed = this.followed;
    const pinning = this.hasAttribute("pin");
    const order = this.model.order.filter((no) => this.trs.has(no));
    let candidates = order.filter((no) => !pinning || !followed.has(no));
    if (top !== null) candidates = candidates.slice(0, top);
    else if (!pinning && per === null && followed.size) candidates = []; // the followed alone
    if (this.match) candidates = candidates.filter((no) => this.match(this.model.rows.get(no)));
    let onPage = candidates;
    let pages = 1;
    if (per !== null) {
      pages = Math.max(1, Math.ceil(candidates.length / per));
      const asked = positive(this.getAttribute("page")); // the holder turns the pages
      if (asked !== null) this.page = asked - 1;
      this.page %= pages;
      onPage = candidates.slice(this.page * per, (this.page + 1) * per);
    }
    const visible = new Set(onPage);
    for (const no of followed) {
      if (!this.trs.has(no)) continue;
      if (!this.match || this.match(this.model.rows.get(no))) visible.add(no);
    }
    for (const [no, tr] of this.trs) {
      const hide = !visible.has(no);
      if (tr.hidden !== hide) tr.hidden = hide;
      const f = followed.has(no);
      if (tr.classList.contains("followed") !== f) tr.classList.toggle("followed", f);
    }
    const paging = pages > 1;
    this.pager.hidden = !paging;
    if (paging) this.pager.textContent = t("table.page", { page: this.page + 1, pages });
    return { shown: visible.size, total: order.length };
  }

  // --- the legend ---

  legend() {
    const open = this.hasAttribute("legend");
    this.legendBox.hidden = !open;
    if (!open) return;
    const doc = this.model.doc;
    const present = new Set(this.cols.map((i) => this.model.statuses[i] ?? "final"));
    const round = doc.round_in_progress ?? doc.after_round + 1;
    const items = [el("li", {}, t("table.legend.final"))];
    for (const s of NOT_FINAL) {
      if (!present.has(s)) continue;
      const key = s === "pending" && round <= 1 ? "table.legend.pending_first" : `table.legend.${s}`;
      items.push(el("li", {}, t(key, { mark: t(`table.mark.${s}`), round, before: round - 1 })));
    }
    const groups = this.cols.map((i) => doc.tiebreaks[i]).filter((c) => GROUP.has(familyOf(c)));
    if (groups.length) items.push(el("li", {}, t("table.legend.alone", { codes: groups.join(", ") })));
    this.legendBox.querySelector("ul").replaceChildren(...items);
  }
}

customElements.define("standings-table", StandingsTable);
