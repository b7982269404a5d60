/** The local store's public surface: open it, then use its repositories and atomic writes. */
export {
  openStore,
  Store,
  STORE_SCHEMA_VERSION,
  type ApplyOrdersResult,
  type ApplySettlementsResult,
  type StoreOptions,
  type StoreReader,
} from './store.js';
export {
  diskFullMessage,
  DiskFullError,
  IntentConflictError,
  ioCodeOf,
  isDiskFull,
  isIoError,
  isWriteFault,
  IoError,
  NewerSchemaError,
  StoreError,
  writeFaultError,
  writeFaultMessage,
  writeFaultOf,
  type WriteFault,
} from './errors.js';
export {
  openCheckedStore,
  type CheckedStore,
  type CheckedStoreOptions,
  type StoreRecovery,
} from './open.js';
export {
  openReadableStore,
  type ReadableStore,
  type ReadableStoreOptions,
  type StoreRead,
} from './read-worker-store.js';
export {
  BACKUP_KEEP,
  backupFolderOf,
  backupStore,
  latestGoodBackup,
  listBackups,
  type BackupFile,
} from './backup.js';
export { BackupSchedule, type BackupScheduleOptions } from './backup-schedule.js';
export { isCorruption } from './integrity.js';
export { copyWhole, moveDatabase } from './relocate.js';
export { canonicalJson } from './keys.js';
export type { Migration } from './migrations/index.js';
export type { Account, AccountPatch, NewAccount, Permission } from './repos/accounts.js';
export {
  ALERT_KINDS,
  type Alert,
  type AlertFilter,
  type AlertKind,
  type NewAlert,
} from './repos/alerts.js';
export {
  orderStatusesOf,
  type BlotterEntry,
  type BlotterFilter,
  type BlotterPage,
  type BlotterStatusGroup,
} from './repos/blotter.js';
export type { SyncCursor, SyncStream } from './repos/cursors.js';
export { WALLET_PROBE_ORDERS, type SharedWallet } from './repos/wallets.js';
export {
  EQUITY_COARSE_STEP_MS,
  EQUITY_FINE_MS,
  EQUITY_FINE_STEP_MS,
  EQUITY_RAW_MS,
  sumPositions,
  type EquityPointRecord,
  type EquitySums,
  type RealizedSteps,
} from './repos/equity.js';
export type { FixtureFilter, FixturePage } from './repos/fixtures.js';
export {
  LIVE_GUARD_STATES,
  type GuardClaim,
  type GuardLogEntry,
  type GuardProgress,
  type LiveGuardProgress,
  type GuardRule,
  type NewGuardLog,
} from './repos/guards.js';
export type { IntentState, NewIntent, OrderIntent } from './repos/intents.js';
export {
  EXPORT_ORDER_COLUMNS,
  type ExportOrderColumn,
  type OrderFilter,
  type OrderPage,
  type OrderTotals,
} from './repos/orders.js';
export type { PositionFilter, StoredPosition } from './repos/positions.js';
export {
  AGE_EVERY_MS,
  foldCandles,
  type AgeingStep,
  type AgeingTier,
  type PricePolicy,
  type Candle,
  type LineRow,
  type PriceQuote,
  type PriceSeriesRef,
  PricesRepo,
} from './repos/prices.js';
export { accountSettingKey } from './repos/settings.js';
export {
  EXPORT_SETTLEMENT_COLUMNS,
  SLOT_MS,
  type ExportSettlementColumn,
  type SettlementChoices,
  type SettlementFilter,
  type SettlementPage,
  type SettlementQuery,
  type SettlementSort,
  type SlotTotals,
  type StoredSettlement,
} from './repos/settlements.js';
export type { PageRequest } from './paging.js';
