// A game's result as shown: 1–0, ½–½, forfeits; an unfinished game in words.
import { t } from "./i18n.js";

const RESULTS = { "1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½", "0-0": "0–0", "+-": "+ –", "-+": "– +", "--": "– –" };

export function resultText(result) {
  return result ? RESULTS[result] ?? result : t("pairings.pending");
}
