/**
 * The markets screen's pages, read from the store (FixturesRepo), so markets show while the
 * exchange is unreachable. They are the fixtures of one account, the active one (its exchange's:
 * another exchange's fixtures cannot be quoted there). The store's list is read once and kept
 * until the sync engine says fixtures changed or another account becomes active; filtering by
 * part of a team name and the screen's order (league, kick-off, contractId) are done here.
 */
import type { Fixture } from '../../shared/api/schemas.js';
import type { FixturePage, FixturesFilter } from '../../shared/ipc/contract.js';
import type { Store } from '../store/index.js';

const READ_PAGE = 1000;

export class FixtureBoard {
  readonly #store: Store;
  #accountId: number | undefined;
  /** The account's fixtures in the screen's order, until they change. */
  #sorted: Fixture[] | undefined;

  /** `accountId`: whose fixtures show until the first session is up (none: an empty list). */
  constructor(store: Store, accountId: number | undefined) {
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
  }

  /** The account's fixtures changed: read them again on the next page asked for. */
  invalidate(): void {
    this.#sorted = undefined;
  }

  get total(): number {
    return this.#sortedFixtures().length;
  }

  page(filter: FixturesFilter, syncedAt: number | null): FixturePage {
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
      syncedAt,
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
