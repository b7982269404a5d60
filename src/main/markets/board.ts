/**
 * The markets screen's pages, read from the store (FixturesRepo), so markets show while the
 * exchange is unreachable. They are the fixtures of one account, the active one (its exchange's:
 * another exchange's fixtures cannot be quoted there). The store's list is read once and kept
 * until the sync engine says fixtures changed or another account becomes active; filtering by
 * part of a team name and the screen's order (league, kick-off, contractId) are done here.
 *
 * Until a fixtures sync of the active session has read them, the fixtures shown are those the
 * store held at start: the page says so (`saved`, docs/desk.md "Saved markets"), and confirm()
 * tells the composition root when the first sync has, so the screen reads the page again.
 */
import type { Fixture } from '../../shared/api/schemas.js';
import type { FixturePage, FixturesFilter } from '../../shared/ipc/contract.js';
import type { Store } from '../store/index.js';

const READ_PAGE = 1000;

/** What the board reads: the app's store, or the read-only one of the start (root/early.ts). */
export interface BoardStore {
  fixtures: Pick<Store['fixtures'], 'list'>;
  cursors: Pick<Store['cursors'], 'get'>;
}

export class FixtureBoard {
  readonly #store: BoardStore;
  #accountId: number | undefined;
  /** The account's fixtures in the screen's order, until they change. */
  #sorted: Fixture[] | undefined;
  /** False until show(): no session's sync has read the fixtures shown. */
  #shown = false;
  /** The fixtures stream's last sync when the session was shown: a later one confirms them. */
  #syncedBeforeShown: number | null = null;
  /** A fixtures sync of the shown session has read them: they are no longer only saved. */
  #confirmed = false;

  /** `accountId`: whose fixtures show until the first session is up (none: an empty list). */
  constructor(store: BoardStore, accountId: number | undefined) {
    this.#store = store;
    this.#accountId = accountId;
  }

  /** The store id of the account whose fixtures are shown. */
  get accountId(): number | undefined {
    return this.#accountId;
  }

  /** Shows the fixtures of `accountId` from now on (its session is now the active one). */
  show(accountId: number): void {
    this.#accountId = accountId;
    this.#sorted = undefined;
    this.#shown = true;
    this.#syncedBeforeShown = this.#lastSyncAt();
    this.#confirmed = false;
  }

  /** The fixtures shown are the store's from before the active session's first fixtures sync. */
  get saved(): boolean {
    this.confirm();
    return !this.#confirmed;
  }

  /**
   * True once: the first time it finds that a fixtures sync of the shown session has read the
   * fixtures (the stream's cursor moved since show()). The caller tells the screen to read again.
   */
  confirm(): boolean {
    if (this.#confirmed || !this.#shown) return false;
    const last = this.#lastSyncAt();
    this.#confirmed = last !== null && last !== this.#syncedBeforeShown;
    return this.#confirmed;
  }

  /** When the shown account's fixtures were last fetched from its exchange. */
  get syncedAt(): number | null {
    return this.#lastSyncAt();
  }

  #lastSyncAt(): number | null {
    const id = this.#accountId;
    if (id === undefined) return null;
    return this.#store.cursors.get(id, 'fixtures')?.lastSyncAt ?? null;
  }

  /** The account's fixtures changed: read them again on the next page asked for. */
  invalidate(): void {
    this.#sorted = undefined;
  }

  get total(): number {
    return this.#sortedFixtures().length;
  }

  /** A page of the shown fixtures, with when they were fetched and whether they are saved. */
  page(filter: FixturesFilter): FixturePage {
    const all = this.#sortedFixtures();
    const team = filter.team?.trim().toUpperCase() ?? '';
    const matches = all.filter(
      (f) =>
        (!filter.openOnly || f.bettingOpen) &&
        (!filter.league || f.league === filter.league) &&
        (!team || f.homeTeam.includes(team) || f.awayTeam.includes(team)),
    );
    return {
      fixtures: matches.slice(filter.offset, filter.offset + filter.limit),
      total: matches.length,
      limit: filter.limit,
      offset: filter.offset,
      leagues: [...new Set(all.map((f) => f.league))].sort(),
      syncedAt: this.#lastSyncAt(),
      saved: this.saved,
    };
  }

  #sortedFixtures(): Fixture[] {
    if (this.#sorted) return this.#sorted;
    const all: Fixture[] = [];
    const accountId = this.#accountId;
    for (let offset = 0; accountId !== undefined; offset += READ_PAGE) {
      const page = this.#store.fixtures.list(accountId, { limit: READ_PAGE, offset });
      all.push(...page.fixtures);
      if (page.fixtures.length < READ_PAGE) break;
    }
    all.sort(
      (a, b) =>
        a.league.localeCompare(b.league) ||
        a.startsAt - b.startsAt ||
        a.contractId.localeCompare(b.contractId),
    );
    this.#sorted = all;
    return all;
  }
}
