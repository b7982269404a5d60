/**
 * The markets screen's pages, read from the store (FixturesRepo), so markets show while the
 * exchange is unreachable. The store's list is read once and kept until the sync engine says
 * fixtures changed; filtering by part of a team name and the screen's order (league, kick-off,
 * contractId) are done here.
 */
import type { Fixture } from '../../shared/api/schemas.js';
import type { FixturePage, FixturesFilter } from '../../shared/ipc/contract.js';
import type { Store } from '../store/index.js';

const READ_PAGE = 1000;

export class FixtureBoard {
  readonly #store: Store;
  /** The store's fixtures in the screen's order, until they change. */
  #sorted: Fixture[] | undefined;

  constructor(store: Store) {
    this.#store = store;
  }

  /** The store's fixtures changed: read them again on the next page asked for. */
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
    for (let offset = 0; ; offset += READ_PAGE) {
      const page = this.#store.fixtures.list({ limit: READ_PAGE, offset });
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
