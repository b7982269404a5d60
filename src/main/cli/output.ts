/**
 * Where the command line writes: JSON results on standard output, sentences on standard error,
 * and the exit status a failure maps to.
 */
import type { Readable, Writable } from 'node:stream';
import { AccountError } from '../accounts/index.js';
import { ExchangeError, NetworkError, ProtocolError } from '../client/index.js';
import { KeychainError, KeychainUnavailableError } from '../keychain/keychain.js';
import { Refusal } from '../refusal.js';
import {
  IntentConflictError,
  isWriteFault,
  NewerSchemaError,
  writeFaultMessage,
} from '../store/index.js';
import { BetRefusedError, OrderValidationError, QuoteExpiredError } from '../trading/index.js';
import { USAGE_LINE, UsageError } from './usage.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, exchange: 3, unknown: 4 } as const;

export interface CliIO {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
}

export class Output {
  readonly #io: CliIO;

  constructor(io: CliIO) {
    this.#io = io;
  }

  /** One JSON value, one line. */
  json(value: unknown): void {
    this.#io.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** A message for the person at the terminal. */
  say(message: string): void {
    this.#io.stderr.write(`${message}\n`);
  }
}

/** Prints what went wrong and returns the exit status for it. */
export function reportFailure(err: unknown, out: Output): number {
  if (err instanceof UsageError) {
    out.say(`${err.message}\n${USAGE_LINE} (see --help)`);
    return EXIT.usage;
  }
  if (err instanceof OrderValidationError || err instanceof IntentConflictError) {
    out.say(`${err.message}\n${USAGE_LINE} (see --help)`);
    return EXIT.usage;
  }
  if (err instanceof Refusal) return reportRefusal(err, out);
  if (err instanceof AccountError) {
    if (err.kind === 'rejected') {
      out.json({ error: { code: err.code ?? null, message: err.message } });
      out.say(`Error ${err.code ?? ''}: ${err.message}`);
      return EXIT.exchange;
    }
    out.say(err.message);
    return err.kind === 'no-secret' ? EXIT.failed : EXIT.usage;
  }
  if (
    err instanceof ExchangeError ||
    err instanceof QuoteExpiredError ||
    err instanceof BetRefusedError
  ) {
    out.json({ error: { code: err.code, message: err.message } });
    out.say(`Exchange error ${err.code}: ${err.message}`);
    return EXIT.exchange;
  }
  if (err instanceof ProtocolError) {
    out.json({ error: { code: 'PROTOCOL', message: err.message } });
    out.say(err.message);
    return EXIT.exchange;
  }
  if (err instanceof NetworkError) {
    out.json({ error: { code: 'NETWORK', message: err.message } });
    out.say(err.message);
    return EXIT.unknown;
  }
  if (
    err instanceof KeychainUnavailableError ||
    err instanceof KeychainError ||
    err instanceof NewerSchemaError
  ) {
    out.say(err.message);
    return EXIT.failed;
  }
  if (isWriteFault(err)) {
    out.say(writeFaultMessage(err));
    return EXIT.failed;
  }
  out.say(`Failed: ${err instanceof Error ? err.message : String(err)}`);
  return EXIT.failed;
}

/**
 * A refusal of the app's own rules (a guardian a read-only key cannot arm, a position not held):
 * its sentence, and the exit status its kind means here.
 */
function reportRefusal(err: Refusal, out: Output): number {
  out.json({ error: { kind: err.kind, code: err.code ?? null, message: err.message } });
  switch (err.kind) {
    case 'invalid-input':
      out.say(`${err.message}\n${USAGE_LINE} (see --help)`);
      return EXIT.usage;
    case 'exchange':
      out.say(`Exchange error ${err.code ?? ''}: ${err.message}`);
      return EXIT.exchange;
    case 'offline':
      out.say(err.message);
      return EXIT.unknown;
    default:
      out.say(err.message);
      return EXIT.failed;
  }
}
