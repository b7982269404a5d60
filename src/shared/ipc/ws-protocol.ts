/**
 * The browser host carries the same contract over one WebSocket: the page sends `invoke` frames,
 * the host answers each with a `result` carrying the same `IpcResult` envelope the Electron bridge
 * returns, and pushes `event` frames. JSON text frames only.
 */
import type { IpcEvent, IpcResult } from './contract.js';

export const WS_PATH = '/ipc';
/** The query parameter that carries the host's token, on the page's URL and the socket's. */
export const TOKEN_PARAM = 'token';

export interface WsInvoke {
  type: 'invoke';
  id: number;
  channel: string;
  input: unknown;
}

export type WsServerMessage =
  | { type: 'result'; id: number; result: IpcResult<unknown> }
  | { type: 'event'; event: IpcEvent; payload: unknown };
