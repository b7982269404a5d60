/** Errors the store raises on purpose, so callers can tell them from SQLite failures. */

export class StoreError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** The database was written by a later Betdesk whose schema this build does not know. */
export class NewerSchemaError extends StoreError {
  readonly found: number;
  readonly known: number;

  constructor(found: number, known: number) {
    super(
      `This database was written by a newer Betdesk (schema ${found}, this app knows ${known}); ` +
        'update Betdesk or choose another data folder.',
    );
    this.name = 'NewerSchemaError';
    this.found = found;
    this.known = known;
  }
}

/** Why a clientOrderId cannot be recorded again: another account has it, or other parameters. */
export type IntentConflictReason = 'other-account' | 'other-params';

/** A clientOrderId was recorded before with different order parameters or another account. */
export class IntentConflictError extends StoreError {
  readonly clientOrderId: string;
  readonly reason: IntentConflictReason;

  /** `detail` ends the sentence "Order intent <id> already exists ...". */
  constructor(clientOrderId: string, reason: IntentConflictReason, detail: string) {
    super(`Order intent ${clientOrderId} already exists ${detail}.`);
    this.name = 'IntentConflictError';
    this.clientOrderId = clientOrderId;
    this.reason = reason;
  }
}

/** True when `err` is a SQLite error with this code (better-sqlite3 puts it on `code`). */
export function isSqliteCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/**
 * How a write that found no room fails: SQLite says SQLITE_FULL, or SQLITE_IOERR_WRITE when the
 * OS refused the write outright (EFBIG past a file-size limit, EDQUOT past a quota); Node's fs
 * says ENOSPC, EFBIG or EDQUOT.
 */
const DISK_FULL_CODES: ReadonlySet<string> = new Set([
  'SQLITE_FULL',
  'SQLITE_IOERR_WRITE',
  'ENOSPC',
  'EFBIG',
  'EDQUOT',
]);

/**
 * True when `err` (or an error it was caused by) is a write that found the disk full: the
 * store, an export file, a backup or the log. Such a write changed nothing that was committed,
 * and the same write succeeds once there is room.
 */
export function isDiskFull(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  if (err instanceof DiskFullError) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
  return isDiskFull((err as { cause?: unknown }).cause, depth + 1);
}

/**
 * A write found the disk full, said for people: "The disk is full: " and `detail`, which says
 * what could not be saved and what happens next. `cause` keeps the SQLite or fs error.
 */
export class DiskFullError extends StoreError {
  constructor(detail: string, options?: ErrorOptions) {
    super(`The disk is full: ${detail}`, options);
    this.name = 'DiskFullError';
  }
}

/**
 * The sentence for a write that found the disk full: a DiskFullError's own, which says what was
 * not saved, or a general one for a bare SQLite or fs error.
 */
export function diskFullMessage(err: unknown): string {
  return err instanceof DiskFullError
    ? err.message
    : 'The disk is full: Betdesk could not save the change. Free some space and try again.';
}
