// /: the public tournaments, with links to their pages.
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
  const items = listing.tournaments.map((x) => el("li", {},
    el("a", { href: href(`/t/${encodeURIComponent(x.id)}`) }, el("strong", {}, x.name)),
    el("nav", { class: "links", "aria-label": x.name },
      el("a", { href: href(`/t/${encodeURIComponent(x.id)}`) }, t("nav.standings")),
      el("a", { href: href(`/t/${encodeURIComponent(x.id)}/overlay`) }, t("nav.overlay")),
      el("a", { href: href(`/t/${encodeURIComponent(x.id)}/screen`) }, t("nav.screen")))));
  app.replaceChildren(
    el("header", { class: "top" }, el("h1", {}, t("list.title")), languageSwitch()),
    el("p", { class: "sub" }, t("app.tagline")),
    items.length ? el("ul", { class: "tournaments" }, items) : el("p", {}, t("list.none")),
    el("p", { class: "hint" }, t("list.private"), " · ", el("a", { href: "/api" }, t("nav.api"))));
  app.setAttribute("aria-busy", "false");
}

main();
