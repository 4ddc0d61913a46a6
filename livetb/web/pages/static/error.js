// A page for what is not there (unknown tournament or participant), in the reader's language.
import { app, config, el, languageSwitch } from "./common.js";
import { href, t } from "./i18n.js";

app.replaceChildren(
  el("header", { class: "top" }, el("h1", {}, t(config.message)), languageSwitch()),
  el("p", {}, el("a", { href: href("/") }, t("nav.tournaments"))));
app.setAttribute("aria-busy", "false");
