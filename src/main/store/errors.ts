/** Errors the store raises on purpose, so callers can tell them from SQLite failures. */
import { foundNoRoom, systemRoom, type RoomProbe } from './room.js';

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
 * How a write that found no room fails for certain: SQLite says SQLITE_FULL (ENOSPC underneath);
 * Node's fs says ENOSPC, EFBIG (past a file-size limit) or EDQUOT (past a quota).
 */
const DISK_FULL_CODES: ReadonlySet<string> = new Set(['SQLITE_FULL', 'ENOSPC', 'EFBIG', 'EDQUOT']);

/**
 * A write the disk refused, which SQLite cannot tell apart: SQLITE_IOERR_WRITE stands for EFBIG,
 * EDQUOT and EIO alike. Such a failure is a full disk only when there is no room (room.ts).
 */
function isIoCode(code: string): boolean {
  return code === 'EIO' || code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_');
}

/** What a failed write met: a full disk, or a disk that failed it while it had room. */
export type WriteFault = 'disk-full' | 'io-error';

export interface WriteFaultOptions {
  /** The file the write went to, when not the store's (an export): its file system is looked at. */
  at?: string;
  probe?: RoomProbe;
}

/**
 * What `err` (or an error it was caused by) is, when it is a write the disk refused: the store,
 * an export file, a backup or the log. Either way the write changed nothing that was committed.
 * An I/O error code counts as a full disk only when the file system it wrote to (`at`, the file
 * of an fs error, else the stores' folders) has no room, checked now with statfs (room.ts).
 */
export function writeFaultOf(
  err: unknown,
  options: WriteFaultOptions = {},
  depth = 0,
): WriteFault | undefined {
  if (typeof err !== 'object' || err === null || depth > 4) return undefined;
  if (err instanceof DiskFullError) return 'disk-full';
  if (err instanceof IoError) return 'io-error';
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (DISK_FULL_CODES.has(code)) return 'disk-full';
    if (isIoCode(code)) {
      const path = (err as { path?: unknown }).path;
      const at = options.at ?? (typeof path === 'string' ? path : undefined);
      const noRoom = foundNoRoom(at === undefined ? [] : [at], options.probe ?? systemRoom);
      return noRoom ? 'disk-full' : 'io-error';
    }
  }
  return writeFaultOf((err as { cause?: unknown }).cause, options, depth + 1);
}

/**
 * True when `err` is a write that found the disk full. The same write succeeds once there is
 * room. An I/O error on a disk with room is not one: see isIoError.
 */
export function isDiskFull(err: unknown): boolean {
  return writeFaultOf(err) === 'disk-full';
}

/** True when `err` is a write the disk failed with an I/O error while it had room. */
export function isIoError(err: unknown): boolean {
  return writeFaultOf(err) === 'io-error';
}

/** True when `err` is a write the disk refused, full or failing: see writeFaultOf. */
export function isWriteFault(err: unknown): boolean {
  return writeFaultOf(err) !== undefined;
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
 * The disk failed a write while it had room (SQLITE_IOERR_*, EIO): "<subject>: the disk reported
 * an input/output error (<code>). <detail>", where `detail` says what was kept and what happens
 * next. Freeing space will not help; the disk or its connection may be failing.
 */
export class IoError extends StoreError {
  /** The SQLite or fs code the disk's failure came with. */
  readonly ioCode: string;

  constructor(detail: string, options?: ErrorOptions & { subject?: string }) {
    const ioCode = ioCodeOf(options?.cause) ?? 'EIO';
    const subject = options?.subject ?? STORE_WRITE;
    super(`${subject}: the disk reported an input/output error (${ioCode}). ${detail}`, options);
    this.name = 'IoError';
    this.ioCode = ioCode;
  }
}

const STORE_WRITE = 'Betdesk could not write to its store';

/**
 * The error that says what a failed write met, in words: a DiskFullError or an IoError with
 * `detail` (what was kept, what happens next), or `err` itself when it is neither.
 */
export function writeFaultError(
  err: unknown,
  detail: string,
  subject?: string,
): DiskFullError | IoError | undefined {
  const fault = writeFaultOf(err);
  if (fault === 'disk-full') {
    return new DiskFullError(subject === undefined ? detail : `${subject}; ${detail}`, {
      cause: err,
    });
  }
  if (fault === 'io-error') {
    return new IoError(detail, { cause: err, ...(subject === undefined ? {} : { subject }) });
  }
  return undefined;
}

/** The SQLite or fs code of an I/O error in `err` or its causes (SQLITE_IOERR_WRITE, EIO). */
export function ioCodeOf(err: unknown, depth = 0): string | undefined {
  if (typeof err !== 'object' || err === null || depth > 4) return undefined;
  if (err instanceof IoError) return err.ioCode;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && isIoCode(code)) return code;
  return ioCodeOf((err as { cause?: unknown }).cause, depth + 1);
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

/**
 * The sentence for a write the disk refused (writeFaultOf): a DiskFullError's or IoError's own,
 * which says what was kept, or a general one for a bare SQLite or fs error.
 */
export function writeFaultMessage(err: unknown): string {
  if (err instanceof DiskFullError || err instanceof IoError) return err.message;
  if (writeFaultOf(err) !== 'io-error') return diskFullMessage(err);
  return new IoError(
    'The change was not saved; what was saved before is kept. Check the disk, then try again.',
    { cause: err },
  ).message;
}
