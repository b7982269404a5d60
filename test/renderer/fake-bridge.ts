/**
 * An in-memory `Bridge` for the state classes: answers per channel (a value, a function, or a
 * promise the test settles), failures as `BridgeFailure`, a record of every call, and events
 * the test emits as main would push them.
 */
import type {
  BridgeError,
  IpcChannel,
  IpcEvent,
  IpcEventPayload,
  IpcInput,
  IpcOutput,
} from '../../src/shared/ipc/contract.js';
import { BridgeFailure, type Bridge } from '../../src/renderer/src/lib/bridge.js';

type Answer<C extends IpcChannel> = (input: IpcInput<C>) => IpcOutput<C> | Promise<IpcOutput<C>>;

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every settled promise run its continuations. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

export class FakeBridge implements Bridge {
  readonly calls: { channel: IpcChannel; input: unknown }[] = [];
  readonly #answers = new Map<IpcChannel, unknown>();
  readonly #listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  readonly #connection = new Set<(connected: boolean) => void>();

  /** Answers every call to `channel` with `answer` (a value, or a function of the input). */
  answer<C extends IpcChannel>(channel: C, answer: IpcOutput<C> | Answer<C>): void {
    const fn: Answer<C> = typeof answer === 'function' ? answer : () => answer;
    this.#answers.set(channel, fn);
  }

  /**
   * Holds every call to `channel` until the test settles it: the returned list gains one
   * answer per call, in the order the calls came.
   */
  hold<C extends IpcChannel>(channel: C): Deferred<IpcOutput<C>>[] {
    const held: Deferred<IpcOutput<C>>[] = [];
    this.answer(channel, () => {
      const d = deferred<IpcOutput<C>>();
      held.push(d);
      return d.promise;
    });
    return held;
  }

  /** Every call to `channel` fails with `error`, as main's BridgeError would. */
  fail(channel: IpcChannel, error: BridgeError): void {
    this.#answers.set(channel, () => {
      throw new BridgeFailure(error);
    });
  }

  /** The inputs of every call to `channel`, in order. */
  inputs<C extends IpcChannel>(channel: C): IpcInput<C>[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.input as IpcInput<C>);
  }

  async invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>> {
    this.calls.push({ channel, input });
    await Promise.resolve();
    const answer = this.#answers.get(channel) as Answer<C> | undefined;
    if (!answer) {
      throw new BridgeFailure({
        kind: 'not-ready',
        message: `The test did not answer ${channel}.`,
      });
    }
    return answer(input);
  }

  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => set.delete(l);
  }

  onConnection(listener: (connected: boolean) => void): () => void {
    this.#connection.add(listener);
    return () => this.#connection.delete(listener);
  }

  /** Pushes an event as main would. */
  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
    for (const l of this.#listeners.get(event) ?? []) l(payload);
  }

  listening(event: IpcEvent): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  setConnected(connected: boolean): void {
    for (const l of this.#connection) l(connected);
  }
}
