/**
 * Refusals of the account registry, in sentences a person can act on. No message ever holds an
 * API secret: the registry never puts one in, and text from elsewhere is redacted first.
 */
export type AccountErrorKind =
  | 'invalid'
  | 'exists'
  | 'not-found'
  | 'rejected'
  | 'no-secret'
  /** Its exchange could not be checked: not added unless asked to keep it unchecked. */
  | 'unchecked';

export class AccountError extends Error {
  override readonly name = 'AccountError';
  readonly kind: AccountErrorKind;
  /** The exchange's code, when the exchange refused the key. */
  readonly code: number | undefined;

  constructor(kind: AccountErrorKind, message: string, code?: number) {
    super(message);
    this.kind = kind;
    this.code = code;
  }
}

/** Removes every occurrence of `secret` from a message, however it got there. */
export function withoutSecret(message: string, secret: string): string {
  return secret.length === 0 ? message : message.split(secret).join('[secret]');
}
