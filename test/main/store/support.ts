/** Helpers for store tests: real SQLite files in a fresh temp directory, and sample data. */
import type { Fixture, Order, Position, Settlement } from '../../../src/shared/api/schemas.js';
import type { Store, StoreOptions } from '../../../src/main/store/index.js';
import { afterEach, beforeEach } from 'vitest';
import { tempDir, tempStore as harnessTempStore } from '../../harness/temp.js';

export { tempDir } from '../../harness/temp.js';

/** Opens a store in a fresh temp dir with one account; call `done()` in afterEach. */
export function tempStore(options: StoreOptions = {}): {
  store: Store;
  file: string;
  accountId: number;
  done: () => void;
} {
  let t = 1_700_000_000_000;
  const { store, file, accountId, cleanup } = harnessTempStore({
    store: { now: () => t++, ...options },
    account: {
      label: 'main',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'key-1',
      permission: 'trade',
      wallet: '0x' + '1'.repeat(40),
    },
  });
  return { store, file, accountId, done: cleanup };
}

/**
 * For each test of the file: a fresh store (tempStore) and an empty directory, handed to `use`
 * before the test and removed after it.
 */
export function storeAndDirEachTest(
  use: (t: { store: Store; accountId: number; dir: string }) => void,
): void {
  let done = () => {};
  beforeEach(() => {
    const t = tempStore();
    const d = tempDir('betdesk-out-');
    use({ store: t.store, accountId: t.accountId, dir: d.dir });
    done = () => {
      t.done();
      d.cleanup();
    };
  });
  afterEach(() => done());
}

export function order(i: number, over: Partial<Order> = {}): Order {
  return {
    clientOrderId: `bd-${i}`,
    orderId: '0x' + (i + 1).toString(16).padStart(8, '0'),
    contractId: `EPL-${i % 7}`,
    outcome: i % 2 ? 'ARS' : 'CHE',
    side: 'BUY',
    status: 'SUBMITTED',
    contracts: 100 + i,
    entryPrice: '0.5512',
    cost: '27.5600',
    maxWin: '44.88',
    deadline: 1_700_000_060_000 + i,
    tx: '',
    orderType: 'MARKET',
    marketUnit: 'BASE',
    qty: '100',
    boost: 0,
    createdAt: 1_700_000_000_000 + i * 1000,
    updatedAt: 1_700_000_000_000 + i * 1000,
    ...over,
  };
}

export const TYPES = ['CLOSED', 'KNOCKED_OUT', 'SETTLEMENT'] as const;
export const TEAMS = ['ARS', 'CHE', 'LIV', 'MCI', 'TOT'] as const;

/** A settlement `i`, spread over `days` days from 2024-03-01 UTC, several per day. */
export function settlement(i: number, over: Partial<Settlement> = {}, days = 20): Settlement {
  const type = TYPES[i % 3] ?? 'CLOSED';
  const start = Date.UTC(2024, 2, 1);
  // Spread with uneven gaps, and some rows exactly on midnight, to exercise day edges.
  const ms = start + ((i * 7_919_000) % (days * 86_400_000));
  const base: Settlement = {
    type,
    contractId: `EPL-${i % 11}`,
    outcome: TEAMS[i % TEAMS.length] ?? 'ARS',
    contracts: 10 + (i % 5),
    tx: '0x' + i.toString(16).padStart(64, '0'),
    timestamp: new Date(ms).toISOString(),
  };
  if (type === 'SETTLEMENT') base.payout = i % 4 === 0 ? '0' : `${10 + (i % 5)}.00`;
  else {
    base.price = '0.' + String(1000 + (i % 8999)).slice(0, 4);
    base.pnl = i % 2 ? `-${(i % 50) + 1}.50` : `${i % 30}.25`;
  }
  return { ...base, ...over };
}

export function fixture(contractId: string, over: Partial<Fixture> = {}): Fixture {
  return {
    contractId,
    league: 'Premier League',
    homeTeam: 'ARS',
    awayTeam: 'CHE',
    startsAt: 1_700_000_000_000,
    bettingOpen: true,
    status: 'OPEN',
    homePrice: '0.5500',
    awayPrice: '0.4500',
    lotSize: 1,
    minContracts: 1,
    ...over,
  };
}

export function position(
  contractId: string,
  outcome: string,
  over: Partial<Position> = {},
): Position {
  return {
    contractId,
    outcome,
    contracts: 100,
    entryPrice: '0.5512',
    estimatedClosingPrice: '0.5400',
    boosted: true,
    costBasis: '27.56',
    value: '26.40',
    pnl: '-1.16',
    pnlPercent: '-4.2090',
    maxPayout: '72.44',
    knockout: '0.3012',
    updatedAt: 1_700_000_000_000,
    ...over,
  };
}

/** Every row of every table, for "nothing changed" assertions. */
export function dump(store: Store): Record<string, unknown[]> {
  const tables = store.db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  const out: Record<string, unknown[]> = {};
  for (const t of tables) out[t] = store.db.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2`).all();
  return out;
}

/** Every table with an account_id column: where an account's rows live. */
export function accountTables(store: Store): string[] {
  return store.db
    .prepare(
      `SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
       WHERE m.type = 'table' AND c.name = 'account_id'`,
    )
    .pluck()
    .all() as string[];
}
