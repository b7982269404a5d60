/**
 * A stand-in for the browser's WebSocket, installed as the global: it records what the page
 * sends and lets the test open, answer and drop the connection as the browser host would.
 */
import type { WsInvoke, WsServerMessage } from '../../../src/shared/ipc/ws-protocol.js';

export class FakeSocket {
  static made: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  readonly sent: WsInvoke[] = [];
  readonly url: string;

  constructor(url: string) {
    this.url = url;
    FakeSocket.made.push(this);
  }

  /** The socket the page made last. */
  static get last(): FakeSocket {
    const socket = FakeSocket.made.at(-1);
    if (!socket) throw new Error('No socket was opened.');
    return socket;
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data) as WsInvoke);
  }

  open(): void {
    this.onopen?.();
  }

  receive(frame: WsServerMessage | ArrayBuffer): void {
    this.onmessage?.({ data: frame instanceof ArrayBuffer ? frame : JSON.stringify(frame) });
  }

  drop(): void {
    this.onclose?.();
  }
}
