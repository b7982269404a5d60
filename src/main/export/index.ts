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
export { guardFormula, needsFormulaGuard } from './formula-guard.js';
