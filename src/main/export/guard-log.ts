/**
 * The guardian log as CSV (docs/guardians.md, "The guardian log"): every firing, hold, order
 * and outcome of the account's rules, oldest first, with the figures each was judged on. The
 * app's export (`{kind: 'guards'}`) and `cli guard log --csv` both call exportGuardLogCsv, so
 * one filter gives the same bytes from either; it streams from a reader connection as the other
 * exports do (csv.ts).
 */
import type { GuardLogScope } from '../../shared/ipc/contract.js';
import { fixtureName } from '../desk/rows.js';
import type { GuardLogEntry, Store } from '../store/index.js';
import type { StoreReader } from '../store/store.js';
import {
  exportRows,
  type ColumnKind,
  type CsvExportResult,
  type CsvOptions,
  type CsvTarget,
  type ExportSource,
} from './csv.js';

/** The log's columns, in file order; the row below is built in the same order. */
export const GUARD_LOG_COLUMNS = [
  'time',
  'account',
  'rule_id',
  'kind',
  'fixture',
  'contract_id',
  'outcome',
  'event',
  'hold',
  'message',
  'observed_at',
  'closing_price',
  'index_price',
  'pnl',
  'pnl_percent',
  'contracts',
  'client_order_id',
  'order_id',
  'error_code',
] as const;
export type GuardLogColumn = (typeof GUARD_LOG_COLUMNS)[number];

const GUARD_LOG_KINDS: Record<GuardLogColumn, ColumnKind> = {
  time: 'ms',
  account: 'text',
  rule_id: 'integer',
  kind: 'text',
  fixture: 'text',
  contract_id: 'text',
  outcome: 'text',
  event: 'text',
  hold: 'text',
  message: 'text',
  observed_at: 'ms',
  closing_price: 'decimal',
  index_price: 'decimal',
  pnl: 'decimal',
  pnl_percent: 'decimal',
  contracts: 'integer',
  client_order_id: 'text',
  order_id: 'text',
  error_code: 'integer',
};

export type GuardLogExportRequest = GuardLogScope & { accountId: number };

/** The store as this export reads it: a reader connection, and the account's label. */
export interface GuardLogSource extends ExportSource {
  readonly accounts: Pick<Store['accounts'], 'get'>;
}

/** Writes the account's matching guardian log rows, oldest first, as CSV. */
export function exportGuardLogCsv(
  source: GuardLogSource,
  target: CsvTarget,
  request: GuardLogExportRequest,
  options: CsvOptions = {},
): Promise<CsvExportResult> {
  const { accountId, ...scope } = request;
  // The `account` column: the label the app and the CLI both name the account by.
  const account = source.accounts.get(accountId)?.label ?? String(accountId);
  return exportRows(
    source,
    (reader) => guardLogRows(reader, accountId, account, scope),
    GUARD_LOG_COLUMNS,
    GUARD_LOG_KINDS,
    target,
    options,
  );
}

/**
 * The rows in GUARD_LOG_COLUMNS order. The fixture is named as the screen names it ("ARS v
 * CHE"), read once per contract; those reads share the log statement's read transaction, so
 * the file is one snapshot.
 */
function* guardLogRows(
  reader: StoreReader,
  accountId: number,
  account: string,
  scope: GuardLogScope,
): Generator<unknown[], void, undefined> {
  const names = new Map<string, string>();
  const nameOf = (contractId: string): string => {
    let name = names.get(contractId);
    if (name === undefined) {
      name = fixtureName(reader, accountId, contractId);
      names.set(contractId, name);
    }
    return name;
  };
  for (const e of reader.guards.logRows(accountId, scope)) {
    yield rowOf(e, account, nameOf(e.contractId));
  }
}

function rowOf(e: GuardLogEntry, account: string, fixture: string): unknown[] {
  const o = e.observation;
  const row: Record<GuardLogColumn, unknown> = {
    time: e.at,
    account,
    rule_id: e.ruleId,
    kind: e.kind,
    fixture,
    contract_id: e.contractId,
    outcome: e.outcome,
    event: e.event,
    hold: e.hold,
    message: e.message,
    observed_at: o?.at ?? null,
    closing_price: o?.closingPrice ?? null,
    index_price: o?.indexPrice ?? null,
    pnl: o?.pnl ?? null,
    pnl_percent: o?.pnlPercent ?? null,
    contracts: e.contracts,
    client_order_id: e.clientOrderId,
    order_id: e.orderId,
    error_code: e.errorCode,
  };
  return GUARD_LOG_COLUMNS.map((c) => row[c]);
}
