// Tie-break codes in any notation the API accepts (BH/C1, BHC1, BH-C1, aliases such as RBT for
// DE), read as livetb/engine/spec.py reads them, to match a page's ?columns= against the
// tournament's own codes. The aliases and the group tie-breaks come with the page's settings.
import { config } from "./common.js";

const ALIASES = config.tiebreak_aliases ?? {};
export const GROUP = new Set(config.group_tiebreaks ?? []);

/** A code's family, point type and modifiers, in one canonical string: "BH/C1", "KS/L+1". */
function canonical(raw, families) {
  const text = raw.trim().toUpperCase().replace(/\s+/g, "");
  let [head, ...mods] = text.split("/");
  let points = "";
  [head, points = ""] = head.split(":");
  const known = [...families, ...Object.keys(ALIASES)].sort((a, b) => b.length - a.length);
  const family = known.find((c) => head.startsWith(c));
  if (!family) return null;
  const rest = head.slice(family.length).replace(/^-/, "");
  if (rest) mods.unshift(rest);
  const base = ALIASES[family] ?? family;
  return `${base}${points ? `:${points}` : ""}${mods.length ? `/${[...mods].sort().join("/")}` : ""}`;
}

export const familyOf = (code) => code.split("/")[0].split(":")[0];

/** The indexes of the tournament's tie-breaks asked for, and the codes it does not have. */
export function pickColumns(asked, tiebreaks) {
  const families = [...new Set(tiebreaks.map(familyOf))];
  const mine = tiebreaks.map((c) => canonical(c, families));
  const picked = [];
  const unknown = [];
  for (const code of asked) {
    const at = mine.indexOf(canonical(code, families));
    if (at < 0) unknown.push(code);
    else if (!picked.includes(at)) picked.push(at);
  }
  return { picked, unknown };
}
