/**
 * The names of the bridge, without their schemas: the sandboxed preload checks every call
 * against these lists at run time and must stay small, so it imports this file and not the
 * TypeBox contract. contract.ts proves at compile time that both name the same channels.
 */

/** Calls from the renderer to main, named `domain:verb`. */
export const IPC_CHANNELS = [
  'app:info',
  'accounts:list',
  'accounts:add',
  'accounts:remove',
  'accounts:switch',
  'fixtures:list',
  'quote:request',
  'order:place',
  'orders:list',
  'orders:get',
  'orders:fixtures',
  'orders:totals',
  'positions:list',
  'alerts:list',
  'alerts:read',
  'alerts:settings',
  'alerts:configure',
  'settings:get',
  'settings:set',
  'practice:price',
  'practice:close',
  'practice:resolve',
  'practice:reject',
  'history:list',
  'history:summary',
  'history:detail',
  'history:choices',
  'history:resync',
  'history:status',
  'export:start',
  'export:cancel',
  'status:get',
  'sync:pause',
  'sync:resume',
  'store:acknowledge',
  'support:folders',
  'support:diagnostics',
  'logs:open',
] as const;

/** Events main pushes to the renderer. */
export const IPC_EVENTS = [
  'app:changed',
  'app:show',
  'sync:status',
  'fixtures:changed',
  'positions:changed',
  'orders:changed',
  'alert:raised',
  'alerts:changed',
  'history:changed',
  'history:progress',
  'export:progress',
] as const;

export type IpcChannel = (typeof IPC_CHANNELS)[number];
export type IpcEvent = (typeof IPC_EVENTS)[number];

const channelSet: ReadonlySet<string> = new Set(IPC_CHANNELS);
const eventSet: ReadonlySet<string> = new Set(IPC_EVENTS);

export function isIpcChannel(name: unknown): name is IpcChannel {
  return typeof name === 'string' && channelSet.has(name);
}

export function isIpcEvent(name: unknown): name is IpcEvent {
  return typeof name === 'string' && eventSet.has(name);
}
