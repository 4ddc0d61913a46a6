// /: the public tournaments, with links to their pages and to their arbiters' console, and
// the way to create one (/new).
import { app, el, getJSON, languageSwitch, showError } from "./common.js";
import { href, t } from "./i18n.js";

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
    return el("li", {},
      el("a", { href: href(page) }, el("strong", {}, x.name)),
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
