import { describe, expect, test } from 'vitest';
import { PageWindow } from '../../../src/renderer/src/lib/state/page-window.svelte.js';

describe('a page window', () => {
  test('steps a page at a time and never past either end', () => {
    let total = 25;
    const w = new PageWindow(10, () => total);
    expect([w.hasPrevious, w.hasNext]).toEqual([false, true]);
    expect(w.back()).toBe(false);
    expect(w.forward()).toBe(true);
    expect(w.forward()).toBe(true);
    expect(w.offset).toBe(20);
    expect(w.forward()).toBe(false);
    expect(w.offset).toBe(20);
    total = 40;
    expect(w.hasNext).toBe(true);
    expect(w.back()).toBe(true);
    w.reset();
    expect(w.offset).toBe(0);
  });
});
