/**
 * The order blotter: one page of the account's orders and intents, newest first, filtered and
 * paged by main (so 100,000 orders cost no more than 100), kept live by `orders:changed`: a row
 * on the page is patched in place by its clientOrderId, a new one that belongs on the first page
 * is put on top, and `more` (too many changes for one push) reloads the page. The totals of the
 * filter (count, filled, staked, proceeds) are summed by main, never from the page.
 */
import type {
  OrderFixtures,
  OrderPage,
  OrderRow,
  OrdersChanged,
  OrdersFilter,
  OrderStatusGroup,
  OrdersScope,
  OrderTotals,
} from '../../../../shared/ipc/contract.js';
import { STATUS_GROUP_OF, STATUS_GROUP_WORDS } from '../../../../shared/rules/status.js';
import type { Bridge } from '../bridge.js';
import { DateRangeState } from './date-range.svelte.js';
import { aboutFilters, type ExportTarget } from './exports.svelte.js';
import { Loader } from './loader.svelte.js';
import { PageWindow } from './page-window.svelte.js';

export const ORDERS_PAGE_SIZE = 100;

export type Side = 'BUY' | 'SELL';

export class OrdersState {
  #status = $state<OrderStatusGroup | ''>('');
  #side = $state<Side | ''>('');
  #contractId = $state('');
  /** The page main last answered or a push patched; null before the first. */
  page = $state.raw<OrderPage | null>(null);
  /** The reads of the page: `loading`, and `error` in the bridge's words. */
  readonly reads = new Loader();
  /** A new filter's first page is on its way: the page held is the last filter's. */
  #reading = $state(false);
  /** The fixtures the contract filter offers. */
  fixtures = $state.raw<OrderFixtures['fixtures']>([]);
  /** Count, filled, staked and proceeds of every order the filter matches (not just the page). */
  totals = $state.raw<OrderTotals | null>(null);
  /** The totals' reads (a new filter's, or after a change). */
  readonly totalsReads = new Loader();
  /** Asked for the totals while a read ran: one more read when it ends (a burst of pushes). */
  #totalsChangedDuringRead = false;
  readonly rows: OrderRow[] = $derived(this.page?.rows ?? []);
  /** Orders the filter matches, on every page. */
  readonly total: number = $derived(this.page?.total ?? 0);
  /** When the orders were placed: "Today", "Last 7 days", custom dates. */
  readonly range: DateRangeState;
  readonly #bridge: Bridge;
  /** Where the page stands; it moves through `next`, `previous` and a filter change. */
  readonly paging: PageWindow;

