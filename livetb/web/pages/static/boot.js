// The one start-up of every tournament page (standings, card, overlay, screen, console): open
// the tournament (asking for a private one's token), follow its feed (feed.js: resume with
// since=, reload on refusal), keep the live badge and `<html data-connection>` honest, keep the
// last standings in this browser and show them at once when the page opens without a network.
// Under a broadcast delay a reader without a token of the tournament sees the standings late:
// the badge says "delayed 15 min" and `<html data-connection="delayed">` while the feed is live.
//
//   const feed = await boot({
//     tournament,            // default: the page's settings (config.tournament)
//     token,                 // a token already known (the console); default: #token= / asked
//     top, participants,     // a filtered feed (top N, or these start numbers)
//     category,              // passed to the feed as &category=
//     rated,                 // true: &with=rating_change (each row's `rating_change`, live)
//     settingsSeconds,       // how often a public reader reads the delay again (default 60)
//     onSnapshot(model, feed), onDelta(model, change, feed), onState(state, feed),
//     onRefused(),           // default: reload the page (which asks for a token again)
//   });
//
// It resolves once the tournament is open (null when it cannot be shown: the error is on the
// page), before any standings arrive, so the page builds itself right after the `await`.
// The Feed it resolves with is an EventTarget: "snapshot", "delta" (detail: { change }) and
// "state" (detail: { state }) events, for components (<standings-table>.attach(feed)); and
// .model (feed.js Standings), .info (GET /api/tournaments/{id}), .token, .status (the badge and
// the "saved at" note, for the page's header; .badge alone), .state ("connecting" | "live" | "reconnecting" | "offline"),
// .delay (seconds: the broadcast delay this reader sees, 0 with a token; a "state" event when
// it changes), .savedAt (ms: the time of standings kept from an earlier visit while they are shown, else
// null), .stop().
import { config, el, HttpError, liveBadge, openTournament, showError } from "./common.js";
import { Standings, follow } from "./feed.js";
import { lang, t } from "./i18n.js";

const keptKey = (tid) => `livetb.last.${tid}`;
const KEEP_EVERY = 1000; // ms: at most one write of the kept standings a second
const KEEP_MOST = 2_000_000; // characters: a larger field is not kept (localStorage is ~5 MB)

/** `<html data-connection>`: live (delayed under a broadcast delay), or not (a first
 *  connection counts as reconnecting). */
function connection(state, delay = 0) {
  const shown = state === "live" && delay > 0 ? "delayed" : state === "live" || state === "offline" ? state : "reconnecting";
  document.documentElement.dataset.connection = shown;
}

/** The broadcast delay a reader sees: the tournament's, unless a token of it reads live. */
const delayOf = (info, token) => (token ? 0 : Math.max(0, Number(info.public_delay ?? 0)));
const SETTINGS_LEAST = 2000; // ms: the least time between two reads of the delay

function kept(tid) {
  try {
    const found = JSON.parse(localStorage.getItem(keptKey(tid)) ?? "null");
    return found && found.snapshot && found.info ? found : null;
  } catch {
    return null;
  }
}

