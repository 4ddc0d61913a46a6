// The engine's explanations in the page's language, and the other phrases the pages share
// (ranks, money, prizes, delays). An explanation is data, never English to translate: the card
// carries each tie-break part's source as `{kind, …fields}` and each cut as a reason's name,
// written here with the catalog keys the command line uses (livetb/i18n/explain.py has the
// same rules).
import { lang, num, t } from "./i18n.js";

const OUTCOMES = new Set(["WIN", "DRAW", "LOSS", "SHORT_WIN", "SHORT_DRAW", "SHORT_LOSS", "FORFEIT_WIN",
  "FORFEIT_LOSS", "HALF_BYE", "FULL_BYE", "PAB", "ZERO_BYE", "UNKNOWN", "PENDING"]);

/** A round's outcome in words, by its code's name ("HALF_BYE"). */
const outcome = (kind) => (OUTCOMES.has(kind) ? t(`outcome.${kind.toLowerCase()}`) : kind);

/** A source's field as a message's parameter: `outcome` its word, `of` the nested source in
 * words, `boards` the board products, anything else a number as the language writes it. */
function param(field, value, who) {
  if (field === "outcome") return t(`outcome.${value}`);
  if (field === "of") return sourceText(value, who);
  if (field === "boards") return value.map(([board, points]) => t("explain.board_product", { board, points: num(points) })).join(" + ");
  return num(value);
}

/** A tie-break part's source in words: `explain.<kind>` with its fields, or
 * `explain.<kind>.named` when `who(no)` knows participant `no`'s name (null: not yet). */
export function sourceText(source, who = () => null) {
  const params = {};
  for (const [field, value] of Object.entries(source)) if (field !== "kind") params[field] = param(field, value, who);
  const name = "no" in source ? who(source.no) : null;
  return name ? t(`explain.${source.kind}.named`, { ...params, name }) : t(`explain.${source.kind}`, params);
}

/** Why a part is cut, by its reason's name ("voluntary"); "" when it is not. */
export const cutText = (reason) => (reason ? t(`cut.${reason}`) : "");
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

// --- money and rating changes: exact decimal strings from the API, formatted, never computed
// in floating point (Intl.NumberFormat reads a string as the exact decimal it writes).

const moneyFormats = new Map();

/** An amount ("80.00", "80.50") in the tournament's currency as the page's language writes
 * it: "€80", "€80.50" in English, "80 €", "80,50 €" in Italian; whole amounts without cents,
 * unless `cents` (the venue screen's column of amounts: "€80.00"). */
export function money(amount, currency, { cents = false } = {}) {
  const whole = !cents && /^\d+(\.0*)?$/.test(amount);
  const key = `${currency}:${whole}`;
  if (!moneyFormats.has(key)) {
    let format;
    try {
      format = new Intl.NumberFormat(lang, { style: "currency", currency, ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}) });
    } catch { // not an ISO 4217 code: the number and the code as given
      format = { format: (text) => `${new Intl.NumberFormat(lang, whole ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2 }).format(text)} ${currency}` };
    }
    moneyFormats.set(key, format);
  }
  return moneyFormats.get(key).format(amount);
}

