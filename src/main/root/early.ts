/**
 * What the bridge answers before the services are up (ipc/start-gate.ts, docs/data.md "Start"):
 * the markets the store already holds, read from the store file on their own connection while
 * the store is checked and opened, marked as saved data until a sync confirms them (docs/desk.md,
 * "Saved markets").
 *
 * The file is read once, when the bridge is made: a read-only connection (never a write, never a
 * migration), closed at once, so the store's own opening (a check, a move aside of a damaged
 * file, a rebuild) never meets it. Only a store of the current schema is read: an older one is
 * being upgraded (the start screen shows), a newer one is refused by the services. A file that
 * is missing or cannot be read gives nothing early: the calls then wait for the services, and
 * the person never sees an error of this preview.
 */
import { join } from 'node:path';
import type { FixturesFilter } from '../../shared/ipc/contract.js';
import { STORE_FILE } from '../data/file-names.js';
import type { IpcHandlers } from '../ipc/handler.js';
import { FixtureBoard } from '../markets/board.js';
import { STORE_SCHEMA_VERSION } from '../store/index.js';
import { openReadableStore, type ReadableStore } from '../store/read-worker-store.js';
import { startingAccount } from './remembered.js';

export interface EarlyOptions {
  dataDir: string;
  /** better-sqlite3 built for Electron's ABI, when running in Electron. */
  nativeBinding?: string;
}

export interface EarlyBridge {
  /** The `early` handlers of startGate: answered from memory, nothing is left open. */
  handlers: Partial<IpcHandlers>;
  /**
   * Resolves once the stored markets were first answered, at once when there are none: the host
   * may hold the services' start until then, so the page's first rows do not wait behind it.
   */
  answered: Promise<void>;
}

/** The stored markets of the account the app will open, or nothing; see the file's comment. */
export function earlyBridge(options: EarlyOptions): EarlyBridge {
  const markets = storedMarkets(options);
  if (!markets) return { handlers: {}, answered: Promise.resolve() };
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  return {
    answered,
    handlers: {
      // From memory: the list was read whole, sorted, when the bridge was made.
      'fixtures:list': (filter: FixturesFilter) => {
        const page = { ...markets.page(filter), saved: true };
        // After this answer is on its way.
        setImmediate(answer);
        return Promise.resolve(page);
      },
    },
  };
}

/** Reads the starting account's fixtures on a read-only connection; undefined: nothing early. */
function storedMarkets(options: EarlyOptions): FixtureBoard | undefined {
  let opened: { store: ReadableStore; close(): void } | undefined;
  try {
    opened = openReadableStore(
      join(options.dataDir, STORE_FILE),
      options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding },
    );
    const { store } = opened;
    if (store.schemaVersion !== STORE_SCHEMA_VERSION) return undefined;
    const accountId = startingAccount(store);
    if (accountId === undefined) return undefined;
    // The board keeps the sorted list, read now while the connection is open, and the time
    // they were fetched is kept with it.
    const fetched = store.cursors.get(accountId, 'fixtures');
    const board = new FixtureBoard(
      { fixtures: store.fixtures, cursors: { get: () => fetched } },
      accountId,
    );
    return board.total === 0 ? undefined : board;
  } catch {
    // Missing, locked, damaged, not a database: the services say what it is, not the preview.
    return undefined;
  } finally {
    opened?.close();
  }
}