/** "21:05", or "3 Nov, 21:05" on another day. */
function when(ms) {
  const at = new Date(ms);
  const today = at.toDateString() === new Date().toDateString();
  const opts = today ? { hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  return at.toLocaleString(lang, opts);
}

export class Feed extends EventTarget {
  constructor(info, token) {
    super();
    this.info = info;
    this.token = token;
    this.model = null;
    this.state = "connecting";
    this.delay = delayOf(info, token);
    this.savedAt = null;
    this.badge = liveBadge();
    this.saved = el("span", { class: "saved", hidden: true });
    this.status = el("span", { class: "connection" }, this.badge, " ", this.saved); // for the header
    this.stop = () => {};
  }
}

/** The service worker (sw.js) that keeps this page and its modules for a reopen without a
 *  network; told what this visit loaded, which it did not see (it starts after them). */
function keepOffline() {
  if (!("serviceWorker" in navigator)) return; // plain http on a LAN address: no offline reopen
  navigator.serviceWorker.register("/sw.js")
    .then(() => navigator.serviceWorker.ready)
    .then((reg) => {
      const loaded = performance.getEntriesByType("resource").map((e) => e.name);
      reg.active?.postMessage({ keep: [location.href.split("#")[0], ...loaded] });
    })
    .catch(() => { /* no worker: the page still works online */ });
}

export async function boot({
  tournament = config.tournament, token = undefined, top = null, participants = null,
  category = null, rated = false, settingsSeconds = 60, onSnapshot, onDelta, onState,
  onRefused = () => location.reload(),
} = {}) {
  connection("connecting");
  let info;
  let startFrom = null;
  try {
    if (token === undefined) ({ info, token } = await openTournament(tournament));
    else info = await fetchInfo(tournament, token);
  } catch (err) {
    startFrom = err instanceof HttpError ? null : kept(tournament); // a network failure only
    if (!startFrom) {
      showError(err);
      connection("offline");
      return null;
    }
    info = startFrom.info;
    token ??= null;
  }
  const feed = new Feed(info, token);
  keepOffline();
  const filtered = top !== null || participants !== null || category !== null || rated;
  const keep = !info.private && !filtered;
  let timer = null;
  const save = () => {
    timer = null;
    if (!feed.model?.doc) return;
    const text = JSON.stringify({ at: Date.now(), info, snapshot: feed.model.message() });
    try {
      if (text.length <= KEEP_MOST) localStorage.setItem(keptKey(tournament), text);
    } catch { /* storage full or refused: the page works without it */ }
  };
  let saved = false;
  const later = () => {
    if (!keep || timer !== null) return;
    if (!saved) { // the first standings at once: a visit may be short
      saved = true;
      save();
    } else timer = setTimeout(save, KEEP_EVERY);
  };
  if (keep) addEventListener("pagehide", () => { if (timer !== null) { clearTimeout(timer); save(); } });

  const setState = (state) => {
    feed.state = state;
    feed.badge.set(state, feed.delay);
    connection(state, feed.delay);
    if (state === "live" && feed.savedAt !== null) {
      feed.savedAt = null;
      feed.saved.hidden = true;
    }
    feed.dispatchEvent(new CustomEvent("state", { detail: { state } }));
    onState?.(state, feed);
  };

  // The delay set, changed or lifted while the page is open: a public reader's feed carries
  // no word of it (its stream holds still, or catches up), so the settings are read again
  // now and then, after a snapshot past the first and, on the whole feed, after a change that
  // moved nothing (a setting's event, such as the delay's own once it is public; a filtered
  // view gets such changes for every event outside it).
  let reading = false;
  let lastRead = Date.now();
  const rereadDelay = async () => {
    if (token || reading || Date.now() - lastRead < SETTINGS_LEAST) return;
    reading = true;
    lastRead = Date.now();
    try {
      const fresh = await fetchInfo(tournament, token);
      feed.info.public_delay = fresh.public_delay;
      const delay = delayOf(fresh, token);
      if (delay !== feed.delay) {
        feed.delay = delay;
        setState(feed.state);
      }
    } catch { /* the badge keeps what it said */ } finally {
      reading = false;
    }
  };
  if (!token) {
    setInterval(() => { if (document.visibilityState !== "hidden") rereadDelay(); }, settingsSeconds * 1000);
  }
  let snapshots = 0;
  const snapshot = (model) => {
    snapshots += 1;
    if (snapshots > 1) rereadDelay();
    feed.model = model;
    // Components first: the page's own handler sees them up to date.
    feed.dispatchEvent(new CustomEvent("snapshot", { detail: { model } }));
    onSnapshot?.(model, feed);
    later();
  };

  let model = null;
  if (startFrom) {
    model = new Standings(false);
    model.snapshot(startFrom.snapshot);
    feed.savedAt = startFrom.at;
    feed.saved.textContent = t("boot.saved", { time: when(startFrom.at) });
    feed.saved.hidden = false;
  }
  // Started after the page has built itself on the resolved feed (a task later).
  setTimeout(() => {
    if (model) snapshot(model);
    feed.stop = follow(tournament, {
      token, top, participants, category, rated, heartbeat: config.heartbeat ?? 20, model,
    }, {
      state: setState,
      snapshot,
      delta: (m, change) => {
        const still = !change.changed.size && !change.moved.size && !change.games.length && !change.round && !change.prizes;
        if (still && !filtered) rereadDelay();
        feed.model = m;
        feed.dispatchEvent(new CustomEvent("delta", { detail: { change } }));
        onDelta?.(m, change, feed);
        later();
      },
      refused: onRefused,
    });
  }, 0);
  return feed;
}

async function fetchInfo(tid, token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const resp = await fetch(`/api/tournaments/${encodeURIComponent(tid)}`, { headers, cache: "no-cache" });
  if (!resp.ok) throw new HttpError(resp.status, resp.statusText);
  return resp.json();
}