/** Two exact decimal strings compared: negative, zero or positive, like a sort's. */
export function compareDecimal(a, b) {
  const scale = (text) => (text.split(".")[1] ?? "").length;
  const digits = Math.max(scale(a), scale(b));
  const big = (text) => {
    const [whole, frac = ""] = text.split(".");
    const negative = whole.startsWith("-");
    const value = BigInt(whole.replace("-", "") + frac.padEnd(digits, "0"));
    return negative ? -value : value;
  };
  const d = big(a) - big(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** A rating change ("7.2", "-3.6", "0.0") signed for reading: +7.2, −3.6, 0.0 (7,2 in Italian). */
export function signed(change) {
  if (change.startsWith("-")) return `\u2212${num(change.slice(1))}`;
  return compareDecimal(change, "0") === 0 ? num(change) : `+${num(change)}`;
}

/** A prize of the card's lists: "3rd overall", "U1800 2nd prize" (`article`: as inside a
 * sentence, "the 3rd overall"). */
export function prizeName(list, place, article = false) {
  const at = ordinal(place);
  if (article) return list === "main" ? t("prize.phrase.main", { place: at }) : t("prize.phrase.list", { place: at, list });
  return list === "main" ? t("card.prize.main", { place: at }) : t("card.prize.list", { place: at, list });
}

/** A prize an outlook names, inside a sentence: "the 3rd overall", or a share with the places
 * it shares, "the 1st–3rd overall shared by 3". */
export function prizeRef(ref) {
  if (!(ref.shared > 1)) return prizeName(ref.list, ref.place, true);
  const [first, last] = ref.places;
  const params = { first: ordinal(first), last: ordinal(last), n: ref.shared, list: ref.list };
  return t(ref.list === "main" ? "prize.phrase.main_shared" : "prize.phrase.list_shared", params);
}

/** Whether an amount pays something (a trophy alone is worth "0"). */
export const paid = (amount) => Boolean(amount) && compareDecimal(amount, "0") > 0;

/** "the U1800 2nd prize (€80)", "the 1st–3rd overall shared by 3 (€66.67)", several prizes
 * listed when one player may take more than one, or "no prize". */
export function prizeReach(amount, refs, currency) {
  if (!paid(amount)) return t("card.prize.nothing");
  if (!refs.length) return money(amount, currency);
  return t("card.prize.with_amount", { prize: listing(refs.map(prizeRef)), amount: money(amount, currency) });
}

/** In the last round, the sentence a player wants: "A draw guarantees at least the U1800 2nd
 * prize (€80); a win can reach the 3rd overall (€200)". The weakest result that guarantees a
 * prize, and the strongest result's best when it is more than that guarantee: the rule of the
 * server's `prize_outlook.sentence`, here with the page's money. A best that is only a bound
 * (`exact: false`) is what that result pays at most, never what it can reach. Null when no
 * prize is open. */
export function prizeSentence(options, currency) {
  const by = new Map(options.map((o) => [o.result, o]));
  let guarantee = ["loss", "draw", "win"].map((r) => by.get(r)).find((o) => o && paid(o.worst)) ?? null;
  let strongest = ["win", "draw", "loss"].map((r) => by.get(r)).find(Boolean) ?? null;
  if (!strongest) { // no game of its own this round: its one result
    strongest = options[0];
    if (paid(strongest.worst)) guarantee = strongest;
  }
  let reach = paid(strongest.best) ? strongest : null;
  if (reach && guarantee && compareDecimal(reach.best, guarantee.worst) <= 0) reach = null;
  if (!guarantee && !reach) return null;
  const say = (side, o, amount, refs) => ({
    [`${side}_result`]: t(`prize.result.${o.result}`),
    [`${side}_prize`]: listing(refs.map(prizeRef)),
    [`${side}_amount`]: money(amount, currency),
  });
  const g = guarantee && say("guarantee", guarantee, guarantee.worst, guarantee.worst_prizes);
  const r = reach && say("reach", reach, reach.best, reach.best_prizes);
  const most = reach && reach.exact === false ? "_most" : "";
  let text;
  if (g && r) text = t(`prize.need.${guarantee.result === reach.result ? "same" : "both"}${most}`, { ...g, ...r });
  else if (g) text = t("prize.need.guarantee", g);
  else text = t(`prize.need.reach${most}`, r);
  return capital(text);
}

/** A broadcast delay in seconds as read: "15 min", "1 min 30 s", "45 s". */
export function delaySpan(seconds) {
  if (seconds % 60 === 0) return t("delay.min", { n: seconds / 60 });
  return seconds >= 60 ? t("delay.min_s", { m: Math.floor(seconds / 60), s: seconds % 60 }) : t("delay.s", { n: seconds });
}
