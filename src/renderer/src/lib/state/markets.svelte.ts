/**
 * The markets screen's data: fixtures from the local store, filtered and paged by main, and the
 * 24 h price line of each outcome shown (docs/ipc.md, `prices:lines`), read once the page's rows
 * are up so that they never wait for the lines.
 */
import type { Fixture, FixturePage, PriceLine } from '../../../../shared/ipc/contract.js';
import type { Bridge } from '../bridge.js';
import { Loader } from './loader.svelte.js';
import { PageWindow } from './page-window.svelte.js';

export const PAGE_SIZE = 20;
/** Typing in the team search waits this long for the next key before asking main. */
export const SEARCH_DELAY_MS = 250;

/** The price lines read for the page: by `contractId|outcome`, and the window they cover. */
export interface PageLines {
  from: number;
  to: number;
  /** The fixtures main has answered for: an outcome of one without a line has no history. */
  answered: ReadonlySet<string>;
  lines: ReadonlyMap<string, PriceLine>;
}

const NO_LINES: PageLines = { from: 0, to: 0, answered: new Set(), lines: new Map() };

export interface LeagueGroup {
  league: string;
  fixtures: Fixture[];
}

export class MarketsState {
  #openOnly = $state(true);
  #team = $state('');
  #league = $state('');
  /** The page main last answered; null before the first. */
  page = $state.raw<FixturePage | null>(null);
  /**
   * The markets shown are those the store held at start, not yet confirmed by the exchange
   * (docs/desk.md, "Saved markets"); main's `fixtures:changed` once it has read them reloads
   * the page without the mark.
   */
  readonly saved: boolean = $derived(
    this.page?.saved === true && (this.page?.leagues.length ?? 0) > 0,
  );
  /** The reads of the page: `loading`, and `error` in the bridge's words. */
  readonly reads = new Loader();
  /** The price lines of the page's outcomes; a new page keeps those it still shows. */
  priceLines = $state.raw<PageLines>(NO_LINES);
  /** The reads of the lines, apart from the page's: a failure leaves the rows as they are. */
  readonly lineReads = new Loader();
  /** The page's fixtures grouped by league, leagues in the order they first appear. */
  readonly groups: LeagueGroup[] = $derived.by(() => {
    const groups: LeagueGroup[] = [];
    for (const fixture of this.page?.fixtures ?? []) {
      const last = groups.find((g) => g.league === fixture.league);
      if (last) last.fixtures.push(fixture);
      else groups.push({ league: fixture.league, fixtures: [fixture] });
    }
    return groups;
  });
  #searchTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #bridge: Bridge;
  #rowsShown!: () => void;
  /** Resolves once a page with rows has been shown: what waits for the start waits for it. */
  readonly rowsShown = new Promise<void>((resolve) => (this.#rowsShown = resolve));
  /** Where the page stands; it moves through `next`, `previous` and a filter change. */
  readonly paging = new PageWindow(PAGE_SIZE, () => this.page?.total ?? 0);

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  // The filters are private: each change goes back to the first page and reads it.

  get openOnly(): boolean {
    return this.#openOnly;
  }
  /** A filter change goes back to the first page. */
  set openOnly(value: boolean) {
    this.#openOnly = value;
    void this.filter();
  }

  get team(): string {
    return this.#team;
  }
  /** Typing searches once the typing pauses. */
  set team(value: string) {
    this.#team = value;
    clearTimeout(this.#searchTimer);
    this.#searchTimer = setTimeout(() => void this.filter(), SEARCH_DELAY_MS);
  }

  get league(): string {
    return this.#league;
  }
  set league(value: string) {
    this.#league = value;
    void this.filter();
  }

  /** The fixture as this page has it, when it is on the page. */
  fixture(contractId: string): Fixture | null {
    return this.page?.fixtures.find((f) => f.contractId === contractId) ?? null;
  }

  /**
   * The outcome's 24 h line: undefined while it is on its way, null when main recorded no price
   * for it yet.
   */
  lineOf(contractId: string, outcome: string): PriceLine | null | undefined {
    const { answered, lines } = this.priceLines;
    const line = lines.get(`${contractId}|${outcome}`);
    if (line) return line;
    return answered.has(contractId) ? null : undefined;
  }

  /** Reloads whenever main says the fixtures changed; returns the function that stops. */
  start(): () => void {
    const stop = this.#bridge.on('fixtures:changed', () => void this.load());
    void this.load();
    return () => {
      stop();
      clearTimeout(this.#searchTimer);
    };
  }

  async load(): Promise<void> {
    const team = this.#team.trim();
    const filter = {
      openOnly: this.#openOnly,
      ...(team ? { team } : {}),
      ...(this.#league ? { league: this.#league } : {}),
      limit: PAGE_SIZE,
      offset: this.paging.offset,
    };
    const latest = await this.reads.run(
      () => this.#bridge.invoke('fixtures:list', filter),
      (page) => {
        this.page = page;
        if (page.fixtures.length > 0) this.#rowsShown();
      },
    );
    // The rows are up: their lines follow, and are not waited for.
    if (latest && this.page) void this.#loadLines(this.page.fixtures.map((f) => f.contractId));
  }

  /** One `prices:lines` call for the whole page. */
  async #loadLines(contractIds: string[]): Promise<void> {
    if (contractIds.length === 0) {
      this.lineReads.cancel();
      return;
    }
    await this.lineReads.run(
      () => this.#bridge.invoke('prices:lines', { contractIds }),
      (answer) => {
        // Built once and replaced whole ($state.raw): one signal per answer, not per line.
        /* eslint-disable svelte/prefer-svelte-reactivity */
        this.priceLines = {
          from: answer.from,
          to: answer.to,
          answered: new Set(contractIds),
          lines: new Map(answer.lines.map((l) => [`${l.contractId}|${l.outcome}`, l])),
        };
        /* eslint-enable svelte/prefer-svelte-reactivity */
      },
    );
  }

  /** A filter changed: back to the first page. */
  async filter(): Promise<void> {
    clearTimeout(this.#searchTimer);
    this.paging.reset();
    // Another filter or another account: no line of the last one is shown as this one's.
    this.priceLines = NO_LINES;
    await this.load();
  }

  async next(): Promise<void> {
    if (this.paging.forward()) await this.load();
  }

  async previous(): Promise<void> {
    if (this.paging.back()) await this.load();
  }
}
