/**
 * CSV export from the app (placeholder until the export jobs land): refuses every export with a
 * sentence, so the bridge contract is whole meanwhile.
 */
import { ServiceError } from '../ipc/errors.js';
import type { ExportService } from '../ipc/services.js';
import type { Store } from '../store/index.js';
import type { AccountSession } from './session.js';

export interface ExportContext {
  store: Store;
  started: () => Promise<AccountSession>;
}

export function exportService(_ctx: ExportContext): ExportService {
  const refuse = () =>
    Promise.reject(new ServiceError('not-ready', 'Export is not available in this build yet.'));
  return { start: refuse, cancel: refuse };
}
