/**
 * The bridge contract: every call the renderer may make to main (`channel -> input -> output`)
 * and every event main pushes back, each with the TypeBox schema that both types it and
 * validates it at the main boundary. Channel names live in channels.ts; the `satisfies` clauses
 * below make a channel missing here, or one not listed there, a compile error. The schemas live
 * by feature under schemas/.
 *
 * Secrets never cross the bridge: an account goes in with its secret (`accounts:add`) and comes
 * back without it.
 */
import type { Static, TSchema } from 'typebox';
import type { IpcChannel, IpcEvent } from './channels.js';
import {
  AlertPage,
  AlertRaised,
  AlertSettings,
  AlertsQuery,
  AlertsSummary,
  MarkRead,
} from './schemas/alerts.js';
import {
  AccountList,
  AccountRef,
  AccountSwitch,
  AddedAccount,
  AppInfo,
  AppStatus,
  DeskSettings,
  DeskSettingsChange,
  NewAccount,
  Removed,
  ShowRequest,
  StoreNoticeRef,
} from './schemas/app.js';
import { NoInput } from './schemas/common.js';
import {
  MaybeOrderRow,
  OrderFixtures,
  OrderPage,
  OrderRef,
  OrdersChanged,
  OrdersFilter,
  OrdersScope,
  PlaceOrder,
  PlaceResult,
  PositionsChanged,
  PositionsView,
} from './schemas/desk.js';
import {
  ExportCanceled,
  ExportProgress,
  ExportRef,
  ExportRequest,
  ExportStarted,
  HistoryChanged,
  HistoryChoices,
  HistoryPage,
  HistoryQuery,
  HistorySummary,
  HistorySummaryQuery,
  HistorySyncProgress,
  HistorySyncStatus,
  OrderTotals,
  SettlementDetail,
  SettlementRef,
} from './schemas/history.js';
import { FixturePage, FixturesFilter, QuoteRequest, QuoteResult } from './schemas/markets.js';
import {
  PracticeFixture,
  PracticePrice,
  PracticeResolve,
  PracticeResult,
} from './schemas/practice.js';
import { Diagnostics, LogsFolderOpened, SupportFolders } from './schemas/support.js';
import Type from 'typebox';

export * from './channels.js';
export * from './schemas/alerts.js';
export * from './schemas/app.js';
export * from './schemas/common.js';
export * from './schemas/desk.js';
export * from './schemas/history.js';
export * from './schemas/markets.js';
export * from './schemas/practice.js';
export * from './schemas/support.js';
export type { Fixture, Quote } from '../api/schemas.js';

interface ChannelSchemas {
  readonly input: TSchema;
  readonly output: TSchema;
}

export const ipcContract = {
  'app:info': { input: NoInput, output: AppInfo },
  'accounts:list': { input: NoInput, output: AccountList },
  'accounts:add': { input: NewAccount, output: AddedAccount },
  'accounts:remove': { input: AccountRef, output: Removed },
  'accounts:switch': { input: AccountSwitch, output: AppInfo },
  'fixtures:list': { input: FixturesFilter, output: FixturePage },
  'quote:request': { input: QuoteRequest, output: QuoteResult },
  'order:place': { input: PlaceOrder, output: PlaceResult },
  'orders:list': { input: OrdersFilter, output: OrderPage },
  'orders:get': { input: OrderRef, output: MaybeOrderRow },
  'orders:fixtures': { input: NoInput, output: OrderFixtures },
  'orders:totals': { input: OrdersScope, output: OrderTotals },
  'positions:list': { input: NoInput, output: PositionsView },
  'alerts:list': { input: AlertsQuery, output: AlertPage },
  'alerts:read': { input: MarkRead, output: AlertsSummary },
  'alerts:settings': { input: NoInput, output: AlertSettings },
  'alerts:configure': { input: AlertSettings, output: AlertSettings },
  'settings:get': { input: NoInput, output: DeskSettings },
  'settings:set': { input: DeskSettingsChange, output: DeskSettings },
  'practice:price': { input: PracticePrice, output: PracticeResult },
  'practice:close': { input: PracticeFixture, output: PracticeResult },
  'practice:resolve': { input: PracticeResolve, output: PracticeResult },
  'practice:reject': { input: NoInput, output: PracticeResult },
  'history:list': { input: HistoryQuery, output: HistoryPage },
  'history:summary': { input: HistorySummaryQuery, output: HistorySummary },
  'history:detail': { input: SettlementRef, output: SettlementDetail },
  'history:choices': { input: NoInput, output: HistoryChoices },
  'history:resync': { input: NoInput, output: HistorySyncStatus },
  'history:status': { input: NoInput, output: HistorySyncStatus },
  'export:start': { input: ExportRequest, output: ExportStarted },
  'export:cancel': { input: ExportRef, output: ExportCanceled },
  'status:get': { input: NoInput, output: AppStatus },
  'sync:pause': { input: NoInput, output: AppStatus },
  'sync:resume': { input: NoInput, output: AppStatus },
  'store:acknowledge': { input: StoreNoticeRef, output: AppInfo },
  'support:folders': { input: NoInput, output: SupportFolders },
  'support:diagnostics': { input: NoInput, output: Diagnostics },
  'logs:open': { input: NoInput, output: LogsFolderOpened },
} as const satisfies { readonly [C in IpcChannel]: ChannelSchemas };

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

export const FixturesChanged = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    syncedAt: Type.Integer({ minimum: 0, description: 'When the fixtures were fetched.' }),
  },
  { additionalProperties: false },
);
export type FixturesChanged = Static<typeof FixturesChanged>;

export const ipcEvents = {
  'app:changed': AppInfo,
  'app:show': ShowRequest,
  'sync:status': AppStatus,
  'fixtures:changed': FixturesChanged,
  'positions:changed': PositionsChanged,
  'orders:changed': OrdersChanged,
  'alert:raised': AlertRaised,
  'alerts:changed': AlertsSummary,
  'history:changed': HistoryChanged,
  'history:progress': HistorySyncProgress,
  'export:progress': ExportProgress,
} as const satisfies { readonly [E in IpcEvent]: TSchema };

export type IpcEventPayloads = { [E in IpcEvent]: Static<(typeof ipcEvents)[E]> };
export type IpcEventPayload<E extends IpcEvent> = IpcEventPayloads[E];
