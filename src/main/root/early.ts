/**
 * What the bridge answers before the services are up (ipc/start-gate.ts, docs/data.md "Start"):
 * the markets the store already holds, read from the store file on their own connection while
 * the store is checked and opened, marked as saved data until a sync confirms them.
 */
import type { IpcHandlers } from '../ipc/handler.js';

export interface EarlyOptions {
  dataDir: string;
  /** better-sqlite3 built for Electron's ABI, when running in Electron. */
  nativeBinding?: string;
}

export interface EarlyBridge {
  /** The `early` handlers of startGate. */
  handlers: Partial<IpcHandlers>;
  /** Closes what they read with; called once the services are up (or could not start). */
  close(): void;
}

/** Not built yet: nothing is answered early. */
export function earlyBridge(_options: EarlyOptions): EarlyBridge {
  return { handlers: {}, close() {} };
}
