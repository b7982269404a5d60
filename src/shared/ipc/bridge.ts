/**
 * What the renderer sees as `window.betdesk` (Electron's preload) and what the browser host's
 * WebSocket client offers in its place: one `invoke` for the contract's channels, one `on` for
 * its events. Every call answers with an `IpcResult` envelope rather than throwing, so an error
 * keeps its `{kind, message, code}` over contextBridge and WebSocket alike.
 */
import type {
  IpcChannel,
  IpcEvent,
  IpcEventPayload,
  IpcInput,
  IpcOutput,
  IpcResult,
} from './contract.js';

export interface BetdeskBridge {
  invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcResult<IpcOutput<C>>>;
  /** Returns the function that stops listening. */
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
}

/** The global the preload defines. */
export const BRIDGE_GLOBAL = 'betdesk';
