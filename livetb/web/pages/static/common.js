// What every page shares: building elements, the page's settings, the language switch, the
// tournament's token (private tournaments) and reading the REST API.
import { lang, t } from "./i18n.js";
import { resultText } from "./results.js";

export const config = JSON.parse(document.getElementById("config").textContent);
export const app = document.getElementById("app");

/** document.createElement with attributes (`on*` become listeners) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** Links to this page in every language (a real link: the server picks the catalog). */
export function languageSwitch() {
  const nav = el("nav", { class: "langs", "aria-label": t("lang.switch") });
  for (const code of ["en", "it"]) {
    const query = new URLSearchParams(location.search);
    query.set("lang", code);
    nav.append(
      el("a", { href: `?${query}`, hreflang: code, lang: code, "aria-current": code === lang ? "true" : null },
        t(`lang.${code}`)),
    );
  }
  return nav;
}

// --- a private tournament's token: from `#token=…`, kept for this browser session only ---

const tokenKey = (tid) => `livetb.token.${tid}`;

export function takeToken(tid) {
  const found = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (found) {
    sessionStorage.setItem(tokenKey(tid), decodeURIComponent(found[1]));
    // Out of the address bar (and of anything copied from it); never sent to the server.
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(tokenKey(tid));
}

/** Ask for the token in a form; resolves with what was entered. */
export function askToken(tid, refused) {
  return new Promise((resolve) => {
    const input = el("input", {
      id: "token", name: "token", type: "password", autocomplete: "off", required: true,
      "aria-describedby": refused ? "token-error" : null,
    });
    const form = el("form", { class: "token-form", onsubmit: (e) => {
      e.preventDefault();
      sessionStorage.setItem(tokenKey(tid), input.value.trim());
      form.remove();
      resolve(input.value.trim());
    } },
      el("h1", {}, t("token.title")),
      el("p", {}, t("token.unknown_or_private")),
      refused ? el("p", { id: "token-error", class: "error", role: "alert" }, t("token.refused")) : null,
      el("label", { for: "token" }, t("token.label")),
      input,
      el("button", { type: "submit" }, t("token.submit")),
    );
    app.replaceChildren(form);
    app.setAttribute("aria-busy", "false");
    input.focus();
  });
}

export class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** GET a JSON document of the API, with the token if there is one. "no-cache": always asked
 * again, with the ETag of what the browser kept, so an unchanged document is a bodiless 304
 * (a token's answers are never kept: `private, no-store`). */
export async function getJSON(path, token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const resp = await fetch(path, { headers, cache: "no-cache" });
  if (!resp.ok) {
    let message = resp.statusText;
    try { message = serverWords(await resp.json()); } catch { /* not JSON */ }
    throw new HttpError(resp.status, message);
  }
  return resp.json();
}

/** The tournament's info, asking for a token for as long as the server refuses it. */
export async function openTournament(tid) {
  let token = takeToken(tid);
  let refused = false;
  for (;;) {
    try {
      const info = await getJSON(`/api/tournaments/${encodeURIComponent(tid)}`, token);
      return { info, token };
    } catch (err) {
      // A private tournament answers as an unknown one (404) without one of its tokens.
      if (!(err instanceof HttpError) || ![401, 403, 404].includes(err.status)) throw err;
      refused = token !== null;
      token = await askToken(tid, refused);
    }
  }
}

/** The page's error, in words, in place of the page. */
export function showError(err) {
  app.replaceChildren(el("p", { class: "error", role: "alert" }, t("error.load", { message: err.message })));
  app.setAttribute("aria-busy", "false");
}

/** The round's state, apart from the connection's: "Round 6 · in progress" / "After round 5". */
export function stateLine(header, rounds) {
  if (header.round_in_progress) return t("state.running", { round: header.round_in_progress });
  if (header.after_round >= rounds && rounds) return t("state.final");
  if (header.after_round) return t("state.after", { round: header.after_round });
  return t("state.before");
}

/** A component's one polite status line: each outcome replaces the one before, so an old
 * error never stays above a later success. */
export function statusLine(attrs = {}) {
  const line = el("p", { class: "status", role: "status", "aria-live": "polite", ...attrs });
  line.say = (text, tone = "info") => tell(line, text, tone);
  line.clear = () => line.say("");
  /** A write's outcome: `ok(body)` on success, else the refusal in words. */
  line.answered = (answer, ok) => (answer.ok ? line.say(ok(answer.body), "ok") : line.say(problem(answer), "error"));
  return line;
}

/** A form that saves a whole table is held (every control disabled, busy) until `load` (true
 *  once the table is in) has read it: a row added before would vanish, and a save would drop
 *  what it has not read. A load lost to bad Wi-Fi is tried again at the console's next refresh. */
export function loadHeld(form, load) {
  const hold = (held) => {
    form.setAttribute("aria-busy", String(held));
    for (const control of form.elements) control.disabled = held;
  };
  let loaded = false;
  const attempt = async () => { if (!loaded && (await load())) { loaded = true; hold(false); } };
  hold(true);
  document.addEventListener("livetb:info", attempt);
  attempt();
}

/** A write's async submit or click handler that a second submit does not run again while the
 *  first is on its way: a double click, or Enter pressed twice on bad Wi-Fi, writes once, and
 *  the status says how that write went (not a refusal of its twin). Meanwhile `status` says
 *  the request is on its way (`waiting`, a catalog key), not what the write before it said:
 *  an old "saved" under a new edit would claim that edit is saved. */
export function oneAtATime(handler, status, waiting = "console.sending") {
  let running = null;
  return (e) => {
    if (running) { e.preventDefault(); return; }
    const said = t(waiting);
    tell(status, said, "info");
    // The button pressed says so too: on a phone it may be far below the status line.
    const button = e.submitter ?? (e.currentTarget instanceof HTMLButtonElement ? e.currentTarget : null);
    button?.setAttribute("aria-busy", "true");
    running = Promise.resolve(handler(e)).finally(() => {
      running = null;
      button?.removeAttribute("aria-busy");
      if (status.textContent === said) tell(status, "", "info"); // it stopped without a word
      // A refusal in view: pressed under a long preview, it would go unseen on a phone.
      else if (status.dataset.tone === "error") status.scrollIntoView({ block: "nearest" });
    });
  };
}

/** A status line's text and tone (a `statusLine`, or a plain status paragraph). */
function tell(status, text, tone) {
  status.dataset.tone = tone;
  status.textContent = text;
}

/** A broadcast delay in words: "delayed 15 min" (whole minutes, or any delay from 10 min),
 *  else "delayed 90 s" (90 s stays 90 s, not "2 min"). */
export function delayText(seconds) {
  return seconds % 60 === 0 || seconds >= 600
    ? t("live.delayed_min", { minutes: Math.round(seconds / 60) })
    : t("live.delayed_s", { seconds });
}

/** The small live / delayed / reconnecting / offline badge every page shows (kept by
 *  boot.js): a live feed under a broadcast delay (`delay` seconds, a public reader's) says
 *  "delayed 15 min", not "live". */
export function liveBadge() {
  const badge = el("span", { class: "live", role: "status", dataset: { state: "connecting" } }, t("live.connecting"));
  badge.set = (state, delay = 0) => {
    const delayed = state === "live" && delay > 0;
    const text = delayed ? delayText(delay) : t(`live.${state}`);
    badge.dataset.state = delayed ? "delayed" : state;
    if (badge.textContent !== text) badge.textContent = text;
  };
  return badge;
}

/** An idempotency key (crypto.randomUUID needs https; a LAN page may be plain http). */
function freshKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// A write that got no answer may have been made or not (the connection can drop after the
// server read it): sent again unchanged, it keeps its idempotency key, so the server makes it
// once however many times it is sent. By request: method, path, token and body.
const unanswered = new Map();
// Bad Wi-Fi can leave a request waiting for minutes: the console says so and lets it be sent again.
const ANSWER_MS = 30000;

/** A request to the API with the arbiter's token; never throws for an HTTP answer. A write
 *  with no answer (`unanswered`) is sent again with its key; a read or a preview with none
 *  wrote nothing (`network`). */
export async function send(method, path, token, body, { text = null, dryRun = false } = {}) {
  const headers = { Authorization: `Bearer ${token}` };
  let payload;
  if (text !== null) {
    headers["Content-Type"] = "text/plain";
    payload = text;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const write = method !== "GET" && !dryRun;
  const request = `${method} ${path}\n${token}\n${payload ?? ""}`;
  headers["Idempotency-Key"] = unanswered.get(request) ?? freshKey();
  let resp;
  try {
    resp = await fetch(dryRun ? `${path}${path.includes("?") ? "&" : "?"}dry_run=1` : path, {
      method, headers, body: payload, cache: "no-store", signal: AbortSignal.timeout(ANSWER_MS),
    });
  } catch (err) {
    if (!write) return { ok: false, status: 0, body: { code: "network", message: String(err) } };
    unanswered.set(request, headers["Idempotency-Key"]);
    return { ok: false, status: 0, body: { code: "unanswered", message: String(err) } };
  }
  if (write) unanswered.delete(request);
  let data = null;
  try { data = await resp.json(); } catch { /* not JSON */ }
  return { ok: resp.ok, status: resp.status, body: data ?? {} };
}

/** A message the server sends as a catalog key and values, in the page's language; its
 * English `text` when it names none, or words this page's catalog leaves out. */
function worded(key, params, text) {
  if (!key) return text;
  try {
    return t(key, params ?? {});
  } catch {
    return text;
  }
}

/** One part of a TRF file's issue ("where", "found" or "expected") in the page's language
 * (`<part>_key` and `<part>_params`). */
export function issuePart(issue, part) {
  return worded(issue[`${part}_key`], issue[`${part}_params`], issue[part]);
}

/** An error body's own message in the page's language (`said`). */
export function serverWords(body) {
  return worded(body.said?.key, body.said?.params, body.message);
}

/** A refused request in words: the catalog's message for its code, else the server's. */
export function problem(answer) {
  const body = answer.body ?? {};
  const code = answer.status === 401 ? "not_authenticated" : answer.status === 403 ? "wrong_tournament" : body.code;
  const key = `err.${code}`;
  const message = serverWords(body);
  const params = {
    ...body, boards: (body.boards ?? []).join(", "), message: message ?? "",
    current: resultText(body.current), expected: resultText(body.value),
  };
  const issues = body.issues ?? [];
  let text;
  try {
    text = t(key, params);
  } catch {
    text = t("err.other", { message: message ?? answer.status });
  }
  if (issues.length) {
    text += ` ${issues.slice(0, 5).map((i) => t("err.trf_issue", {
      line: i.line, columns: i.columns ? i.columns.join("–") : "",
      found: issuePart(i, "found"), expected: issuePart(i, "expected"),
    })).join("; ")}`;
  }
  return text;
}
