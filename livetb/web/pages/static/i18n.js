// The language's catalog, embedded in the page by the server (livetb/i18n/<lang>.json, the
// same files the CLI reads): every word a page shows comes from here.
const catalog = JSON.parse(document.getElementById("catalog").textContent);
export const lang = document.documentElement.lang;

/** A message with its {placeholders} filled; a placeholder's value may itself be a message
 * the server names ({key, params}) or several (a list), worded here in the same language, or a
 * decimal ({num}), shown with the language's separator. */
export function t(key, params = {}) {
  const text = catalog[key];
  if (text === undefined) throw new Error(`no message ${key} in the ${lang} catalog`);
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? filled(params[name]) : `{${name}}`));
}

function filled(value) {
  if (Array.isArray(value)) return value.map(filled).join("; "); // several messages
  if (value === null || typeof value !== "object") return String(value);
  return "num" in value ? num(value.num) : t(value.key, value.params ?? {}); // a decimal, a message
}

/** A value as shown: decimals with the language's separator (12,5 in Italian). */
export function num(value) {
  if (value === null || value === undefined) return "–";
  return String(value).replace(".", catalog["num.decimal"]);
}

/** A tie-break's full name: BH/C1 -> "Buchholz Cut-1", KS/L+1 -> "Koya limit +1". */
export function tbName(code) {
  const [head, ...mods] = code.split("/");
  const [family, points] = head.split(":");
  const key = `tb.${family}`;
  let name = key in catalog ? t(key) : family;
  if (points) name += ` (${points})`;
  for (const m of mods) {
    const cut = /^([CM])(\d)$/.exec(m);
    const limit = /^L([+-]?\d+)$/.exec(m);
    if (cut) name += ` ${t(`mod.${cut[1]}`, { n: cut[2] })}`;
    else if (limit) name += `, ${t("mod.L", { limit: limit[1] })}`;
  }
  return name;
}

/** A link to another page, in the same language. */
export function href(path, params = {}) {
  const query = new URLSearchParams({ ...params, lang });
  return `${path}?${query}`;
}
