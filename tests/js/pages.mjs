// The pages' modules (livetb/web/pages/static) imported in Node, for their unit tests. Node
// reads a bare .js file as CommonJS, so the folder is copied into a temporary one that a
// package.json marks as ES modules; before the import, `document` stands in for the little
// of a page the modules read when they load: the settings, the catalog and the language the
// server embeds (livetb/web/pages/shell.py). Nothing here touches a real DOM.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const STATIC = join(ROOT, "livetb", "web", "pages", "static");
const copies = new Map(); // language -> the folder its modules load from (one catalog each)

/** A language's catalog, as the server embeds it in every page. */
export function catalog(lang) {
  return JSON.parse(readFileSync(join(ROOT, "livetb", "i18n", `${lang}.json`), "utf8"));
}

/** `static/<module>` loaded as a page in `lang` with the settings `config` would load it. */
export async function load(module, { lang = "en", config = {} } = {}) {
  let folder = copies.get(lang);
  if (!folder) {
    folder = mkdtempSync(join(tmpdir(), `livetb-pages-${lang}-`));
    cpSync(STATIC, folder, { recursive: true });
    writeFileSync(join(folder, "package.json"), '{"type": "module"}\n');
    process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
    copies.set(lang, folder);
  }
  const embedded = { config: JSON.stringify(config), catalog: JSON.stringify(catalog(lang)) };
  globalThis.document = {
    documentElement: { lang, dataset: {} },
    getElementById: (id) => ({ textContent: embedded[id] ?? "" }),
  };
  return import(pathToFileURL(join(folder, module)).href);
}
