// The pages' service worker (served at /sw.js: its scope covers every page). It keeps the page
// shells (/t/…) and the static modules, so that a phone that reopens a page without a network
// gets the page, which then shows the standings boot.js kept (localStorage) at once. For a
// shell the network comes first: a cached copy is used only when it fails or takes longer than
// WAIT. A shell names its modules by version (/static/<version>/…), which never change: those
// come from the cache first. Once a visit has been kept, the files of a version that no kept
// shell names any more are let go (an upgrade's leftovers). The API and the feed are never
// cached here: their answers are live, or absent.
const CACHE = "livetb-pages-1";
const WAIT = 4000; // ms before a page (or an unversioned file) comes from the cache instead

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

function kept(url) {
  const { origin, pathname } = new URL(url);
  return origin === self.location.origin && (pathname.startsWith("/static/") || pathname.startsWith("/t/"));
}

// A page's first visit happens before this worker controls it: the page names what it
// loaded (boot.js), and those are fetched into the cache.
self.addEventListener("message", (event) => {
  const urls = (event.data?.keep ?? []).filter(kept);
  event.waitUntil(caches.open(CACHE).then(async (cache) => {
    await Promise.all(urls.map(async (url) => {
      if (!(await cache.match(url))) {
        try {
          await cache.add(url);
        } catch { /* away again: the next visit keeps it */ }
      }
    }));
    await letGo(cache);
  }));
});

// A versioned path: /static/ and the 12 hex digits of the files' digest (shell.py).
const VERSION_PATH = "/static/([0-9a-f]{12})/";
const VERSIONED = new RegExp(`^${VERSION_PATH}`);

/** The versioned files of `cache` whose version no kept shell names. The shells are read
 *  only when more than one version is kept (after an upgrade). */
async function letGo(cache) {
  const files = new Map(); // version -> its requests
  const shells = [];
  for (const request of await cache.keys()) {
    const { pathname } = new URL(request.url);
    const version = VERSIONED.exec(pathname)?.[1];
    if (version) {
      if (!files.has(version)) files.set(version, []);
      files.get(version).push(request);
    } else if (pathname.startsWith("/t/")) shells.push(request);
  }
  if (files.size < 2) return;
  const named = new Set();
  for (const shell of shells) {
    const text = await (await cache.match(shell))?.text() ?? "";
    for (const found of text.matchAll(new RegExp(VERSION_PATH, "g"))) named.add(found[1]);
  }
  for (const [version, requests] of files) {
    if (!named.has(version)) await Promise.all(requests.map((r) => cache.delete(r)));
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !kept(request.url)) return;
  const versioned = VERSIONED.test(new URL(request.url).pathname);
  event.respondWith(versioned ? cacheFirst(request) : networkFirst(request));
});

/** A versioned file never changes: a kept copy is the file, with no network at all (and a
 *  page kept from before an upgrade still runs, where no server has its version any more). */
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const resp = await fetch(request);
  if (resp.ok) cache.put(request, resp.clone());
  return resp;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, WAIT, null); });
  const fresh = fetch(request).then((resp) => {
    if (resp.ok) cache.put(request, resp.clone());
    return resp;
  });
  try {
    const answer = await Promise.race([fresh, late]);
    if (answer) return answer;
  } catch { /* no network: the cached copy below */ } finally {
    clearTimeout(timer);
  }
  const cached = await cache.match(request) ?? await cache.match(request, { ignoreSearch: true });
  return cached ?? fresh;
}
