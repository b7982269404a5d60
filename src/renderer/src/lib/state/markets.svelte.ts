/** The markets screen's data: fixtures from the local store, filtered and paged by main. */
import type { Fixture, FixturePage } from '../../../../shared/ipc/contract.js';
import type { Bridge } from '../bridge.js';
import { Loader } from './loader.svelte.js';
import { PageWindow } from './page-window.svelte.js';

export const PAGE_SIZE = 20;
/** Typing in the team search waits this long for the next key before asking main. */
export const SEARCH_DELAY_MS = 250;

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
  /** The reads of the page: `loading`, and `error` in the bridge's words. */
  readonly reads = new Loader();
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
    await this.reads.run(
      () => this.#bridge.invoke('fixtures:list', filter),
      (page) => (this.page = page),
    );
  }

  /** A filter changed: back to the first page. */
  async filter(): Promise<void> {
    clearTimeout(this.#searchTimer);
    this.paging.reset();
    await this.load();
  }

  async next(): Promise<void> {
    if (this.paging.forward()) await this.load();
  }

  async previous(): Promise<void> {
    if (this.paging.back()) await this.load();
  }
}
