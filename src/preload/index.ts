/**
 * The bridge. Runs sandboxed with context isolation: it exposes a narrow, typed API and never
 * `ipcRenderer` itself. Channels grow with the IPC contract in src/shared.
 */
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('betdesk', Object.freeze({ version: 1 }));
