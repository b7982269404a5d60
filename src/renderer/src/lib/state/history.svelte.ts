/**
 * The History screen: the active account's settlements from the local store (so it works
 * offline), filtered by type, dates, league, team and fixture, newest first or by P&L; their
 * totals and realized P&L over time (aggregated in SQLite by main); and one settlement opened
 * with the orders that built and closed the position and how its P&L was worked out.
 *
 * A filter change asks for the first rows, then the summary (main answers one call at a time,
 * and the rows are what the user waits for); only the latest filter's answers apply.
 * `history:changed` re-reads the rows on screen and the totals, at most one re-read at a time,
 * and only while the screen is shown (else the next show re-reads). While main is still working
 * out the P&L of settlements stored before it could (`summary.working`, after an upgrade), the
 * screen re-reads the same way every WORKING_POLL_MS, so the progress and the figures move.
 */
import type { SettlementType } from '../../../../shared/api/schemas.js';
import type {
  HistoryChoices,
  HistoryFilter,
  HistoryPage,
  HistorySort,
  HistorySummary,
  OrderRow,
  RealizedWorking,
  SettlementRow,
} from '../../../../shared/ipc/contract.js';
import { messageOf, type Bridge } from '../bridge.js';
import { TYPE_WORDS } from '../history-words.js';
import { DateRangeState } from './date-range.svelte.js';
import { Loader } from './loader.svelte.js';
import { aboutFilters, type ExportTarget } from './exports.svelte.js';
import { RowPages, type PageFetcher } from './row-pages.svelte.js';

export const HISTORY_PAGE_SIZE = 200;
/** 40 pages of 200: 8,000 rows at most in the renderer, whatever the store holds. */
export const HISTORY_MAX_PAGES = 40;
/**
 * The fixture menu lists at most this many (a year holds about 15,000 fixtures): the latest
 * kick-offs first, narrowed by league, team and period.
 */
export const FIXTURE_OPTIONS_MAX = 300;
/** How often the screen re-reads while main works out the P&L of past settlements. */
export const WORKING_POLL_MS = 2_000;

export interface HistoryOptions {
  now?: () => number;
  /** The zone the P&L buckets follow; the renderer's own unless told. */
  timeZone?: string;
  pageSize?: number;
  maxPages?: number;
  /** WORKING_POLL_MS unless told. */
  workingPollMs?: number;
}

const DAY_MS = 86_400_000;

export type FixtureChoice = HistoryChoices['fixtures'][number];

/**
 * A settlement opened: the row at once (from the list; null when opened by its id until main
 * answers), its orders and the working of its P&L when main has read them.
 */
export interface OpenSettlement {
  id: number;
  row: SettlementRow | null;
  working: RealizedWorking | null;
  orders: OrderRow[] | null;
  loading: boolean;
  error: string | null;
}

export class HistoryState {
  #type = $state<SettlementType | ''>('');
  #league = $state('');
  #team = $state('');
  #contractId = $state('');
  #sort = $state<HistorySort>('time');
  /** The filter's totals and P&L over time, as main summed them. */
  summary = $state.raw<HistorySummary | null>(null);
  /** The summary's reads: `loading`, and `error` in the bridge's words. */
  readonly summaryReads = new Loader();
  /** What the filter menus offer (leagues, teams, fixtures). */
  choices = $state.raw<HistoryChoices | null>(null);
  #active = $state(0);
  /** The settlement opened; `openRow` drops an answer that `closeDetail` or a later open overtook. */
  opened = $state.raw<OpenSettlement | null>(null);
  // Set by `load` and `reset` alone: every query waits for it.
  #loaded = $state(false);
  /** A new filter's first rows are on their way: what the list shows is the last filter's. */
  #reading = $state(false);
  #visible = false;
  /** The store changed while the screen was hidden: the next show re-reads. */
  #changedWhileHidden = false;
  #rereading = false;
  /** The store changed again while a re-read ran: one more re-read when it ends. */
  #changedDuringReread = false;
  #detailRequest = 0;
  #queryId = 0;
  #workingPoll: ReturnType<typeof setTimeout> | null = null;
  readonly #workingPollMs: number;
  readonly range: DateRangeState;
  readonly rows: RowPages<SettlementRow>;
  readonly #bridge: Bridge;
  readonly #timeZone: string;

