/**
 * The figures the rules of one account are judged on, read from the store once per evaluation:
 * the positions snapshot and its time, and per fixture its kick-off and the index price with
 * when it was read (alerts/index-price.ts, the reading Positions shows). Never the exchange.
 */
import type { Fixture } from '../../shared/api/schemas.js';
import { readIndex, type IndexReading } from '../alerts/index-price.js';
import type { Store, StoredPosition } from '../store/index.js';
import type { GuardFigures } from './judge.js';

export function positionKey(contractId: string, outcome: string): string {
  return `${contractId}|${outcome}`;
}

export class FigureSnapshot {
  readonly snapshotAt: number | null;
  readonly now: number;
  readonly pollMs: number;
  /** Held positions (contracts > 0) by contractId|outcome. */
  readonly positions: Map<string, StoredPosition>;
  readonly #store: Store;
  readonly #accountId: number;
  readonly #fixtures: Map<string, Fixture | null>;
  readonly #indexes = new Map<string, IndexReading | null>();
  /** The store as readIndex reads it, its fixtures through the cache. */
  readonly #indexSource: Pick<Store, 'fixtures' | 'cursors'>;

  /**
   * `fixtures`: a cache kept across snapshots by a caller that knows when a fixture changes
   * (the guardian, from the sync's fixtures:changed); a fresh one otherwise.
   */
  constructor(
    store: Store,
    accountId: number,
    pollMs: number,
    now: number,
    fixtures = new Map<string, Fixture | null>(),
    previous?: FigureSnapshot,
  ) {
    this.#store = store;
    this.#accountId = accountId;
    this.#fixtures = fixtures;
    const fixtureOf = (_accountId: number, contractId: string) => this.fixture(contractId);
    this.#indexSource = {
      fixtures: { get: fixtureOf } as unknown as Store['fixtures'],
      cursors: store.cursors,
    };
    this.pollMs = pollMs;
    this.now = now;
    this.snapshotAt = store.cursors.get(accountId, 'positions')?.lastSyncAt ?? null;
    // The same snapshot as the previous evaluation's (an index price moved since): kept.
    if (previous !== undefined && previous.snapshotAt === this.snapshotAt) {
      this.positions = previous.positions;
      return;
    }
    this.positions = new Map();
    for (const p of store.positions.list(accountId)) {
      if (p.contracts > 0) this.positions.set(positionKey(p.contractId, p.outcome), p);
    }
  }

  position(contractId: string, outcome: string): StoredPosition | undefined {
    return this.positions.get(positionKey(contractId, outcome));
  }

  fixture(contractId: string): Fixture | undefined {
    let f = this.#fixtures.get(contractId);
    if (f === undefined) {
      f = this.#store.fixtures.get(this.#accountId, contractId) ?? null;
      this.#fixtures.set(contractId, f);
    }
    return f ?? undefined;
  }

  /** What the judge needs for a rule on (contractId, outcome). */
  figures(rule: { contractId: string; outcome: string; spec: { kind: string } }): GuardFigures {
    const position = this.position(rule.contractId, rule.outcome);
    const needsFixture = rule.spec.kind === 'knockout' || rule.spec.kind === 'time_exit';
    const fixture = needsFixture ? this.fixture(rule.contractId) : undefined;
    return {
      position,
      snapshotAt: this.snapshotAt,
      index: rule.spec.kind === 'knockout' && position?.boosted ? this.#index(rule) : undefined,
      startsAt: fixture?.startsAt ?? null,
      pollMs: this.pollMs,
      now: this.now,
    };
  }

  #index(rule: { contractId: string; outcome: string }): IndexReading | undefined {
    const key = positionKey(rule.contractId, rule.outcome);
    let r = this.#indexes.get(key);
    if (r === undefined) {
      r = readIndex(this.#indexSource, this.#accountId, rule) ?? null;
      this.#indexes.set(key, r);
    }
    return r ?? undefined;
  }
}