  constructor(bridge: Bridge, pageSize = ORDERS_PAGE_SIZE, now: () => number = Date.now) {
    this.#bridge = bridge;
    this.paging = new PageWindow(pageSize, () => this.total);
    this.range = new DateRangeState(() => void this.#firstPage(), now);
  }

  // The filters are private: each change goes back to the first page and reads it again. What
  // follows from them reads the date range's bounds at that moment ("Today" moves at midnight),
  // so it is computed by getters, never cached.

  get status(): OrderStatusGroup | '' {
    return this.#status;
  }
  /** A filter change goes back to the first page. */
  set status(value: OrderStatusGroup | '') {
    this.#status = value;
    void this.#firstPage();
  }

  get side(): Side | '' {
    return this.#side;
  }
  set side(value: Side | '') {
    this.#side = value;
    void this.#firstPage();
  }

  get contractId(): string {
    return this.#contractId;
  }
  set contractId(value: string) {
    this.#contractId = value;
    void this.#firstPage();
  }

  /**
   * The page and totals held are not of the filters as they stand: the dates are not a range,
   * or a new filter's page is on its way. The screen must not show them as current.
   */
  get stale(): boolean {
    return this.scope === null || this.#reading;
  }
  /** Which orders the list, its totals and its export show; null while the dates are not a range. */
  get scope(): OrdersScope | null {
    const bounds = this.range.bounds();
    if (!bounds) return null;
    return {
      ...(this.#status ? { status: this.#status } : {}),
      ...(this.#side ? { side: this.#side } : {}),
      ...(this.#contractId ? { contractId: this.#contractId } : {}),
      ...bounds,
    };
  }

  get filter(): OrdersFilter {
    return { ...(this.scope ?? {}), limit: this.paging.size, offset: this.paging.offset };
  }

  get hasFilter(): boolean {
    return this.#status !== '' || this.#side !== '' || this.#contractId !== '' || this.range.active;
  }

  /** The export of what the blotter shows: its scope, and the scope in words. */
  get exportTarget(): ExportTarget | null {
    const filter = this.scope;
    if (!filter) return null;
    const words = [this.range.words];
    if (this.#status) words.push(STATUS_GROUP_WORDS[this.#status]);
    if (this.#side) words.push(this.#side === 'BUY' ? 'Buy' : 'Sell');
    if (this.#contractId) {
      const f = this.fixtures.find((c) => c.contractId === this.#contractId);
      words.push(f?.name ?? this.#contractId);
    }
    const n = this.totals?.count ?? this.total;
    return { kind: 'orders', filter, about: aboutFilters(n, 'exchange order', words) };
  }

  /** Follows `orders:changed`; returns the function that stops. */
  start(): () => void {
    const stop = this.#bridge.on('orders:changed', (change) => this.apply(change));
    void this.load();
    void this.loadTotals();
    void this.loadFixtures();
    return stop;
  }

  async load(): Promise<void> {
    if (this.range.problem) {
      // A page on its way is of the last filter; the date filter says why, and `stale` hides
      // what is held.
      this.reads.cancel();
      return;
    }
    const filter = this.filter;
    const latest = await this.reads.run(
      () => this.#bridge.invoke('orders:list', filter),
      (page) => (this.page = page),
    );
    if (latest) this.#reading = false;
  }

  async loadFixtures(): Promise<void> {
    try {
      this.fixtures = (await this.#bridge.invoke('orders:fixtures', {})).fixtures;
    } catch {
      // The filter keeps the fixtures it had; the blotter itself says when main fails.
    }
  }

  /** Reads the totals; a call while one runs reads once more after it (a burst of pushes). */
  async loadTotals(): Promise<void> {
    const scope = this.scope;
    if (!scope) return;
    if (this.totalsReads.loading) {
      this.#totalsChangedDuringRead = true;
      return;
    }
    const latest = await this.totalsReads.run(
      () => this.#bridge.invoke('orders:totals', scope),
      (totals) => (this.totals = totals),
    );
    if (latest && this.#totalsChangedDuringRead) {
      this.#totalsChangedDuringRead = false;
      void this.loadTotals();
    }
  }

  async next(): Promise<void> {
    if (this.paging.forward()) await this.load();
  }

  async previous(): Promise<void> {
    if (this.paging.back()) await this.load();
  }

  /** A push: patch what is on the page, add what is new on top, reload when told to. */
  apply(change: OrdersChanged): void {
    void this.loadTotals();
    const page = this.page;
    if (change.more || !page) {
      void this.load();
      return;
    }
    const rows = [...page.rows];
    const added: OrderRow[] = [];
    const newest = rows[0]?.createdAt ?? -Infinity;
    for (const row of change.rows) {
      const i = rows.findIndex((r) => r.clientOrderId === row.clientOrderId);
      if (i >= 0) rows[i] = row;
      else if (this.paging.offset === 0 && row.createdAt >= newest && this.#matchesFilter(row))
        added.push(row);
    }
    added.sort((a, b) => b.createdAt - a.createdAt);
    this.reads.cancel(); // a read still on its way is older than this
    this.page = {
      ...page,
      rows: [...added, ...rows].slice(0, this.paging.size),
      total: page.total + added.length,
    };
    if (
      added.some((r) => r.contractId && !this.fixtures.some((f) => f.contractId === r.contractId))
    ) {
      void this.loadFixtures();
    }
  }

  /** Another account: its orders, none of the last one's. */
  reset(): void {
    this.#status = '';
    this.#side = '';
    this.#contractId = '';
    this.fixtures = [];
    this.totals = null;
    this.range.clear();
    void this.#firstPage();
    void this.loadFixtures();
  }

  #matchesFilter(row: OrderRow): boolean {
    const bounds = this.range.bounds();
    if (bounds?.from !== undefined && row.createdAt < bounds.from) return false;
    if (bounds?.to !== undefined && row.createdAt >= bounds.to) return false;
    if (this.#status && STATUS_GROUP_OF[row.status] !== this.#status) return false;
    if (this.#side && row.side !== this.#side) return false;
    if (this.#contractId && row.contractId !== this.#contractId) return false;
    return true;
  }

  /**
   * A filter changed: the first page and the totals again. A totals read still on its way is of
   * the old filter: its answer is dropped and this one goes out at once.
   */
  async #firstPage(): Promise<void> {
    this.paging.reset();
    this.totalsReads.cancel();
    this.#totalsChangedDuringRead = false;
    this.#reading = this.scope !== null;
    void this.loadTotals();
    await this.load();
  }
}
