/**
 * The window of a list of rows of one height (History's grid): the rows seen and the overscan,
 * from the scroll position alone, and a number of DOM rows that every window fits in.
 */
import { describe, expect, test } from 'vitest';
import {
  revealOffset,
  rowWindow,
  slotCount,
  windowIndices,
  type RowGeometry,
} from '../../../src/renderer/src/lib/fixed-rows.js';

const G: RowGeometry = { rowHeight: 24, head: 26, overscan: 5 };

describe('rowWindow', () => {
  test('at the top: the rows under the header, and the overscan after them', () => {
    // 240 px under a 26 px header: rows 0 to 9, one cut off, and the overscan of both sides.
    expect(rowWindow(0, 266, 1_000_000, G)).toEqual({ start: 0, end: 20 });
  });

  test('scrolled: the overscan on both sides', () => {
    // Row 1000 starts at 24,000 px; 240 px show rows 1000 to 1009.
    expect(rowWindow(24_000, 266, 1_000_000, G)).toEqual({ start: 995, end: 1015 });
    // Half a row further: row 1000 is half seen, row 1010 half seen.
    expect(rowWindow(24_012, 266, 1_000_000, G)).toEqual({ start: 995, end: 1015 });
  });

  test('at the end of a million rows: nothing past the last', () => {
    const last = 999_999;
    const top = (last + 1) * 24 - 240;
    expect(rowWindow(top, 266, 1_000_000, G)).toEqual({ start: last - 20, end: last });
  });

  test('no rows, or no room: an empty window', () => {
    const empty = rowWindow(0, 266, 0, G);
    expect(empty.end).toBeLessThan(empty.start);
    const hidden = rowWindow(0, 0, 1_000_000, G);
    expect(hidden.end).toBeLessThan(hidden.start);
    expect(windowIndices(hidden)).toEqual([]);
  });

  test('a short list: its rows only', () => {
    expect(windowIndices(rowWindow(0, 900, 4, G))).toEqual([0, 1, 2, 3]);
  });
});

describe('slotCount', () => {
  test('every window holds the rows seen, slotCount of them, each its own index % slotCount', () => {
    const total = 1_000_000;
    for (const view of [27, 50, 266, 500, 873, 900]) {
      const slots = slotCount(view, G);
      for (let top = 0; top < 2_000; top += 7) {
        const indices = windowIndices(rowWindow(top, view, total, G));
        expect(indices).toHaveLength(slots);
        expect(new Set(indices.map((i) => i % slots)).size).toBe(slots);
        // The first and last row seen, even in part.
        expect(indices[0]).toBeLessThanOrEqual(Math.floor(top / 24));
        expect(indices.at(-1)).toBeGreaterThanOrEqual(Math.floor((top + view - 26 - 1) / 24));
      }
    }
  });

  test('does not grow with the list: 21 DOM rows for 240 px of a million rows', () => {
    expect(slotCount(266, G)).toBe(10 + 1 + 10);
  });
});

describe('revealOffset', () => {
  test('a row on screen: the list does not move', () => {
    expect(revealOffset(1003, 24_000, 266, G)).toBe(24_000);
  });

  test('a row above: it comes to the top, under the header', () => {
    expect(revealOffset(990, 24_000, 266, G)).toBe(990 * 24);
  });

  test('a row below: it comes to the bottom, whole', () => {
    // Row 1010 ends at 26 + 1011 * 24 px of the scroller's content.
    expect(revealOffset(1010, 24_000, 266, G)).toBe(26 + 1011 * 24 - 266);
  });
});
