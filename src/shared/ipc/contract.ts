/**
 * The bridge contract: every call the renderer may make to main (`channel -> input -> output`)
 * and every event main pushes back, each with the TypeBox schema that both types it and
 * validates it at the main boundary. Each feature's calls are declared once, beside their
 * schemas, in schemas/<feature>.ts; this file joins them, and every list of names (the
 * preload's included, at build time: src/preload/names.ts) is read off it (docs/ipc.md).
 *
 * Secrets never cross the bridge: an account goes in with its secret (`accounts:add`) and comes
 * back without it.
 */
import type { Static, TSchema } from 'typebox';
import { AlertRaised, AlertsSummary, alertCalls } from './schemas/alerts.js';
import { AppInfo, AppStatus, ShowRequest, StartProgress, appCalls } from './schemas/app.js';
import { OrdersChanged, PositionsChanged, deskCalls } from './schemas/desk.js';
import {
  ExportProgress,
  HistoryChanged,
  HistorySyncProgress,
  historyCalls,
} from './schemas/history.js';
import { GuardsView, guardCalls } from './schemas/guards.js';
import { FixturesChanged, marketCalls } from './schemas/markets.js';
import { portfolioCalls } from './schemas/portfolio.js';
import { practiceCalls } from './schemas/practice.js';
import { priceCalls } from './schemas/prices.js';
import { supportCalls } from './schemas/support.js';

export * from './schemas/alerts.js';
export * from './schemas/app.js';
export * from './schemas/common.js';
export * from './schemas/desk.js';
export * from './schemas/guards.js';
export * from './schemas/history.js';
export * from './schemas/markets.js';
export * from './schemas/portfolio.js';
export * from './schemas/practice.js';
export * from './schemas/prices.js';
export * from './schemas/support.js';
export type { Fixture, Quote } from '../api/schemas.js';

interface ChannelSchemas {
  readonly input: TSchema;
  readonly output: TSchema;
}

/** Calls from the renderer to main, named `domain:verb`. */
export const ipcContract = {
  ...appCalls,
  ...marketCalls,
  ...deskCalls,
  ...alertCalls,
  ...practiceCalls,
  ...historyCalls,
  ...priceCalls,
  ...portfolioCalls,
  ...guardCalls,
  ...supportCalls,
} as const satisfies Readonly<Record<`${string}:${string}`, ChannelSchemas>>;

export type IpcChannel = keyof typeof ipcContract;

/** channel -> {input, output}: the one type every side of the bridge is checked against. */
export type IpcContract = {
  [C in IpcChannel]: {
    input: Static<(typeof ipcContract)[C]['input']>;
    output: Static<(typeof ipcContract)[C]['output']>;
  };
};
export type IpcInput<C extends IpcChannel> = IpcContract[C]['input'];
export type IpcOutput<C extends IpcChannel> = IpcContract[C]['output'];

// ---------------------------------------------------------------- events

export const ipcEvents = {
  'app:changed': AppInfo,
  'app:show': ShowRequest,
  'app:starting': StartProgress,
  'sync:status': AppStatus,
  'fixtures:changed': FixturesChanged,
  'positions:changed': PositionsChanged,
  'orders:changed': OrdersChanged,
  'alert:raised': AlertRaised,
  'alerts:changed': AlertsSummary,
  'history:changed': HistoryChanged,
  'history:progress': HistorySyncProgress,
  'export:progress': ExportProgress,
  'guards:changed': GuardsView,
} as const satisfies Readonly<Record<`${string}:${string}`, TSchema>>;

export type IpcEvent = keyof typeof ipcEvents;

export type IpcEventPayloads = { [E in IpcEvent]: Static<(typeof ipcEvents)[E]> };
export type IpcEventPayload<E extends IpcEvent> = IpcEventPayloads[E];

export const IPC_CHANNELS = Object.keys(ipcContract) as readonly IpcChannel[];
export const IPC_EVENTS = Object.keys(ipcEvents) as readonly IpcEvent[];

export function isIpcChannel(name: unknown): name is IpcChannel {
  return typeof name === 'string' && Object.hasOwn(ipcContract, name);
}

export function isIpcEvent(name: unknown): name is IpcEvent {
  return typeof name === 'string' && Object.hasOwn(ipcEvents, name);
}

/** The names alone, for the preload's bundle (electron.vite.config.ts writes them into it). */
export function bridgeNames(): { channels: readonly string[]; events: readonly string[] } {
  return { channels: IPC_CHANNELS, events: IPC_EVENTS };
}
