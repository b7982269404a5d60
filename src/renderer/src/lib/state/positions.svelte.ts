/**
 * The positions screen's data: the active account's open positions as main last pushed them
 * (`positions:changed` carries the whole view, so a push repaints and nothing polls), sorted and
 * filtered here, with totals and the age of the figures.
 */
import type { PositionRow, PositionsView } from '../../../../shared/ipc/contract.js';
import { positionTotals, type PositionTotals } from '../../../../shared/rules/totals.js';
import { cmp } from '../../../../shared/money.js';
import type { Bridge } from '../bridge.js';
import { ago } from '../format.js';
import type { Clock } from './clock.svelte.js';
import { Loader } from './loader.svelte.js';
import { PositionDetailState } from './positions-detail.svelte.js';

/** The sortable columns, each with how two rows compare on it. */
export const POSITION_SORTS = {
  fixture: (a, b) =>
    (a.fixture?.startsAt ?? Infinity) - (b.fixture?.startsAt ?? Infinity) ||
    a.contractId.localeCompare(b.contractId),
  outcome: (a, b) => a.outcome.localeCompare(b.outcome),
  contracts: (a, b) => a.contracts - b.contracts,
  entryPrice: (a, b) => cmp(a.entryPrice, b.entryPrice),
  estimatedClosingPrice: (a, b) => cmp(a.estimatedClosingPrice, b.estimatedClosingPrice),
  costBasis: (a, b) => cmp(a.costBasis, b.costBasis),
  value: (a, b) => cmp(a.value, b.value),
  pnl: (a, b) => cmp(a.pnl, b.pnl),
  pnlPercent: (a, b) => cmp(a.pnlPercent, b.pnlPercent),
  maxPayout: (a, b) => cmp(a.maxPayout, b.maxPayout),
  knockout: (a, b) => nullsLast(a.knockout, b.knockout, cmp),
  distance: (a, b) => nullsLast(a.knockoutDistance?.fraction, b.knockoutDistance?.fraction, cmp),
} satisfies Record<string, (a: PositionRow, b: PositionRow) => number>;

export type PositionSortKey = keyof typeof POSITION_SORTS;
export type SortDirection = 'ascending' | 'descending';

/** Unboosted positions have no knockout: they sort after every boosted one, either way. */
function nullsLast<T>(
  a: T | null | undefined,
  b: T | null | undefined,
  by: (a: T, b: T) => number,
): number {
  if (a == null || b == null) return a == null ? (b == null ? 0 : Infinity) : -Infinity;
  return by(a, b);
}

/** "contractId|outcome": a position's key in lists and in `app:show`. */
export function positionKey(p: { contractId: string; outcome: string }): string {
  return `${p.contractId}|${p.outcome}`;
}

export class PositionsState {
  /** The view main last pushed or answered; null before the first. */
  view = $state.raw<PositionsView | null>(null);
  /** The reads of the view: `loading`, and `error` in the bridge's words. */
  readonly reads = new Loader();
  // The sort key and its direction change together, through `sortBy`.
  #sortKey = $state<PositionSortKey>('fixture');
  #direction = $state<SortDirection>('ascending');
  /** Words the rows are filtered by (outcome, league, teams, contract). */
  search = $state('');
  /** The key of the row the user picked (the Practice panel defaults to its fixture). */
  selected = $state<string | null>(null);
  /** A row main asked to bring forward (a clicked alert or notification); see `reveal`. */
  highlight = $state<{ key: string; seq: number } | null>(null);
  /** The position opened in its detail (its chart), if one is. */
  readonly detail: PositionDetailState;

