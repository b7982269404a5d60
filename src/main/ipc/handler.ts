/**
 * Each feature declares the handlers of its own channels; `combineHandlers` joins them into the
 * one table the transports serve, refusing a channel claimed twice.
 */
import type { IpcChannel, IpcInput, IpcOutput } from '../../shared/ipc/contract.js';

export type Handler<C extends IpcChannel> = (input: IpcInput<C>) => Promise<IpcOutput<C>>;

/** One handler per channel: a channel missing here, or one the contract lacks, fails to compile. */
export type IpcHandlers = { [C in IpcChannel]: Handler<C> };

/** The handlers of some channels. */
export type FeatureHandlers<C extends IpcChannel> = { [K in C]: Handler<K> };

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
