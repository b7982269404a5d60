/**
 * The window of a very long list whose rows all have one height (History's million settlements):
 * which rows to render at a scroll position, worked out in constant time and memory whatever the
 * row count. A general virtualiser keeps two numbers per row (16 MB for a million, rebuilt with a
 * new array of keys at each filter change); with one height a row's place is its index times it.
 *
 * The rows rendered are keyed by `index % slotCount`: a row scrolled off hands its DOM row to
 * the one scrolled on, so a scroll rewrites only the rows that came into the window and makes
 * none.
 */

export interface RowGeometry {
  /** Every row's height, in px. */
  rowHeight: number;
  /** A sticky header at the top of the scroller, over the rows, in px. */
  head: number;
  /** Rows rendered beyond each edge of the view. */
  overscan: number;
}

/** Rows to render, inclusive; `end < start` when there are none. */
export interface RowWindow {
  start: number;
  end: number;
}

/**
 * DOM rows a view `viewHeight` px tall renders: what it can show of the rows (one cut off at
 * each edge), and the overscan on both sides.
 */
export function slotCount(viewHeight: number, g: RowGeometry): number {
  return Math.ceil(Math.max(0, viewHeight - g.head) / g.rowHeight) + 1 + 2 * g.overscan;
}

/**
 * The rows to render for a view `viewHeight` px tall scrolled to `scrollTop`: always
 * `slotCount` consecutive rows (fewer only in a shorter list), with the rows seen and at least
 * the overscan on either side that has rows. Never a row fewer: `index % slotCount` then names
 * each row of the window apart, and a scroll by k rows hands the k rows that left to the k rows
 * that came.
 */
export function rowWindow(
  scrollTop: number,
  viewHeight: number,
  total: number,
  g: RowGeometry,
): RowWindow {
  if (total <= 0 || viewHeight <= g.head) return { start: 0, end: -1 };
  const slots = slotCount(viewHeight, g);
  const first = Math.floor(Math.max(0, scrollTop) / g.rowHeight);
  const start = Math.max(0, Math.min(first - g.overscan, total - slots));
  return { start, end: Math.min(total - 1, start + slots - 1) };
}

/** The indices of a window, first to last. */
export function windowIndices({ start, end }: RowWindow): number[] {
  const out: number[] = [];
  for (let i = start; i <= end; i++) out.push(i);
  return out;
}

/** The scroll position that brings row `index` fully into view, moving as little as it can. */
export function revealOffset(
  index: number,
  scrollTop: number,
  viewHeight: number,
  g: RowGeometry,
): number {
  const top = index * g.rowHeight;
  const bottom = top + g.rowHeight + g.head;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewHeight) return Math.max(0, bottom - viewHeight);
  return scrollTop;
}
