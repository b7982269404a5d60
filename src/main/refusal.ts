/**
 * A refusal in words: what main's own code throws when it says no to the user (betting closed,
 * a read-only key, practice on a live account, a setting out of range). `kind` sorts it in the
 * bridge's vocabulary, and the bridge's error table (src/main/ipc/errors.ts) passes it on as it
 * is; the message is shown to the user, so it is a sentence and never a secret.
 */
import type { BridgeErrorKind } from '../shared/ipc/contract.js';

export class Refusal extends Error {
  readonly kind: BridgeErrorKind;
  readonly code: number | undefined;
  /** rate-limited: how long until it may be tried again, ms. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: BridgeErrorKind, message: string, code?: number, retryAfterMs?: number) {
    super(message);
    this.name = 'Refusal';
    this.kind = kind;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Makes `text` read as a sentence: capital first letter, closing full stop. */
export function sentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t === '') return 'Something went wrong.';
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
