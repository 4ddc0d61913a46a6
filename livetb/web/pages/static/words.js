// The engine's explanations (tie-break parts, cuts) in the page's language: each known
// phrase of the card API mapped to its catalog message.
import { t } from "./i18n.js";

const OUTCOMES = new Set(["WIN", "DRAW", "LOSS", "SHORT_WIN", "SHORT_DRAW", "SHORT_LOSS", "FORFEIT_WIN",
  "FORFEIT_LOSS", "HALF_BYE", "FULL_BYE", "PAB", "ZERO_BYE", "UNKNOWN", "PENDING"]);

const outcome = (kind) => (OUTCOMES.has(kind) ? t(`outcome.${kind.toLowerCase()}`) : kind);

const NOTES = [
  [/^opponent (\d+)$/, (m) => t("note.opponent", { no: m[1] })],
  [/^virtual opponent \((\w+)\)$/, (m) => t("note.virtual", { kind: outcome(m[1]) })],
  [/^own unplayed \((\w+)\), capped$/, (m) => t("note.own_capped", { kind: outcome(m[1]) })],
  [/^own unplayed \((\w+)\)$/, (m) => t("note.own", { kind: outcome(m[1]) })],
  [/^BH of opponent (\d+)$/, (m) => t("note.bh_of", { no: m[1] })],
  [/^(\w+) of opponent (\d+)$/, (m) => t("note.value_of", { label: m[1], no: m[2] })],
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

function translate(rules, text) {
  if (!text) return "";
  for (const [pattern, make] of rules) {
    const m = pattern.exec(text);
    if (m) return make(m);
  }
  return text;
}

export const noteText = (text) => translate(NOTES, text);
export const cutText = (text) => translate(CUTS, text);
export { outcome };

/** A round of the results strip in words: played, in progress, or its C.07 16.2 category. */
export function categoryText(line) {
  if (line.outcome === "pending") return t("cat.pending");
  if (line.category === null) return t("cat.played");
  return t("cat.unplayed", { n: line.category, text: t(`cat.${line.category}`) });
}

/** "A, B and C". */
export function listing(items) {
  if (items.length < 2) return items.join("");
  return items.slice(0, -1).join(t("list.comma")) + t("list.and") + items.at(-1);
}
