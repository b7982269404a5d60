/**
 * Builds `window.betdesk` from the few pieces of ipcRenderer it needs, checking each channel and
 * event name against the contract's lists at run time: the page can reach nothing else, and never
 * ipcRenderer itself.
 */
import type { BetdeskBridge } from '../shared/ipc/bridge.js';
import type { IpcChannel, IpcInput, IpcOutput, IpcResult } from '../shared/ipc/contract.js';
import { isIpcChannel, isIpcEvent } from './names.js';

/** The slice of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function createBridge(ipc: IpcRendererLike): BetdeskBridge {
  const bridge: BetdeskBridge = {
    invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>) {
      if (!isIpcChannel(channel)) {
        return Promise.reject(new Error(`Betdesk has no bridge channel named ${String(channel)}.`));
      }
      return ipc.invoke(channel, input) as Promise<IpcResult<IpcOutput<C>>>;
    },
    on(event, listener) {
      if (!isIpcEvent(event)) {
        throw new Error(`Betdesk has no bridge event named ${String(event)}.`);
      }
      if (typeof listener !== 'function') throw new Error('A bridge listener must be a function.');
      const forward = (_event: unknown, payload: unknown) => {
        listener(payload as Parameters<typeof listener>[0]);
      };
      ipc.on(event, forward);
      return () => {
        ipc.removeListener(event, forward);
      };
    },
  };
  return Object.freeze(bridge);
}
