/**
 * The guardian log screen's list (docs/guardians.md): every firing, held-back firing and change
 * of a rule, newest first, read from main's store (so it works offline), with its filters
 * (event, kind, fixture, date), its pages and the CSV export of what the filters show.
 */
import type {
  GuardKind,
  GuardLogEvent,
  GuardLogRow,
  GuardLogScope,
} from '../../../../shared/ipc/contract.js';
import type { Bridge } from '../bridge.js';
import { GUARD_EVENT_WORDS, GUARD_KIND_WORDS } from '../guard-words.js';
import { aboutFilters, type ExportTarget } from './exports.svelte.js';
import { DateRangeState } from './date-range.svelte.js';
import { Loader } from './loader.svelte.js';
import { PageWindow } from './page-window.svelte.js';

export const GUARD_LOG_PAGE_SIZE = 100;

export class GuardLogState {
  /** The page shown, newest first. */
  rows = $state.raw<GuardLogRow[]>([]);
  /** Rows the filters match, on every page. */
  total = $state(0);
  /** The rows held are of the filters shown (false until the first answer, and after a change). */
  current = $state(false);
  readonly reads = new Loader();
  readonly paging: PageWindow;
  readonly range: DateRangeState;
  // The filters are private: each change goes back to the first page and reads again.
  #event = $state<GuardLogEvent | ''>('');
  #kind = $state<GuardKind | ''>('');
  #contractId = $state('');
  /** Fixture names seen, by contract: the fixture filter's menu keeps what it has shown. */
  #fixtures = $state.raw<Readonly<Record<string, string>>>({});
  /** How many screens read the log now (start without its stop). */
  #showing = 0;
  readonly #bridge: Bridge;

  constructor(bridge: Bridge, now: () => number = Date.now, pageSize = GUARD_LOG_PAGE_SIZE) {
    this.#bridge = bridge;
    this.paging = new PageWindow(pageSize, () => this.total);
    this.range = new DateRangeState(() => this.#filtered(), now);
  }

  get event(): GuardLogEvent | '' {
    return this.#event;
  }
  set event(value: GuardLogEvent | '') {
    this.#event = value;
    this.#filtered();
  }
  get kind(): GuardKind | '' {
    return this.#kind;
  }
  set kind(value: GuardKind | '') {
    this.#kind = value;
    this.#filtered();
  }
  get contractId(): string {
    return this.#contractId;
  }
  set contractId(value: string) {
    this.#contractId = value;
    this.#filtered();
  }

  /** The fixture menu: every fixture seen in the log or in the rules, by name. */
  fixtureOptions(more: readonly { contractId: string; name: string }[] = []) {
    const all: Record<string, string> = { ...this.#fixtures };
    for (const f of more) all[f.contractId] ??= f.name;
    return Object.entries(all)
      .map(([value, text]) => ({ value, text }))
      .sort((a, b) => a.text.localeCompare(b.text));
  }

  /** What the filters ask main for; null while the dates are not a range. */
  get scope(): GuardLogScope | null {
    const bounds = this.range.bounds();
    if (!bounds) return null;
    return {
      ...(this.#event ? { event: this.#event } : {}),
      ...(this.#kind ? { kind: this.#kind } : {}),
      ...(this.#contractId ? { contractId: this.#contractId } : {}),
      ...(bounds.from !== undefined ? { from: bounds.from } : {}),
      ...(bounds.to !== undefined ? { to: bounds.to } : {}),
    };
  }

  /** The filters in words: "Held · Knockout guard · ARS v CHE · Last 7 days". */
  get filterWords(): string[] {
    const words = [
      this.#event ? GUARD_EVENT_WORDS[this.#event] : 'Every event',
      this.#kind ? GUARD_KIND_WORDS[this.#kind] : 'Every rule',
    ];
    if (this.#contractId) words.push(this.#fixtures[this.#contractId] ?? this.#contractId);
    words.push(this.range.words);
    return words;
  }

  /** "Export CSV" of the rows these filters show; null until they are shown. */
  get exportTarget(): ExportTarget | null {
    const filter = this.scope;
    if (!filter || !this.current) return null;
    return {
      kind: 'guards',
      filter,
      about: aboutFilters(this.total, 'guardian log row', this.filterWords),
    };
  }

  /**
   * Reads the page now, and again on every change of the guardians (`guards:changed`), until
   * the returned function stops it: the screen starts it while it shows.
   */
  start(): () => void {
    this.#showing++;
    void this.load();
    const stop = this.#bridge.on('guards:changed', () => void this.load());
    return () => {
      this.#showing--;
      stop();
    };
  }

  /** Reads the page again if the screen shows it (another account, or main back). */
  refresh(): void {
    if (this.#showing > 0) void this.load();
  }

  /**
   * Another account: its own log, and a fixture menu of its own fixtures only (the one kept
   * from the last account's rows offered fixtures that showed nothing here).
   */
  reset(): void {
    this.#fixtures = {};
    this.#contractId = '';
    this.paging.reset();
    this.current = false;
    this.reads.cancel(true);
    this.refresh();
  }

  async load(): Promise<void> {
    const scope = this.scope;
    if (!scope) {
      this.reads.cancel();
      return;
    }
    await this.reads.run(
      () =>
        this.#bridge.invoke('guards:log', {
          ...scope,
          limit: this.paging.size,
          offset: this.paging.offset,
        }),
      (page) => {
        this.rows = page.rows;
        this.total = page.total;
        this.current = true;
        this.#remember(page.rows);
      },
    );
  }

  async next(): Promise<void> {
    if (this.paging.forward()) await this.load();
  }

  async previous(): Promise<void> {
    if (this.paging.back()) await this.load();
  }

  /** Back to every row. */
  clearFilters(): void {
    this.#event = '';
    this.#kind = '';
    this.#contractId = '';
    this.range.clear();
    this.#filtered();
  }

  get filtered(): boolean {
    return this.#event !== '' || this.#kind !== '' || this.#contractId !== '' || this.range.active;
  }

  #filtered(): void {
    this.paging.reset();
    this.current = false;
    this.reads.cancel(true);
    void this.load();
  }

  #remember(rows: readonly GuardLogRow[]): void {
    if (rows.every((r) => r.contractId in this.#fixtures)) return;
    const next: Record<string, string> = { ...this.#fixtures };
    for (const r of rows) next[r.contractId] ??= r.fixture;
    this.#fixtures = next;
  }
}
