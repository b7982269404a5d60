/**
 * What a feature declares: one handler per channel of the contract it serves, typed from the
 * contract (its input is the channel's input, its answer the channel's output), and the
 * wrappers every handler gets where it is registered (docs/ipc.md, "Adding a bridge call").
 */
import type { IpcChannel, IpcInput, IpcOutput } from '../../shared/ipc/contract.js';
import { refusalOf } from './errors.js';

export type Handler<C extends IpcChannel> = (input: IpcInput<C>) => Promise<IpcOutput<C>>;

/** The handlers of some channels: a feature's table. */
export type Handlers<C extends IpcChannel> = { [K in C]: Handler<K> };

/** One handler per channel: a channel missing here, or one the contract lacks, fails to compile. */
export type IpcHandlers = Handlers<IpcChannel>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  i: infer I,
) => void
  ? I
  : never;

/** Joins feature tables; throws when two claim one channel. */
export function combineHandlers<T extends readonly object[]>(
  ...parts: T
): UnionToIntersection<T[number]> {
  const all: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [channel, handler] of Object.entries(part)) {
      if (channel in all) throw new Error(`Two features handle the bridge channel ${channel}.`);
      all[channel] = handler;
    }
  }
  return all as UnionToIntersection<T[number]>;
}

/** Where a handler finds the active account's session, waiting for it while it starts. */
export interface SessionSource<S> {
  started(): Promise<S>;
}

/** A handler of the active session: it runs once the session is up, refused in words if none. */
export function withSession<S, C extends IpcChannel>(
  active: SessionSource<S>,
  handle: (session: S, input: IpcInput<C>) => Promise<IpcOutput<C>> | IpcOutput<C>,
): Handler<C> {
  return async (input) => handle(await active.started(), input);
}

/**
 * Every handler of `handlers` with main's refusals thrown as the bridge's (errors.ts), so a
 * caller in main (the shell, a test) sees what the renderer is told.
 */
export function withRefusals<T extends Partial<IpcHandlers>>(handlers: T): T {
  const out: Record<string, unknown> = {};
  for (const [channel, handle] of Object.entries(handlers)) {
    const h = handle as (input: unknown) => Promise<unknown>;
    out[channel] = async (input: unknown) => {
      try {
        return await h(input);
      } catch (err) {
        throw refusalOf(err) ?? err;
      }
    };
  }
  return out as T;
}
