/** What the shell, the browser host and the tests pass to the composition root (services.ts). */
import type { ExportDestination } from '../export/index.js';
import type { AppLog } from '../log/index.js';
import type { StartTracker } from '../start/index.js';

export interface ServicesOptions {
  /** Directory for the database and other state. */
  dataDir: string;
  /** Which front end runs: shown in `app:info`. */
  host: 'electron' | 'browser';
  /** better-sqlite3 built for Electron's ABI (build/electron-native), when running in Electron. */
  nativeBinding?: string;
  /** Keychain service name; tests use their own so no real entry is touched. */
  keychainService?: string;
  /** Versions of the runtime, for `app:info`. */
  versions: { app: string; node: string; electron: string | null; chrome: string | null };
  /**
   * Where CSV exports go: the shell's save dialog (desktop) or the browser host's downloads.
   * Absent, `export:start` is refused with a sentence.
   */
  exports?: ExportDestination;
  /**
   * The main process's log (src/main/log), which the services write to. Absent, warnings go to
   * stderr as one line each and diagnostics have no log folder or recent errors.
   */
  log?: AppLog;
  /**
   * Opens a folder in the OS's file manager: Electron's shell.openPath ('' when it opened, else
   * why not). Absent, the browser host's opener (xdg-open, open or explorer) is used.
   */
  openFolder?: (path: string) => Promise<string>;
  /** The desk's fill-to-snapshot margin, ms (default 2000): tests shorten it to wait less. */
  clockMarginMs?: number;
  /**
   * Where the start's progress is kept (main/start): the host and the shell make it first, so
   * the page can show it; the store's opening reports to it and the services say 'ready'.
   */
  start?: StartTracker;
}
