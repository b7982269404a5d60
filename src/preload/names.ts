/**
 * The bridge's names, without their schemas: the sandboxed preload checks every call against
 * them at run time and must stay small, so it cannot import the TypeBox contract. The build
 * writes them in from the contract (electron.vite.config.ts, vitest.config.ts: `define`), so
 * they are declared once, in src/shared/ipc/schemas/ (docs/ipc.md).
 */
import type { IpcChannel, IpcEvent } from '../shared/ipc/contract.js';

declare const __BETDESK_BRIDGE_NAMES__: { channels: readonly string[]; events: readonly string[] };

const channels: ReadonlySet<string> = new Set(__BETDESK_BRIDGE_NAMES__.channels);
const events: ReadonlySet<string> = new Set(__BETDESK_BRIDGE_NAMES__.events);

export function isIpcChannel(name: unknown): name is IpcChannel {
  return typeof name === 'string' && channels.has(name);
}

export function isIpcEvent(name: unknown): name is IpcEvent {
  return typeof name === 'string' && events.has(name);
}