  readonly #narrowed = $derived.by(() => this.#narrowFixtures(true));
  /**
   * The fixture filter's options: of the league, team and period chosen, latest kick-off first,
   * at most FIXTURE_OPTIONS_MAX (and the one chosen, wherever it is).
   */
  readonly fixtureChoices: FixtureChoice[] = $derived.by(() => {
    const shown = this.#narrowed.slice(0, FIXTURE_OPTIONS_MAX);
    const chosen = this.choices?.fixtures.find((f) => f.contractId === this.#contractId);
    return chosen && !shown.includes(chosen) ? [...shown, chosen] : shown;
  });
  /** Fixtures the menu leaves out: narrow by league, team or period to reach them. */
  readonly fixturesNotListed: number = $derived(
    Math.max(0, this.#narrowed.length - FIXTURE_OPTIONS_MAX),
  );

  constructor(bridge: Bridge, options: HistoryOptions = {}) {
    this.#bridge = bridge;
    this.#timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    this.#workingPollMs = options.workingPollMs ?? WORKING_POLL_MS;
    this.range = new DateRangeState(() => void this.#query(), options.now);
    this.rows = new RowPages<SettlementRow>({
      pageSize: options.pageSize ?? HISTORY_PAGE_SIZE,
      maxPages: options.maxPages ?? HISTORY_MAX_PAGES,
    });
  }

  // ---------------------------------------------------------------- filters

  // The filters are private: each change reads the first rows again. What follows from them
  // reads the date range's bounds at that moment ("Today" moves at midnight), so it is computed
  // by getters, never cached.

  get type(): SettlementType | '' {
    return this.#type;
  }
  set type(value: SettlementType | '') {
    this.#type = value;
    void this.#query();
  }

  get league(): string {
    return this.#league;
  }
  /** A fixture of another league goes: the filters never contradict each other. */
  set league(value: string) {
    this.#league = value;
    this.#dropUnlistedFixture();
    void this.#query();
  }

  /** The team the bet was on (the outcome). */
  get team(): string {
    return this.#team;
  }
  set team(value: string) {
    this.#team = value;
    this.#dropUnlistedFixture();
    void this.#query();
  }

  get contractId(): string {
    return this.#contractId;
  }
  set contractId(value: string) {
    this.#contractId = value;
    void this.#query();
  }

  get sort(): HistorySort {
    return this.#sort;
  }
  /** The order changes the rows, not the totals. */
  set sort(value: HistorySort) {
    this.#sort = value;
    const filter = this.filter;
    if (this.#loaded && filter) {
      this.#active = 0;
      void this.rows.reset(this.#reader(filter));
    }
  }

  /** What main is asked for now; null while the custom dates are not a range. */
  get filter(): HistoryFilter | null {
    const bounds = this.range.bounds();
    if (!bounds) return null;
    return {
      ...(this.#type ? { type: this.#type } : {}),
      ...bounds,
      ...(this.#league ? { league: this.#league } : {}),
      ...(this.#team ? { team: this.#team } : {}),
      ...(this.#contractId ? { contractId: this.#contractId } : {}),
    };
  }

  get hasFilter(): boolean {
    return (
      this.#type !== '' ||
      this.#league !== '' ||
      this.#team !== '' ||
      this.#contractId !== '' ||
      this.range.active
    );
  }

  /** The export of what the screen shows: its filter, and the filter in words. */
  get exportTarget(): ExportTarget | null {
    const filter = this.filter;
    if (!filter) return null;
    const words = [this.range.words];
    if (this.#type) words.push(TYPE_WORDS[this.#type]);
    if (this.#league) words.push(this.#league);
    if (this.#team) words.push(`bets on ${this.#team}`);
    if (this.#contractId) {
      const f = this.choices?.fixtures.find((c) => c.contractId === this.#contractId);
      words.push(f?.name ?? this.#contractId);
    }
    return {
      kind: 'settlements',
      filter,
      about: aboutFilters(this.rows.total, 'settlement', words),
    };
  }

  /** Every filter off, with one query. */
  clearFilters(): void {
    this.#type = '';
    this.#league = '';
    this.#team = '';
    this.#contractId = '';
    this.range.clear();
    void this.#query();
  }

  // ---------------------------------------------------------------- what main answered

  /** The screen has asked for its first rows (set by `load` and `reset` alone). */
  get loaded(): boolean {
    return this.#loaded;
  }
  /**
   * The rows and totals held are not of the filters as they stand: the dates are not a range,
   * or a new filter's rows are on their way. The screen must not show them as current.
   */
  get stale(): boolean {
    return this.filter === null || this.#reading;
  }

  // ---------------------------------------------------------------- rows and the detail

  /** The row the keyboard is on (an index into the filtered list). */
  get active(): number {
    return this.#active;
  }
  set active(index: number) {
    this.#active = Math.max(0, Math.min(index, this.rows.total - 1));
  }

  /** Arrow keys, Page Up/Down: moves the active row by `delta`, within the list. */
  move(delta: number): void {
    this.active = this.#active + delta;
  }

  /** Opens the active row, when it has arrived. */
  openActive(): void {
    const row = this.rows.rowAt(this.#active);
    if (row) void this.openRow(row);
  }

  /** Shows the settlement at once and reads the orders that built and closed it. */
  openRow(row: SettlementRow): Promise<void> {
    return this.#open(row.id, row);
  }

  /**
   * Opens a settlement by its id (`app:show` with a settlementId, a Portfolio row): the detail
   * shows as loading until main answers with the row.
   */
  openSettlement(id: number): Promise<void> {
    const held = this.opened?.row?.id === id ? this.opened.row : null;
    return this.#open(id, held);
  }

  async #open(id: number, row: SettlementRow | null): Promise<void> {
    const mine = ++this.#detailRequest;
    const opened = { id, row, working: null, orders: null, loading: true, error: null };
    this.opened = opened;
    try {
      const detail = await this.#bridge.invoke('history:detail', { id });
      if (mine !== this.#detailRequest) return;
      const found = detail.row ?? row;
      this.opened = {
        ...opened,
        row: found,
        working: detail.working,
        orders: detail.orders,
        loading: false,
        error: found ? null : 'This settlement is not in the active account’s history.',
      };
    } catch (err) {
      if (mine !== this.#detailRequest) return;
      this.opened = { ...opened, loading: false, error: messageOf(err) };
    }
  }

  closeDetail(): void {
    this.#detailRequest++;
    this.opened = null;
  }

  // ---------------------------------------------------------------- life

  /** Follows `history:changed`; returns the function that stops. Nothing is read until shown. */
  start(): () => void {
    const stop = this.#bridge.on('history:changed', () => this.refresh());
    return () => {
      stop();
      this.#stopPolling();
    };
  }

  /** The screen is on view: the first read, or the re-read it missed while hidden. */
  show(): void {
    this.#visible = true;
    if (!this.#loaded) this.load();
    else if (this.#changedWhileHidden) this.refresh();
  }

  hide(): void {
    this.#visible = false;
  }

  /** Main is working out the P&L of past settlements: how far, or null when it is not. */
  get working(): HistorySummary['working'] {
    return this.summary?.working ?? null;
  }

  /** Reads everything for the filters as they are: rows, then totals, then the menus. */
  load(): void {
    this.#loaded = true;
    this.#changedWhileHidden = false;
    void this.#query().then(() => this.loadChoices());
  }

  /** The store changed: the totals and the rows on screen again, one re-read at a time. */
  refresh(): void {
    if (!this.#loaded) return;
    if (!this.#visible) {
      this.#changedWhileHidden = true;
      return;
    }
    if (this.#rereading) {
      this.#changedDuringReread = true;
      return;
    }
    this.#rereading = true;
    this.#changedWhileHidden = false;
    void this.#reread().finally(() => {
      this.#rereading = false;
      if (this.#changedDuringReread) {
        this.#changedDuringReread = false;
        this.refresh();
      }
    });
  }

  async #reread(): Promise<void> {
    const filter = this.filter;
    const mine = this.#queryId;
    if (filter) {
      await this.rows.refresh(this.#reader(filter));
      if (mine === this.#queryId) await this.#loadSummary(filter);
    }
    await this.loadChoices();
  }

  /** Reads what failed again: the summary and the rows. */
  retry(): void {
    const filter = this.filter;
    if (!filter) return;
    if (this.summaryReads.error || !this.summary) void this.#loadSummary(filter);
    if (!this.rows.known && !this.rows.loading) void this.rows.reset(this.#reader(filter));
    else this.rows.retry();
  }

  async loadChoices(): Promise<void> {
    try {
      this.choices = await this.#bridge.invoke('history:choices', {});
    } catch {
      // The menus keep what they had; the list and totals say when main fails.
    }
  }

  /** Another account: its history, none of the last one's, from all time. */
  reset(): void {
    this.#type = '';
    this.#league = '';
    this.#team = '';
    this.#contractId = '';
    this.#sort = 'time';
    this.range.clear();
    this.summary = null;
    this.summaryReads.error = null;
    this.choices = null;
    this.rows.clear();
    this.#stopPolling();
    this.#queryId++;
    this.#reading = false;
    this.closeDetail();
    this.#loaded = false;
    if (this.#visible) this.load();
  }

  // ---------------------------------------------------------------- reading

  /** The first rows of the filter, then its summary unless another filter came meanwhile. */
  async #query(): Promise<void> {
    if (!this.#loaded) return;
    const filter = this.filter;
    const mine = ++this.#queryId; // an answer on its way is of the last filter
    // The summary follows the rows: it shows as on its way from now.
    this.summaryReads.cancel(filter !== null);
    if (!filter) return; // the date filter says why, and `stale` hides what is held
    this.#active = 0;
    this.#reading = true;
    await this.rows.reset(this.#reader(filter));
    if (mine !== this.#queryId) return;
    this.#reading = false;
    await this.#loadSummary(filter);
  }

  #reader(filter: HistoryFilter): PageFetcher<SettlementRow> {
    const sort = this.#sort;
    return (offset, limit): Promise<HistoryPage> =>
      this.#bridge.invoke('history:list', { filter, sort, limit, offset });
  }

  #loadSummary(filter: HistoryFilter): Promise<boolean> {
    return this.summaryReads.run(
      () => this.#bridge.invoke('history:summary', { filter, timeZone: this.#timeZone }),
      (summary) => {
        const wasWorking = this.working !== null;
        this.summary = summary;
        if (summary.working) this.#pollWhileWorking();
        // The last of the old settlements got their figure: the rows on screen show it too.
        else if (wasWorking) this.refresh();
      },
    );
  }

  /** One re-read after WORKING_POLL_MS (a summary still working schedules the next). */
  #pollWhileWorking(): void {
    if (this.#workingPoll !== null) return;
    this.#workingPoll = setTimeout(() => {
      this.#workingPoll = null;
      this.refresh();
    }, this.#workingPollMs);
  }

  #stopPolling(): void {
    if (this.#workingPoll !== null) clearTimeout(this.#workingPoll);
    this.#workingPoll = null;
  }

  /** Fixtures of the league and team chosen (and, with `byPeriod`, around the period). */
  #narrowFixtures(byPeriod: boolean): FixtureChoice[] {
    const league = this.#league.toLowerCase();
    const team = this.#team;
    // Bets settle around kick-off: a day either side of the period keeps every fixture in it.
    const bounds = byPeriod ? this.range.bounds() : {};
    const from = bounds?.from === undefined ? -Infinity : bounds.from - DAY_MS;
    const to = bounds?.to === undefined ? Infinity : bounds.to + DAY_MS;
    const fixtures = (this.choices?.fixtures ?? []).filter((f) => {
      if (league && f.league !== null && f.league.toLowerCase() !== league) return false;
      if (team && f.name.includes(' v ') && !f.name.split(' v ').includes(team)) return false;
      if (f.startsAt !== null && (f.startsAt < from || f.startsAt >= to)) return false;
      return true;
    });
    const kickOff = (f: FixtureChoice) => f.startsAt ?? Number.MIN_SAFE_INTEGER;
    return fixtures.sort((a, b) => kickOff(b) - kickOff(a));
  }

  #dropUnlistedFixture(): void {
    if (!this.choices) return;
    if (
      this.#contractId &&
      !this.#narrowFixtures(false).some((f) => f.contractId === this.#contractId)
    )
      this.#contractId = '';
  }
}
