/**
 * The daily backup while the app runs: checked soon after start and then every hour, a backup is
 * taken when the newest one is a day old (the app runs for days; a start alone is not enough).
 */
import {
  BACKUP_INTERVAL_MS,
  backupStore,
  listBackups,
  type BackupFile,
  type BackupOptions,
} from './backup.js';

/** The first check waits a little, so a backup does not compete with the app's own start. */
const FIRST_CHECK_MS = 10_000;
const CHECK_EVERY_MS = 3600_000;

export interface BackupScheduleOptions extends Pick<BackupOptions, 'nativeBinding' | 'keep'> {
  storeFile: string;
  /** The backups folder (backupFolderOf(storeFile)). */
  dir: string;
  now?: () => number;
  /** A backup that failed (a full disk, the store's folder gone): said, and tried next hour. */
  onError?: (err: unknown) => void;
  firstCheckMs?: number;
  checkEveryMs?: number;
}

export class BackupSchedule {
  readonly #options: BackupScheduleOptions;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<BackupFile | undefined> | undefined;
  #stopped = false;

  constructor(options: BackupScheduleOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Starts the checks; the timers never keep the process alive. */
  start(): void {
    if (this.#timer || this.#stopped) return;
    const tick = (delay: number) => {
      this.#timer = setTimeout(() => {
        void this.runIfDue().finally(() => {
          if (!this.#stopped) tick(this.#options.checkEveryMs ?? CHECK_EVERY_MS);
        });
      }, delay);
      this.#timer.unref();
    };
    tick(this.#options.firstCheckMs ?? FIRST_CHECK_MS);
  }

  /** Takes a backup when none is younger than a day; answers the one under way, if any. */
  runIfDue(): Promise<BackupFile | undefined> {
    if (this.#running) return this.#running;
    if (this.#stopped || !this.due()) return Promise.resolve(undefined);
    const { storeFile, dir, nativeBinding, keep, onError } = this.#options;
    this.#running = backupStore(storeFile, dir, {
      now: this.#now,
      ...(nativeBinding === undefined ? {} : { nativeBinding }),
      ...(keep === undefined ? {} : { keep }),
    })
      .catch((err: unknown) => {
        onError?.(err);
        return undefined;
      })
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  /** True when the newest backup is a day old, or there is none. */
  due(): boolean {
    const newest = listBackups(this.#options.dir)[0];
    return newest === undefined || this.#now() - newest.takenAt >= BACKUP_INTERVAL_MS;
  }

  /** Stops the checks and waits for a backup under way, so the store can close after. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }
}
