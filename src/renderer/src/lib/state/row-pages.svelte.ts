/**
 * The rows of a very long list (a million settlements), read from main a page at a time as the
 * virtualised list scrolls to them. It keeps a bounded number of pages and drops the ones
 * farthest from what is on screen, so the renderer's memory does not grow with the list.
 *
 * A new query (a filter changed) or a refresh (the store changed) starts a new generation: an
 * answer to an older one is dropped when it arrives, and what was on screen stays there until
 * the new answers cover the rows on screen, so the list never blanks while it updates.
 */
import { messageOf } from '../bridge.js';

export interface RowsAnswer<T> {
  rows: T[];
  total: number;
}

/** Reads `limit` rows from `offset` of the current query. */
export type PageFetcher<T> = (offset: number, limit: number) => Promise<RowsAnswer<T>>;

export interface RowPagesOptions {
  /** Rows a read asks for. */
  pageSize?: number;
  /** Pages kept at most; the farthest from the screen go first. */
  maxPages?: number;
  /** Reads on their way at once; a fast scroll skips what it has already passed. */
  maxInFlight?: number;
}

export class RowPages<T> {
  readonly pageSize: number;
  readonly maxPages: number;
  readonly maxInFlight: number;
  #fetch: PageFetcher<T> | null = null;
  #generation = 0;
  // The page cache is plain on purpose: `#version` tells the rows on screen when a page lands,
  // one signal per page instead of one per row read.
  /* eslint-disable svelte/prefer-svelte-reactivity */
  #pages = new Map<number, T[]>();
  /** The last generation's pages, shown until this one covers the screen. */
  #shown: Map<number, T[]> | null = null;
  #inFlight = new Set<number>();
  #failed = new Set<number>();
  /* eslint-enable svelte/prefer-svelte-reactivity */
  /** The rows on screen, inclusive; end < start when none are yet. */
  #onScreen = { start: 0, end: -1 };
  #version = $state(0);
  #total = $state(0);
  #known = $state(false);
  #pending = $state(0);
  #error = $state<string | null>(null);
  #resets = $state(0);
  /** Called once the current query's first read has settled (answered, failed or replaced). */
  #firstWaiters: (() => void)[] = [];

  constructor(options: RowPagesOptions = {}) {
    this.pageSize = options.pageSize ?? 200;
    this.maxPages = options.maxPages ?? 40;
    this.maxInFlight = options.maxInFlight ?? 3;
  }

  // What follows is read-only outside: each field moves with the page cache and the generation.

  /** Rows the query matches (the last answer's count). */
  get total(): number {
    return this.#total;
  }
  /** The current query has answered at least once. */
  get known(): boolean {
    return this.#known;
  }
  /** Reads of the current query on their way. */
  get loading(): boolean {
    return this.#pending > 0;
  }
  get error(): string | null {
    return this.#error;
  }
  /** Counts new queries: the list goes back to its top when it changes. */
  get resets(): number {
    return this.#resets;
  }
  /** Pages held now (both generations), for the memory bound. */
  get cachedPages(): number {
    return this.#pages.size + (this.#shown?.size ?? 0);
  }

  /** The row at `index`, or null while its page is on its way ("Loading…"). */
  rowAt(index: number): T | null {
    void this.#version;
    const page = Math.floor(index / this.pageSize);
    const rows = this.#pages.get(page) ?? this.#shown?.get(page);
    return rows?.[index - page * this.pageSize] ?? null;
  }

