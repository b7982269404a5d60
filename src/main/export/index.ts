export {
  exportOrdersCsv,
  exportSettlementsCsv,
  type CsvExportResult,
  type CsvOptions,
  type CsvTarget,
  type ExportSource,
  type OrderExportRequest,
  type SettlementExportRequest,
} from './csv.js';
export {
  exportGuardLogCsv,
  GUARD_LOG_COLUMNS,
  type GuardLogColumn,
  type GuardLogExportRequest,
  type GuardLogSource,
} from './guard-log.js';
export { DOWNLOAD_PATH, ExportDownloads, type PendingDownload } from './downloads.js';
export { guardFormula, needsFormulaGuard } from './formula-guard.js';
export {
  exportFileName,
  ExportJobs,
  ExportStopped,
  failureMessage,
  type ExportDestination,
  type ExportJobSpec,
  type ExportJobsOptions,
  type StartedExport,
} from './jobs.js';
