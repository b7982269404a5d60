/**
 * The contract over the browser host's WebSocket, reconnecting when the socket drops. It opens
 * the socket on its first call, not when constructed or imported. Calls made before the first
 * connection wait for it; once connected, a call made while the socket is down fails at once
 * (kind offline, nothing sent): nothing, a bet least of all, is queued to go out later.
 */
import type { BetdeskBridge } from '../../../shared/ipc/bridge.js';
import type { IpcEvent, IpcResult } from '../../../shared/ipc/contract.js';
import type { WsInvoke, WsServerMessage } from '../../../shared/ipc/ws-protocol.js';

type Listener = (payload: unknown) => void;

export class WebSocketBridge implements BetdeskBridge {
  #socket: WebSocket | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, (result: IpcResult<unknown>) => void>();
  readonly #listeners = new Map<IpcEvent, Set<Listener>>();
  readonly #connectionListeners = new Set<(connected: boolean) => void>();
  readonly #waiting: (() => void)[] = [];
  #retryMs = 250;
  #connected = false;
  #everConnected = false;
  readonly #url: string;

  constructor(url: string) {
    this.#url = url;
  }

  // invoke and on are typed by the bridge they implement (shared/ipc/bridge.ts), not restated.
  readonly invoke: BetdeskBridge['invoke'] = (channel, input) => {
    this.#open();
    return new Promise((resolve) => {
      const send = () => {
        const id = this.#nextId++;
        this.#pending.set(id, resolve as (r: IpcResult<unknown>) => void);
        const frame: WsInvoke = { type: 'invoke', id, channel, input };
        this.#socket?.send(JSON.stringify(frame));
      };
      if (this.#connected) send();
      else if (!this.#everConnected) this.#waiting.push(send);
      else {
        resolve({
          ok: false,
          error: {
            kind: 'offline',
            message: 'Betdesk’s background service is not answering, so nothing was sent.',
          },
        });
      }
    });
  };

  readonly on: BetdeskBridge['on'] = (event, listener) => {
    this.#open();
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    const l = listener as Listener;
    set.add(l);
    return () => set.delete(l);
  };

  onConnection(listener: (connected: boolean) => void): () => void {
    this.#connectionListeners.add(listener);
    return () => this.#connectionListeners.delete(listener);
  }

  #open(): void {
    if (this.#socket === null) this.#connect();
  }

  #setConnected(connected: boolean): void {
    if (this.#connected === connected) return;
    this.#connected = connected;
    for (const l of this.#connectionListeners) l(connected);
  }

  #connect(): void {
    const socket = new WebSocket(this.#url);
    this.#socket = socket;
    socket.onopen = () => {
      this.#retryMs = 250;
      this.#everConnected = true;
      this.#setConnected(true);
      for (const send of this.#waiting.splice(0)) send();
    };
    socket.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      const frame = JSON.parse(message.data) as WsServerMessage;
      if (frame.type === 'result') {
        this.#pending.get(frame.id)?.(frame.result);
        this.#pending.delete(frame.id);
      } else {
        for (const l of this.#listeners.get(frame.event) ?? []) l(frame.payload);
      }
    };
    socket.onclose = () => {
      this.#setConnected(false);
      for (const resolve of this.#pending.values()) {
        resolve({
          ok: false,
          error: {
            kind: 'internal',
            message: 'Betdesk lost its connection to its background service before it answered.',
          },
        });
      }
      this.#pending.clear();
      setTimeout(() => this.#connect(), this.#retryMs);
      this.#retryMs = Math.min(this.#retryMs * 2, 5000);
    };
  }
}
