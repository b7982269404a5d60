/** History service (placeholder; the real one follows in this change). */
import { ServiceError } from '../ipc/errors.js';
import type { HistoryService, OrdersService } from '../ipc/services.js';
import type { Store } from '../store/index.js';
import type { AccountSession } from './session.js';

export interface HistoryContext {
  store: Store;
  started: () => Promise<AccountSession>;
}

export function historyService(_ctx: HistoryContext): HistoryService {
  const refuse = () => Promise.reject(new ServiceError('not-ready', 'History is not ready.'));
  return {
    list: refuse,
    summary: refuse,
    detail: refuse,
    choices: refuse,
    resync: refuse,
    status: refuse,
  };
}

export function orderTotals(_ctx: HistoryContext): OrdersService['totals'] {
  return () => Promise.reject(new ServiceError('not-ready', 'Totals are not ready.'));
}
