/** Temporary directories and stores for tests: real files under the OS temp dir, removed after. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  openStore,
  type NewAccount,
  type Store,
  type StoreOptions,
} from '../../src/main/store/index.js';

/** A new empty directory under the OS temp dir; `cleanup` removes it and all it holds. */
export function tempDir(prefix = 'betdesk-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface TempStore {
  dir: string;
  file: string;
  store: Store;
  /** The one account the store was opened with. */
  accountId: number;
  /** Closes the store and opens the same file again ("after a restart"). */
  reopen: () => Store;
  /** Closes the store and removes its directory. */
  cleanup: () => void;
}

/** A real SQLite store in a fresh temp dir, holding one account. */
export function tempStore(opts: {
  account: NewAccount;
  store?: StoreOptions;
  prefix?: string;
}): TempStore {
  const { dir, cleanup } = tempDir(opts.prefix ?? 'betdesk-store-');
  const file = path.join(dir, 'betdesk.sqlite');
  const t: TempStore = {
    dir,
    file,
    store: openStore(file, opts.store),
    accountId: 0,
    reopen() {
      t.store.close();
      t.store = openStore(file, opts.store);
      return t.store;
    },
    cleanup() {
      t.store.close();
      cleanup();
    },
  };
  t.accountId = t.store.accounts.create(opts.account).id;
  return t;
}
