// Fitting pages into a fixed frame (the overlay's OBS source, the venue screen): how many rows a
// page holds is measured on the rows themselves, never guessed from a font size, so a name that
// wraps, a page indicator or a message above the table are counted in.

/** The largest n in 1..total for which `apply(n)` leaves `overflows()` false (1 if none does),
 *  starting from `estimate`; `apply` must lay out synchronously (attributes, styles). */
export function fitRows(apply, overflows, total, estimate = total) {
  let n = Math.max(1, Math.min(total, Math.floor(estimate) || 1));
  apply(n);
  while (n > 1 && overflows()) apply(--n);
  while (n < total) {
    apply(n + 1);
    if (overflows()) {
      apply(n);
      break;
    }
    n += 1;
  }
  return n;
}

/** A first guess of the rows that fit: the room below the rows' top over the tallest row. */
export function estimateRows(rows, bottom) {
  const shown = rows.filter((r) => !r.hidden && r.getClientRects().length);
  if (!shown.length) return 1;
  const top = shown[0].getBoundingClientRect().top;
  const height = Math.max(...shown.map((r) => r.getBoundingClientRect().height), 1);
  return Math.max(1, Math.floor((bottom - top) / height));
}

/** Whether `box` reaches outside the frame (the viewport less `margin` px each side). */
export function outside(box, margin = 0) {
  const r = box.getBoundingClientRect();
  return r.top < margin - 0.5 || r.left < margin - 0.5
    || r.bottom > innerHeight - margin + 0.5 || r.right > innerWidth - margin + 0.5;
}

/** Whether any element in `cells` has text cut off (wider or taller than its box). */
export function clipped(cells) {
  return cells.some((c) => c.scrollWidth > c.clientWidth + 0.5);
}

/** Run `fn` once per animation frame at most, however often it is asked for. */
export function throttled(fn) {
  let asked = false;
  return () => {
    if (asked) return;
    asked = true;
    requestAnimationFrame(() => {
      asked = false;
      fn();
    });
  };
}
