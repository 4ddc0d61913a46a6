// A standings row as a table row, shared by the standings page, the overlay and the screen:
// `<tr data-start-no data-rank>` with one `<td data-tb data-status>` per tie-break value.
import { num, t } from "./i18n.js";
import { el } from "./common.js";

/** The cells of one tie-break value: the value, and its code and status for small screens. */
export function valueCell(code, value, status) {
  return el("td", { class: "tb", dataset: { tb: code, status } },
    el("span", { class: "code", "aria-hidden": "true" }, code),
    el("span", { class: "v" }, num(value)),
    el("span", { class: "badge", dataset: { status } }, t(`status.short.${status}`)));
}

/** Write `row`'s current values into its `<tr>` (made by the page); only what differs. */
export function fillValues(tr, row, statuses, firstValue) {
  tr.dataset.rank = row.rank;
  tr.cells[0].textContent = row.rank;
  row.values.forEach((value, i) => {
    const td = tr.cells[firstValue + i];
    const text = num(value);
    const v = td.querySelector(".v");
    if (v.textContent !== text) v.textContent = text;
    const status = statuses[i];
    if (td.dataset.status !== status) {
      td.dataset.status = status;
      const badge = td.querySelector(".badge");
      badge.dataset.status = status;
      badge.textContent = t(`status.short.${status}`);
    }
  });
}

/** Slide rows from where they were to where they are (FLIP), for the rows that moved. */
export function animateMoves(trs, before) {
  for (const [tr, top] of before) {
    const now = tr.getBoundingClientRect().top;
    const dy = top - now;
    if (!dy || !tr.animate) continue;
    tr.animate([{ transform: `translateY(${dy}px)` }, { transform: "translateY(0)" }],
      { duration: 600, easing: "ease-out" });
    tr.classList.remove("up", "down");
    void tr.offsetWidth; // restart the highlight
    tr.classList.add(dy > 0 ? "up" : "down");
  }
}

/** Each row's position on screen before a change moves it. */
export function positions(trs, nos) {
  const out = [];
  for (const no of nos) {
    const tr = trs.get(no);
    if (tr && tr.isConnected) out.push([tr, tr.getBoundingClientRect().top]);
  }
  return out;
}
