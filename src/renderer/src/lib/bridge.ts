/**
 * The renderer's one way to main, as the state classes see it: `invoke` resolves with the
 * channel's output or throws `BridgeFailure` (the bridge error's kind, code, sentence and, when
 * rate-limited, how long to wait); `on` listens to an event. State classes take a `Bridge` as a
 * constructor argument, so tests hand them an in-memory one; the app's own is made once, in
 * main.ts (connect.ts opens it) and handed to every state object by root.ts.
 */
import type { BetdeskBridge } from '../../../shared/ipc/bridge.js';
import type {
  BridgeError,
  BridgeErrorKind,
  IpcChannel,
  IpcEvent,
  IpcEventPayload,
  IpcInput,
  IpcOutput,
} from '../../../shared/ipc/contract.js';

export class BridgeFailure extends Error {
  readonly kind: BridgeErrorKind;
  readonly code: number | undefined;
  /** rate-limited: milliseconds until it may be tried again. */
  readonly retryAfterMs: number | undefined;

  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeFailure';
    this.kind = error.kind;
    this.code = error.code;
    this.retryAfterMs = error.retryAfterMs;
  }
}

/** A sentence for any failure, for the places that show errors. */
export function messageOf(err: unknown): string {
  if (err instanceof BridgeFailure) return err.message;
  return 'Betdesk could not complete that; please try again.';
}

export interface Bridge {
  invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>>;
  /** Returns the function that stops listening. */
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
  /** Called with false when the browser host stops answering, and true when it is back. */
  onConnection(listener: (connected: boolean) => void): () => void;
}

/** A `Bridge` over the raw envelope-answering one (the preload's, or the WebSocket client). */
export function bridgeOver(
  raw: BetdeskBridge,
  onConnection: Bridge['onConnection'] = () => () => {},
): Bridge {
  return {
    async invoke(channel, input) {
      const result = await raw.invoke(channel, input);
      if (!result.ok) throw new BridgeFailure(result.error);
      return result.value;
    },
    on: (event, listener) => raw.on(event, listener),
    onConnection,
  };
}
