// /: the public tournaments, each with its id, start date, last update and status (not
// started / round k of n / finished), links to its pages and to its arbiters' console, and
// the way to create one (/new).
import { app, el, getJSON, languageSwitch, showError } from "./common.js";
import { href, lang, t } from "./i18n.js";

/** "3 May 2025" from an ISO date (the day itself, whatever the time zone). */
const day = (iso) => new Date(`${iso}T00:00:00`).toLocaleDateString(lang, { day: "numeric", month: "short", year: "numeric" });

/** "5 May 2025, 21:05" from an ISO time, in the reader's time zone. */
const moment = (iso) => new Date(iso).toLocaleString(lang, {
  day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
});

/** Where the tournament is: [status, words] as of the head the list shows. */
function status(x) {
  if (x.closed >= x.rounds) return ["finished", t("list.finished")];
  if (!x.paired) return ["not-started", t("list.not_started")];
  if (x.paired > x.closed) return ["running", t("list.running", { round: x.paired, rounds: x.rounds })];
  return ["after", t("list.after", { round: x.closed, rounds: x.rounds })];
}

async function main() {
  let listing;
  try {
    listing = await getJSON("/api/tournaments");
  } catch (err) {
    showError(err);
    return;
  }
  const items = listing.tournaments.map((x) => {
    const page = `/t/${encodeURIComponent(x.id)}`;
    const [state, words] = status(x);
    const facts = [
      el("span", { class: "tid" }, t("list.id"), " ", el("code", {}, x.id)),
      x.start_date ? el("span", { class: "start" }, t("list.start", { date: day(x.start_date) })) : null,
      x.updated ? el("span", { class: "updated" }, t("list.updated", { time: moment(x.updated) })) : null,
      el("span", { class: "status", dataset: { status: state } }, words),
    ].filter(Boolean);
    return el("li", { dataset: { id: x.id, status: state } },
      el("a", { href: href(page) }, el("strong", {}, x.name)),
      el("p", { class: "facts" }, facts.flatMap((f, i) => (i ? [" · ", f] : [f]))),
      el("nav", { class: "links", "aria-label": x.name },
        el("a", { href: href(page) }, t("nav.standings")),
        el("a", { href: href(`${page}/overlay`) }, t("nav.overlay")),
        el("a", { href: href(`${page}/screen`) }, t("nav.screen")),
        el("a", { href: href(`${page}/arbiter`) }, t("list.console"))));
  });
  app.replaceChildren(
    el("header", { class: "top" }, el("h1", {}, t("list.title")), languageSwitch()),
    el("p", { class: "sub" }, t("app.tagline")),
    el("p", { class: "new" }, el("a", { class: "button primary", href: href("/new") }, t("list.new"))),
    items.length ? el("ul", { class: "tournaments" }, items) : el("p", {}, t("list.none")),
    el("p", { class: "hint" }, t("list.private"), " · ", el("a", { href: "/api" }, t("nav.api"))));
  app.setAttribute("aria-busy", "false");
}

main();
