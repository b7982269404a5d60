/** Where Betdesk keeps its local store: one file per data directory, for the app and the CLI. */
import { join } from 'node:path';
import { openStore, type Store } from '../store/index.js';

export const STORE_FILE = 'betdesk.sqlite';

/**
 * Opens `<dataDir>/betdesk.sqlite`; `nativeBinding` is better-sqlite3 built for Electron's ABI
 * when running in Electron.
 */
export function openDataStore(dataDir: string, nativeBinding?: string): Store {
  const file = join(dataDir, STORE_FILE);
  return openStore(file, nativeBinding !== undefined ? { nativeBinding } : {});
}
