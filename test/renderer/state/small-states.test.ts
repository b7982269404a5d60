/** The small state classes: toasts, the screen reader's announcer, a screen's date filter. */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { Announcer } from '../../../src/renderer/src/lib/state/announcer.svelte.js';
import { DateRangeState } from '../../../src/renderer/src/lib/state/date-range.svelte.js';
import {
  MAX_TOASTS,
  TOAST_MS,
  ToastsState,
  type Toast,
} from '../../../src/renderer/src/lib/state/toasts.svelte.js';
import { NOW } from '../rows.js';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const toast = (tone: Toast['tone'], title: string): Omit<Toast, 'id'> => ({
    tone,
    title,
    message: '',
    target: null,
  });

  test('go away by themselves, danger ones later', () => {
    const toasts = new ToastsState();
    toasts.push(toast('ok', 'Filled'));
    toasts.push(toast('danger', 'Knocked out'));
    vi.advanceTimersByTime(TOAST_MS.ok);
    expect(toasts.items.map((t) => t.title)).toEqual(['Knocked out']);
    vi.advanceTimersByTime(TOAST_MS.danger - TOAST_MS.ok);
    expect(toasts.items).toEqual([]);
  });

  test('at most a few at once: the oldest gives way', () => {
    const toasts = new ToastsState();
    for (let i = 1; i <= MAX_TOASTS + 1; i++) toasts.push(toast('info', `n${i}`));
    expect(toasts.items.map((t) => t.title)).toEqual(
      Array.from({ length: MAX_TOASTS }, (_, i) => `n${i + 2}`),
    );
    expect(vi.getTimerCount()).toBe(MAX_TOASTS);
  });

  test('a dismissed toast goes at once, and its timer with it', () => {
    const toasts = new ToastsState();
    const id = toasts.push(toast('info', 'Sync paused'));
    toasts.dismiss(id);
    expect(toasts.items).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the announcer', () => {
  test('speaks fills politely and knockouts at once, and the same sentence twice is read twice', () => {
    const announcer = new Announcer();
    announcer.announce('Filled 25 ARS.');
    announcer.announce('Knocked out: ARS.', true);
    expect(announcer.polite).toBe('Filled 25 ARS.');
    expect(announcer.assertive).toBe('Knocked out: ARS.');
    announcer.announce('Filled 25 ARS.');
    expect(announcer.polite).not.toBe('Filled 25 ARS.');
    expect(announcer.polite.startsWith('Filled 25 ARS.')).toBe(true);
  });
});

describe('a screen’s date filter', () => {
  function setup() {
    const changes: number[] = [];
    const range = new DateRangeState(
      () => changes.push(changes.length),
      () => NOW,
    );
    return { range, changes };
  }

  test('all time narrows nothing; a period does, and tells the owner', () => {
    const { range, changes } = setup();
    expect(range.active).toBe(false);
    expect(range.bounds()).toEqual({});
    range.preset = '7d';
    expect(changes).toHaveLength(1);
    expect(range.active).toBe(true);
    expect(range.words).toBe('Last 7 days');
    range.preset = '7d';
    expect(changes).toHaveLength(1);
  });

  test('custom dates start from the period shown before, and only then follow each edit', () => {
    const { range, changes } = setup();
    range.from = '2030-01-01';
    expect(changes).toHaveLength(0);
    range.from = '';
    range.preset = '30d';
    const before = range.bounds();
    range.preset = 'custom';
    expect(range.bounds()).toEqual(before);
    range.to = '';
    expect(changes).toHaveLength(3);
  });

  test('dates that are not a range say why, and have no bounds', () => {
    const { range } = setup();
    range.preset = 'custom';
    range.from = '2030-02-01';
    range.to = '2030-01-01';
    expect(range.problem).toBe('The start date is after the end date.');
    expect(range.bounds()).toBeNull();
    expect(range.active).toBe(true);
    expect(range.words).toBe('Custom dates');
    range.clear();
    expect(range.problem).toBeNull();
    expect(range.preset).toBe('all');
  });
});
