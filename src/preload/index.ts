/**
 * The bridge. Runs sandboxed with context isolation and is bundled whole (CommonJS): it exposes
 * `window.betdesk` with `invoke` and `on` for the contract's channels only, never `ipcRenderer`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_GLOBAL } from '../shared/ipc/bridge.js';
import { createBridge } from './bridge.js';

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, createBridge(ipcRenderer));
