/**
 * The renderer's one way to main. In Electron the preload provides `window.betdesk`; in a browser
 * (the browser host) the same contract travels over a WebSocket whose token comes from the page's
 * own address. Either way `invoke` resolves with the channel's output or throws `BridgeFailure`
 * carrying the bridge error's kind, code and sentence.
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
  IpcResult,
} from '../../../shared/ipc/contract.js';
import {
  TOKEN_PARAM,
  WS_PATH,
  type WsInvoke,
  type WsServerMessage,
} from '../../../shared/ipc/ws-protocol.js';

declare global {
  interface Window {
    betdesk?: BetdeskBridge;
  }
}

export class BridgeFailure extends Error {
  readonly kind: BridgeErrorKind;
  readonly code: number | undefined;

  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeFailure';
    this.kind = error.kind;
    this.code = error.code;
  }
}

/** A sentence for any failure, for the places that show errors. */
export function messageOf(err: unknown): string {
  if (err instanceof BridgeFailure) return err.message;
  return 'Betdesk could not complete that; please try again.';
}

type Listener = (payload: unknown) => void;

/** The contract over the browser host's WebSocket, reconnecting when the socket drops. */
class WebSocketBridge implements BetdeskBridge {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (result: IpcResult<unknown>) => void>();
  private readonly listeners = new Map<IpcEvent, Set<Listener>>();
  private readonly waiting: (() => void)[] = [];
  private retryMs = 250;
  connected = false;
  onConnection: (connected: boolean) => void = () => {};

  constructor(private readonly url: string) {
    this.connect();
  }

  invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcResult<IpcOutput<C>>> {
    return new Promise((resolve) => {
      const send = () => {
        const id = this.nextId++;
        this.pending.set(id, resolve as (r: IpcResult<unknown>) => void);
        const frame: WsInvoke = { type: 'invoke', id, channel, input };
        this.socket?.send(JSON.stringify(frame));
      };
      if (this.connected) send();
      else this.waiting.push(send);
    });
  }

  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const l = listener as Listener;
    set.add(l);
    return () => set.delete(l);
  }

  private connect(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.connected = true;
      this.retryMs = 250;
      this.onConnection(true);
      for (const send of this.waiting.splice(0)) send();
    };
    socket.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      const frame = JSON.parse(message.data) as WsServerMessage;
      if (frame.type === 'result') {
        this.pending.get(frame.id)?.(frame.result);
        this.pending.delete(frame.id);
      } else {
        for (const l of this.listeners.get(frame.event) ?? []) l(frame.payload);
      }
    };
    socket.onclose = () => {
      const wasConnected = this.connected;
      this.connected = false;
      if (wasConnected) this.onConnection(false);
      for (const resolve of this.pending.values()) {
        resolve({
          ok: false,
          error: {
            kind: 'internal',
            message: 'Betdesk lost its connection to its background service before it answered.',
          },
        });
      }
      this.pending.clear();
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 5000);
    };
  }
}

export interface Bridge {
  invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>>;
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
  /** Called with false when the browser host stops answering, and true when it is back. */
  onConnection(listener: (connected: boolean) => void): void;
}

function connect(): Bridge {
  let raw: BetdeskBridge;
  let onConnection: (listener: (connected: boolean) => void) => void = () => {};
  if (window.betdesk) {
    raw = window.betdesk;
  } else {
    const token = new URLSearchParams(location.search).get(TOKEN_PARAM) ?? '';
    const ws = new WebSocketBridge(
      `ws://${location.host}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`,
    );
    raw = ws;
    onConnection = (listener) => {
      ws.onConnection = listener;
    };
  }
  return {
    async invoke(channel, input) {
      const result = await raw.invoke(channel, input);
      if (!result.ok) throw new BridgeFailure(result.error);
      return result.value;
    },
    on: (event, listener) => raw.on(event, listener),
    onConnection: (listener) => onConnection(listener),
  };
}

export const bridge: Bridge = connect();