  /** Every open position, unfiltered (the slip checks them for known refusals). */
  readonly all: readonly PositionRow[] = $derived(this.view?.positions ?? []);
  /** The rows shown: filtered and sorted. */
  readonly rows: PositionRow[] = $derived.by(() => {
    const words = this.search.trim().toLowerCase();
    const all = this.all;
    const shown = words
      ? all.filter((p) =>
          [p.outcome, p.fixture?.league, p.fixture?.homeTeam, p.fixture?.awayTeam, p.contractId]
            .filter((w): w is string => typeof w === 'string')
            .some((w) => w.toLowerCase().includes(words)),
        )
      : [...all];
    const by = POSITION_SORTS[this.#sortKey];
    const sign = this.#direction === 'ascending' ? 1 : -1;
    // A stable order for equal rows, so a push does not shuffle them.
    return shown.sort((a, b) => {
      const d = by(a, b);
      const order = d === Infinity || d === -Infinity ? d : sign * d;
      return order || positionKey(a).localeCompare(positionKey(b));
    });
  });
  readonly totals: PositionTotals = $derived(positionTotals(this.rows));

  /** The selected position, if it is still open. */
  readonly selectedRow: PositionRow | null = $derived.by(() => {
    const key = this.selected;
    return key ? (this.all.find((p) => positionKey(p) === key) ?? null) : null;
  });

  /** How old the figures are, by the local clock; null before the exchange ever reported. */
  readonly ageMs: number | null = $derived.by(() => {
    const at = this.view?.snapshotAt;
    return at === null || at === undefined ? null : Math.max(0, this.#clock.now - at);
  });

  /** Older than main's staleAfterMs (twice the polling interval), or never reported. */
  readonly stale: boolean = $derived.by(() => {
    const view = this.view;
    if (!view) return false;
    const age = this.ageMs;
    return age === null || age > view.staleAfterMs;
  });

  /** Why the figures may be out of date, or null while they are fresh. */
  readonly staleWords: string | null = $derived.by(() => {
    if (!this.stale) return null;
    const age = this.ageMs;
    const why =
      age === null
        ? 'the exchange has not reported positions yet'
        : `no report from the exchange for ${Math.round(age / 1000)} s`;
    return `Stale: ${why}; values may be out of date.`;
  });

  /** "updated 3 s ago". */
  readonly ageText: string = $derived.by(() => {
    const age = this.ageMs;
    return age === null ? 'not updated from the exchange yet' : `updated ${ago(age)}`;
  });

  readonly #bridge: Bridge;
  readonly #clock: Clock;

  constructor(bridge: Bridge, clock: Clock) {
    this.#bridge = bridge;
    this.#clock = clock;
    this.detail = new PositionDetailState(bridge);
  }

  get sortKey(): PositionSortKey {
    return this.#sortKey;
  }
  get direction(): SortDirection {
    return this.#direction;
  }

  /** Sorts by `key`; the same key again turns the direction round. */
  sortBy(key: PositionSortKey): void {
    if (this.#sortKey === key) {
      this.#direction = this.#direction === 'ascending' ? 'descending' : 'ascending';
    } else {
      this.#sortKey = key;
      this.#direction = 'ascending';
    }
  }

  /**
   * Brings a row forward: selects it, clears a filter that would hide it, and flags it; with
   * `detail`, opens its detail too (main names the outcome then).
   */
  reveal(contractId: string, outcome?: string, detail = false): void {
    const row =
      this.all.find((p) => p.contractId === contractId && (!outcome || p.outcome === outcome)) ??
      null;
    const key = row ? positionKey(row) : positionKey({ contractId, outcome: outcome ?? '' });
    if (row && !this.rows.includes(row)) this.search = '';
    this.selected = key;
    this.highlight = { key, seq: (this.highlight?.seq ?? 0) + 1 };
    const named = row?.outcome ?? outcome;
    if (detail && named) this.detail.open({ contractId, outcome: named }, row);
  }

  /** Opens a row's detail (its chart), from the row itself. */
  openDetail(row: PositionRow): void {
    this.selected = positionKey(row);
    this.detail.open(row, row);
  }

  /** Repaints from every push; returns the function that stops. */
  start(): () => void {
    const stop = this.#bridge.on('positions:changed', (change) => {
      this.reads.cancel(); // a push is newer than any read still on its way
      this.view = change.view;
      this.reads.error = null;
      this.detail.follow(change.view.positions);
    });
    void this.load();
    return stop;
  }

  /** Reads the view from the store (also offline); pushes keep it current from then on. */
  async load(): Promise<void> {
    await this.reads.run(
      () => this.#bridge.invoke('positions:list', {}),
      (view) => {
        this.view = view;
        this.detail.follow(view.positions);
      },
    );
  }

  /** Another account: its positions, none of the last one's. */
  reset(): void {
    this.view = null;
    this.selected = null;
    this.highlight = null;
    this.detail.close();
    void this.load();
  }
}