  /**
   * A new query, read from its first rows: the list goes back to the top. Resolves once its first
   * read has settled, so the caller can ask main for slower things (totals) after the rows.
   */
  reset(fetch: PageFetcher<T>): Promise<void> {
    const visible = Math.max(0, this.#onScreen.end - this.#onScreen.start);
    this.#onScreen = { start: 0, end: visible };
    this.#fetch = fetch;
    this.#resets++;
    return this.#startGeneration();
  }

  /**
   * The same query read again (the store changed), where the list stands: the pages on screen
   * first. `fetch` replaces the reader when the query's bounds moved on (a new day).
   */
  refresh(fetch: PageFetcher<T> | null = this.#fetch): Promise<void> {
    if (!fetch) return Promise.resolve();
    this.#fetch = fetch;
    return this.#startGeneration();
  }

  /** Forgets everything, shown rows too (another account's rows must never flash up). */
  clear(): void {
    this.#releaseFirstWaiters();
    this.#generation++;
    this.#fetch = null;
    this.#pages.clear();
    this.#shown = null;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never shown
    this.#inFlight = new Set();
    this.#failed.clear();
    this.#pending = 0;
    this.#total = 0;
    this.#known = false;
    this.#error = null;
    this.#version++;
  }

  /** The rows on screen now (inclusive): reads the pages they need, and half a page around. */
  show(start: number, end: number): void {
    if (start === this.#onScreen.start && end === this.#onScreen.end) return;
    this.#onScreen = { start, end };
    this.#readWantedPages();
  }

  /** Reads again what failed. */
  retry(): void {
    this.#failed.clear();
    this.#error = null;
    this.#readWantedPages();
  }

  #startGeneration(): Promise<void> {
    this.#releaseFirstWaiters();
    this.#generation++;
    if (this.#pages.size > 0) this.#shown = this.#pages;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- see #pages
    this.#pages = new Map();
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never shown
    this.#inFlight = new Set();
    this.#pending = 0;
    this.#failed.clear();
    this.#known = false;
    this.#error = null;
    const first = new Promise<void>((resolve) => this.#firstWaiters.push(resolve));
    this.#readWantedPages();
    return first;
  }

  #releaseFirstWaiters(): void {
    const waiters = this.#firstWaiters;
    this.#firstWaiters = [];
    for (const w of waiters) w();
  }

  /** The pages on screen, then the half page before and after it. */
  #wantedPages(): number[] {
    const { start, end } = this.#onScreen;
    const size = this.pageSize;
    const lastPage = this.#known ? Math.max(0, Math.ceil(this.#total / size) - 1) : Infinity;
    const clamp = (p: number) => Math.min(Math.max(p, 0), lastPage);
    if (end < start) return [0];
    const first = clamp(Math.floor(start / size));
    const last = clamp(Math.floor(end / size));
    const pages: number[] = [];
    for (let p = first; p <= last; p++) pages.push(p);
    const before = clamp(Math.floor((start - size / 2) / size));
    const after = clamp(Math.floor((end + size / 2) / size));
    if (after > last) pages.push(after);
    if (before < first) pages.push(before);
    return pages;
  }

  /** The screen shows only this generation's rows. */
  #screenCovered(): boolean {
    const { start, end } = this.#onScreen;
    if (this.#total === 0) return true;
    const size = this.pageSize;
    const lastRow = Math.min(Math.max(end, start), this.#total - 1);
    const lastPage = Math.floor(lastRow / size);
    for (let p = Math.floor(Math.min(start, lastRow) / size); p <= lastPage; p++) {
      if (!this.#pages.has(p)) return false;
    }
    return true;
  }

  #readWantedPages(): void {
    if (!this.#fetch) return;
    for (const page of this.#wantedPages()) {
      if (this.#inFlight.size >= this.maxInFlight) break;
      if (this.#pages.has(page) || this.#inFlight.has(page) || this.#failed.has(page)) continue;
      void this.#readPage(page);
    }
  }

  async #readPage(page: number): Promise<void> {
    const generation = this.#generation;
    const read = this.#fetch;
    const inFlight = this.#inFlight;
    if (!read) return;
    inFlight.add(page);
    this.#pending++;
    try {
      const answer = await read(page * this.pageSize, this.pageSize);
      if (generation !== this.#generation) return;
      this.#pages.set(page, answer.rows);
      this.#total = answer.total;
      this.#known = true;
      this.#error = null;
      this.#evictFarthestPages();
      if (this.#screenCovered()) this.#shown = null;
      this.#version++;
      this.#releaseFirstWaiters();
    } catch (err) {
      if (generation !== this.#generation) return;
      this.#failed.add(page);
      this.#error = messageOf(err);
      this.#releaseFirstWaiters();
    } finally {
      inFlight.delete(page);
      if (generation === this.#generation) {
        this.#pending--;
        this.#readWantedPages();
      }
    }
  }

  /** Keeps at most maxPages: drops the farthest from the screen, never one on it. */
  #evictFarthestPages(): void {
    const size = this.pageSize;
    const first = Math.floor(this.#onScreen.start / size);
    const last = Math.floor(Math.max(this.#onScreen.end, this.#onScreen.start) / size);
    while (this.#pages.size > this.maxPages) {
      let farthest = -1;
      let distance = 0;
      for (const page of this.#pages.keys()) {
        const d = page < first ? first - page : page > last ? page - last : 0;
        if (d > distance) {
          distance = d;
          farthest = page;
        }
      }
      if (farthest < 0) return;
      this.#pages.delete(farthest);
    }
  }
}
