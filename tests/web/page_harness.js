// Runs livetb/web/static/index.html's script in node against a live server, with just enough
// DOM: prints the rendered table as JSON once the page shows log seq `target`.
// usage: node --experimental-websocket page_harness.js PAGE_HTML BASE_URL TID TARGET_SEQ
"use strict";
const fs = require("fs");
const [page, base, tid, target] = process.argv.slice(2);
const els = {};
function el(tag) {
  return {
    tag, children: [], textContent: "", className: "",
    append(...c) { this.children.push(...c); },
    replaceChildren(...c) { this.children = c; },
  };
}
global.document = { getElementById: id => (els[id] ??= el(id)), createElement: el };
global.location = { protocol: "http:", host: base.replace("http://", ""), search: `?tournament=${tid}` };
const realFetch = fetch;
global.fetch = path => realFetch(base + path);
eval(fs.readFileSync(page, "utf8").match(/<script>([\s\S]*)<\/script>/)[1]);
const timer = setInterval(() => {
  if (!els.status || !els.status.textContent.endsWith(`log seq ${target}`)) return;
  clearInterval(timer);
  const rows = els.body.children.map(tr => tr.children.map(td => [td.textContent, td.className]));
  console.log(JSON.stringify({ status: els.status.textContent, rows }));
  process.exit(0);
}, 20);
setTimeout(() => { console.error("timeout: " + (els.status && els.status.textContent)); process.exit(1); }, 8000);
