/** The markets screen's data: fixtures from the local store, filtered and paged by main. */
import type { Fixture, FixturePage } from '../../../../shared/ipc/contract.js';
import { bridge, messageOf } from '../bridge.js';

export const PAGE_SIZE = 20;

export interface LeagueGroup {
  league: string;
  fixtures: Fixture[];
}

class MarketsState {
  openOnly = $state(true);
  team = $state('');
  league = $state('');
  offset = $state(0);
  page = $state<FixturePage | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  private request = 0;

  /** The page's fixtures grouped by league, leagues in the order they first appear. */
  get groups(): LeagueGroup[] {
    const groups: LeagueGroup[] = [];
    for (const fixture of this.page?.fixtures ?? []) {
      const last = groups.find((g) => g.league === fixture.league);
      if (last) last.fixtures.push(fixture);
      else groups.push({ league: fixture.league, fixtures: [fixture] });
    }
    return groups;
  }

  get hasPrevious(): boolean {
    return this.offset > 0;
  }

  get hasNext(): boolean {
    return this.page !== null && this.offset + PAGE_SIZE < this.page.total;
  }

  async load(): Promise<void> {
    const mine = ++this.request;
    this.loading = true;
    try {
      const team = this.team.trim();
      const page = await bridge.invoke('fixtures:list', {
        openOnly: this.openOnly,
        ...(team ? { team } : {}),
        ...(this.league ? { league: this.league } : {}),
        limit: PAGE_SIZE,
        offset: this.offset,
      });
      if (mine !== this.request) return;
      this.page = page;
      this.error = null;
    } catch (err) {
      if (mine === this.request) this.error = messageOf(err);
    } finally {
      if (mine === this.request) this.loading = false;
    }
  }

  /** A filter changed: back to the first page. */
  async filter(): Promise<void> {
    this.offset = 0;
    await this.load();
  }

  async next(): Promise<void> {
    if (!this.hasNext) return;
    this.offset += PAGE_SIZE;
    await this.load();
  }

  async previous(): Promise<void> {
    this.offset = Math.max(0, this.offset - PAGE_SIZE);
    await this.load();
  }
}

export const markets = new MarketsState();
