// The engine's explanations (tie-break parts, cuts, unplayed rounds) in the page's language:
// each known phrase of the card API mapped to its catalog message.
import { lang, t } from "./i18n.js";

const OUTCOMES = new Set(["WIN", "DRAW", "LOSS", "SHORT_WIN", "SHORT_DRAW", "SHORT_LOSS", "FORFEIT_WIN",
  "FORFEIT_LOSS", "HALF_BYE", "FULL_BYE", "PAB", "ZERO_BYE", "UNKNOWN", "PENDING"]);

const outcome = (kind) => (OUTCOMES.has(kind) ? t(`outcome.${kind.toLowerCase()}`) : kind);

// `who(no)`: a participant's name, or null when the page does not know it (yet).
const NOTES = [
  [/^opponent (\d+)$/, (m, who) => (who(m[1]) ? t("card.note_opponent", { name: who(m[1]), no: m[1] }) : t("note.opponent", { no: m[1] }))],
  [/^virtual opponent \((\w+)\)$/, (m) => t("note.virtual", { kind: outcome(m[1]) })],
  [/^own unplayed \((\w+)\), capped$/, (m) => t("note.own_capped", { kind: outcome(m[1]) })],
  [/^own unplayed \((\w+)\)$/, (m) => t("note.own", { kind: outcome(m[1]) })],
  [/^BH of opponent (\d+)$/, (m, who) => (who(m[1]) ? t("card.note_bh_of", { name: who(m[1]), no: m[1] }) : t("note.bh_of", { no: m[1] }))],
  [/^(\w+) of opponent (\d+)$/, (m, who) => (who(m[2])
    ? t("card.note_value_of", { label: m[1], name: who(m[2]), no: m[2] })
    : t("note.value_of", { label: m[1], no: m[2] }))],
  [/^opponent's rating$/, () => t("note.rating")],
  [/^first loss$/, () => t("note.first_loss")],
  [/^(\w+)$/, (m) => outcome(m[1])],
];

const CUTS = [
  [/^cut$/, () => t("cut.cut")],
  [/^cut first: own voluntarily unplayed round$/, () => t("cut.voluntary")],
  [/^Cut: early round$/, () => t("cut.early")],
  [/^cut: rating$/, () => t("cut.rating")],
  [/^opponent (\d+) below the limit (.+)$/, (m) => t("cut.koya", { no: m[1], limit: m[2] })],
];

function translate(rules, text, who) {
  if (!text) return "";
  for (const [pattern, make] of rules) {
    const m = pattern.exec(text);
    if (m) return make(m, who);
  }
  return text;
}

export const noteText = (text, who = () => null) => translate(NOTES, text, who);
export const cutText = (text) => translate(CUTS, text, () => null);
export { outcome };

/** An unplayed round's C.07 category in words ("Not played: requested bye followed by an
 * available round"); null for a played round or a game in progress. */
export function categoryText(line) {
  if (line.outcome === "pending" || line.category === null) return null;
  return t("card.unplayed", { text: t(`cat.${line.category}`) });
}

/** The regulation's article behind an unplayed round's category (shown as a tooltip). */
export function categoryArticle(line) {
  return line.category === null ? null : t("card.article", { n: line.category });
}

/** "A, B and C". */
export function listing(items) {
  if (items.length < 2) return items.join("");
  return items.slice(0, -1).join(t("list.comma")) + t("list.and") + items.at(-1);
}

const ordinals = new Intl.PluralRules(lang, { type: "ordinal" });

/** A rank as an ordinal: 1st, 2nd, 23rd (3º in Italian). */
export function ordinal(n) {
  return t(`card.ord.${ordinals.select(n)}`, { n });
}

/** The first letter in capitals: a catalog's lower-case word at the start of a line. */
export const capital = (text) => text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
