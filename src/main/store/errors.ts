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
