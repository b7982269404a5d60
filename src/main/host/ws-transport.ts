/**
 * The IPC transport of the browser host: every accepted WebSocket is a renderer. Frames are
 * checked for shape here; their input is checked against the contract by the handlers.
 */
import type { WebSocket } from 'ws';
import type { IpcChannel, IpcEvent } from '../../shared/ipc/contract.js';
import type { WsInvoke, WsServerMessage } from '../../shared/ipc/ws-protocol.js';
import type { IpcTransport, RawHandler } from '../ipc/transport.js';
import { stderrLine } from '../log/stderr.js';

export class WsIpcTransport implements IpcTransport {
  private readonly handlers = new Map<IpcChannel, RawHandler>();
  private readonly sockets = new Set<WebSocket>();

  constructor(private readonly log: (message: string) => void = stderrLine) {}

  handle(channel: IpcChannel, handler: RawHandler): () => void {
    this.handlers.set(channel, handler);
    return () => {
      this.handlers.delete(channel);
    };
  }

  broadcast(event: IpcEvent, payload: unknown): void {
    const frame = JSON.stringify({ type: 'event', event, payload } satisfies WsServerMessage);
    for (const socket of this.sockets) {
      if (socket.readyState === socket.OPEN) socket.send(frame);
    }
  }

  /** Serves one renderer until its socket closes. */
  attach(socket: WebSocket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => this.sockets.delete(socket));
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        socket.close(1003, 'Betdesk speaks JSON text frames only.');
        return;
      }
      const frame = parseInvoke(rawText(data));
      if (!frame) {
        socket.close(1008, 'Betdesk could not read that frame.');
        return;
      }
      void this.answer(socket, frame);
    });
  }

  closeAll(): void {
    for (const socket of this.sockets) socket.close(1001, 'Betdesk is shutting down.');
    this.sockets.clear();
  }

  private async answer(socket: WebSocket, frame: WsInvoke): Promise<void> {
    // Only the contract's channels are registered: any other name finds no handler.
    const handler = this.handlers.get(frame.channel as IpcChannel);
    const result: WsServerMessage = {
      type: 'result',
      id: frame.id,
      result: handler
        ? await handler(frame.input)
        : {
            ok: false,
            error: {
              kind: 'invalid-input',
              message: `Betdesk has no bridge channel named ${frame.channel}.`,
            },
          },
    };
    if (socket.readyState !== socket.OPEN) return;
    try {
      socket.send(JSON.stringify(result));
    } catch (err) {
      this.log(`Betdesk: could not answer ${frame.channel}: ${String(err)}`);
    }
  }
}

function rawText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return '';
}

function parseInvoke(text: string): WsInvoke | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const f = value as Partial<WsInvoke>;
  if (f.type !== 'invoke' || typeof f.channel !== 'string' || f.channel.length > 64) return null;
  if (typeof f.id !== 'number' || !Number.isSafeInteger(f.id)) return null;
  return { type: 'invoke', id: f.id, channel: f.channel, input: f.input };
}
