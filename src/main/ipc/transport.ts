/**
 * How the handlers reach a renderer. Two implementations: Electron's ipcMain
 * (src/main/shell/ipc-electron.ts) and the browser host's WebSocket (src/main/host/ws-transport.ts).
 * A transport delivers raw, untrusted input; the handlers validate it.
 */
import type { IpcChannel, IpcEvent, IpcResult } from '../../shared/ipc/contract.js';

export type RawHandler = (input: unknown) => Promise<IpcResult<unknown>>;

export interface IpcTransport {
  /** Answers calls on `channel` with `handler`; returns a function that stops answering. */
  handle(channel: IpcChannel, handler: RawHandler): () => void;
  /** Pushes an event to every connected renderer. */
  broadcast(event: IpcEvent, payload: unknown): void;
}
