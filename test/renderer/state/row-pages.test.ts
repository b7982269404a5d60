import { describe, expect, test } from 'vitest';
import {
  RowPages,
  type PageFetcher,
  type RowsAnswer,
} from '../../../src/renderer/src/lib/state/row-pages.svelte.js';
import { deferred, settle, type Deferred } from '../fake-bridge.js';

/** A list of `total` rows ("q:index"), read by offset; every read is recorded. */
function list(total: number, query = 'q') {
  const reads: number[] = [];
  const fetch: PageFetcher<string> = (offset, limit) => {
    reads.push(offset);
    const rows: string[] = [];
    for (let i = offset; i < Math.min(total, offset + limit); i++) rows.push(`${query}:${i}`);
    return Promise.resolve({ rows, total });
  };
  return { reads, fetch };
}

/** Reads the test answers by hand, in any order. */
function held() {
  const pending = new Map<number, Deferred<RowsAnswer<string>>>();
  const fetch: PageFetcher<string> = (offset) => {
    const d = deferred<RowsAnswer<string>>();
    pending.set(offset, d);
    return d.promise;
  };
  const answer = (offset: number, total: number, query = 'q', size = 10) => {
    const rows = Array.from({ length: size }, (_, i) => `${query}:${offset + i}`);
    pending.get(offset)?.resolve({ rows, total });
    pending.delete(offset);
  };
  return { pending, fetch, answer };
}

describe('the pages of a long list', () => {
  test('a new query reads its first page; rows are null ("Loading…") until their page lands', async () => {
    const pages = new RowPages<string>({ pageSize: 10 });
    const { reads, fetch } = list(95);
    void pages.reset(fetch);
    expect(pages.rowAt(0)).toBeNull();
    expect(pages.known).toBe(false);
    await settle();
    expect(reads).toEqual([0]);
    expect(pages.rowAt(0)).toBe('q:0');
    expect(pages.rowAt(9)).toBe('q:9');
    expect(pages.rowAt(10)).toBeNull();
    expect(pages.total).toBe(95);
    expect(pages.known).toBe(true);
  });

  test('the rows on screen are read, with half a page around them, each page once', async () => {
    const pages = new RowPages<string>({ pageSize: 10, maxInFlight: 10 });
    const { reads, fetch } = list(1000);
    void pages.reset(fetch);
    await settle();
    pages.show(42, 55);
    await settle();
    expect(reads.slice(1).sort((a, b) => a - b)).toEqual([30, 40, 50, 60]);
    pages.show(43, 56);
    await settle();
    expect(reads).toHaveLength(5);
    expect(pages.rowAt(56)).toBe('q:56');
  });

  test('a million rows keep at most maxPages pages: the farthest from the screen go first', async () => {
    const pages = new RowPages<string>({ pageSize: 200, maxPages: 5 });
    const { reads, fetch } = list(1_000_000);
    void pages.reset(fetch);
    await settle();
    for (let start = 0; start < 1_000_000; start += 25_000) {
      pages.show(start, start + 40);
      await settle();
      expect(pages.cachedPages).toBeLessThanOrEqual(5);
      expect(pages.rowAt(start)).toBe(`q:${start}`);
      expect(pages.rowAt(start + 40)).toBe(`q:${start + 40}`);
    }
    expect(pages.rowAt(0)).toBeNull(); // evicted long ago
    const before = reads.length;
    pages.show(0, 40);
    await settle();
    expect(reads.length).toBe(before + 1);
    expect(reads.at(-1)).toBe(0);
    expect(pages.rowAt(0)).toBe('q:0');
  });

  test('an answer to an older query is dropped when it lands', async () => {
    const pages = new RowPages<string>({ pageSize: 10 });
    const first = held();
    void pages.reset(first.fetch);
    const second = held();
    void pages.reset(second.fetch);
    second.answer(0, 20, 'new');
    await settle();
    first.answer(0, 99, 'old');
    await settle();
    expect(pages.rowAt(0)).toBe('new:0');
    expect(pages.total).toBe(20);
  });

  test('what was shown stays until the new answers cover the screen', async () => {
    const pages = new RowPages<string>({ pageSize: 10, maxInFlight: 10 });
    const h = held();
    void pages.reset(h.fetch);
    h.answer(0, 100, 'v1');
    await settle();
    pages.show(12, 25);
    await settle();
    for (const offset of [10, 20, 30]) h.answer(offset, 100, 'v1');
    await settle();
    expect(pages.rowAt(12)).toBe('v1:12');

    void pages.refresh();
    expect(pages.rowAt(12)).toBe('v1:12'); // not blank while the refresh is on its way
    expect(pages.known).toBe(false);
    h.answer(10, 101, 'v2');
    await settle();
    expect(pages.rowAt(12)).toBe('v2:12');
    expect(pages.rowAt(25)).toBe('v1:25'); // its page is still on its way
    h.answer(20, 101, 'v2');
    await settle();
    expect(pages.rowAt(25)).toBe('v2:25');
    expect(pages.rowAt(35)).toBeNull(); // the old generation is gone once the screen is covered
  });

  test('at most maxInFlight reads at once; a fast scroll skips the pages it has passed', async () => {
    const pages = new RowPages<string>({ pageSize: 10, maxInFlight: 2 });
    const h = held();
    void pages.reset(h.fetch);
    h.answer(0, 10_000);
    await settle();
    for (let start = 100; start <= 5000; start += 100) pages.show(start, start + 9);
    expect(h.pending.size).toBe(2);
    for (const offset of [...h.pending.keys()]) h.answer(offset, 10_000);
    await settle();
    // The screen's page and the half page after it; the pages in between were never read.
    expect([...h.pending.keys()].sort((a, b) => a - b)).toEqual([5000, 5010]);
  });

  test('a failed read says why, and Try again reads it once more', async () => {
    const pages = new RowPages<string>({ pageSize: 10 });
    let fail = true;
    const { fetch } = list(30);
    void pages.reset((offset, limit) =>
      fail ? Promise.reject(new Error('store locked')) : fetch(offset, limit),
    );
    await settle();
    expect(pages.error).toBe('Betdesk could not complete that; please try again.');
    expect(pages.rowAt(0)).toBeNull();
    fail = false;
    pages.retry();
    await settle();
    expect(pages.error).toBeNull();
    expect(pages.rowAt(0)).toBe('q:0');
  });

  test('a new query resolves once its first rows are in, or once it is replaced', async () => {
    const pages = new RowPages<string>({ pageSize: 10 });
    const first = held();
    const done: string[] = [];
    void pages.reset(first.fetch).then(() => done.push('first'));
    const second = held();
    void pages.reset(second.fetch).then(() => done.push('second'));
    await settle();
    expect(done).toEqual(['first']); // replaced: its caller asks for nothing more
    second.answer(0, 10);
    await settle();
    expect(done).toEqual(['first', 'second']);
  });
});
