/**
 * The main side of the bridge: every channel's handler behind a transport, with the checks every
 * call gets: input validated against the contract's schema before a handler sees it, output
 * validated in development and tests, and every failure turned into the bridge's
 * `{kind, message, code?}` (errors.ts). The handlers come from the features, joined by the
 * composition root (src/main/root/services.ts).
 */
import {
  IPC_CHANNELS,
  type IpcChannel,
  type IpcInput,
  type IpcOutput,
  type IpcResult,
} from '../../shared/ipc/contract.js';
import { stderrLine } from '../log/stderr.js';
import { redact, toBridgeError } from './errors.js';
import type { EventSource } from './events.js';
import type { IpcHandlers } from './handler.js';
import type { IpcTransport } from './transport.js';
import { checkEvent, checkInput, checkOutput } from './validate.js';

export type { IpcHandlers } from './handler.js';

/** What a transport serves: a handler per channel, and the events to forward. */
export interface Bridged {
  readonly handlers: IpcHandlers;
  readonly events: EventSource;
}

export interface HandlerOptions {
  /** Check every answer and event against the contract; on in development and tests. */
  validateOutput?: boolean;
  /** Where faults in Betdesk itself are written; never sees a secret. */
  log?: (message: string) => void;
}

const defaultLog = stderrLine;

/** Runs one call with every check; never throws, always answers with an envelope. */
export async function dispatch<C extends IpcChannel>(
  handlers: IpcHandlers,
  channel: C,
  input: unknown,
  options: HandlerOptions = {},
): Promise<IpcResult<IpcOutput<C>>> {
  const log = options.log ?? defaultLog;
  const verdict = checkInput(channel, input);
  if (!verdict.ok) {
    return {
      ok: false,
      error: {
        kind: 'invalid-input',
        message: `The ${channel} request was refused because ${verdict.problems.join('; ')}.`,
      },
    };
  }
  const handler = handlers[channel] as (input: IpcInput<C>) => Promise<IpcOutput<C>>;
  try {
    const value = await handler(input as IpcInput<C>);
    if (options.validateOutput ?? true) {
      const out = checkOutput(channel, value);
      if (!out.ok) {
        log(`Betdesk: the ${channel} answer broke the contract: ${out.problems.join('; ')}`);
        return {
          ok: false,
          error: { kind: 'internal', message: 'Betdesk produced an answer it could not use.' },
        };
      }
    }
    return { ok: true, value };
  } catch (err) {
    const error = toBridgeError(err);
    const secrets = secretsIn(input);
    if (error.kind === 'internal') {
      log(`Betdesk: ${channel} failed: ${redact(describe(err), secrets)}`);
    }
    return { ok: false, error: { ...error, message: redact(error.message, secrets) } };
  }
}

/**
 * Answers every channel of the contract through `transport` and forwards main's events to
 * it. Returns a function that undoes both.
 */
export function registerHandlers(
  transport: IpcTransport,
  services: Bridged,
  options: HandlerOptions = {},
): () => void {
  const log = options.log ?? defaultLog;
  const { handlers } = services;
  const stops = IPC_CHANNELS.map((channel) =>
    transport.handle(channel, (input) => dispatch(handlers, channel, input, options)),
  );
  stops.push(
    services.events.subscribe((event, payload) => {
      if (options.validateOutput ?? true) {
        const verdict = checkEvent(event, payload);
        if (!verdict.ok) {
          log(`Betdesk: the ${event} event broke the contract: ${verdict.problems.join('; ')}`);
          return;
        }
      }
      transport.broadcast(event, payload);
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}

/** The secret a call carries (accounts:add), so no error message can echo it. */
function secretsIn(input: unknown): string[] {
  if (typeof input !== 'object' || input === null) return [];
  const secret = (input as { secret?: unknown }).secret;
  return typeof secret === 'string' ? [secret] : [];
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
