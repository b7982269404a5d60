/**
 * CSV export from the app: exactly what the History, Orders or Guardians screen's filter shows,
 * written by the same export module as the CLI (src/main/export), so both give the same bytes
 * for one filter. The filters map to the store's as the screens' own queries map them
 * (history/feature.ts; the guardian log's filter is the store's own).
 *
 * Desktop: the shell's save dialog chooses the file, and the export writes it at once. Browser
 * host: the export waits for the page to fetch its download, which the host streams. Progress,
 * cancel and failures are the export jobs' (src/main/export/jobs.ts).
 */
import { basename } from 'node:path';
import type { ExportRequest, ExportStarted } from '../../shared/ipc/contract.js';
import type { Emit } from '../desk/alert-centre.js';
import { orderFilter, settlementFilter } from '../history/feature.js';
import type { Handlers } from '../ipc/handler.js';
import { Refusal } from '../refusal.js';
import type { AccountSession } from '../root/session.js';
import type { OrderFilter, Store } from '../store/index.js';
import {
  exportFileName,
  ExportJobs,
  exportGuardLogCsv,
  exportOrdersCsv,
  exportSettlementsCsv,
  type ExportDestination,
  type ExportJobSpec,
} from './index.js';

export type ExportChannel = 'export:start' | 'export:cancel';

export interface ExportContext {
  store: Store;
  /** The active session, waiting for it while the app starts or switches accounts. */
  started: () => Promise<AccountSession>;
  emit: Emit;
  /** Where exports go; absent, every export is refused with a sentence. */
  destination: ExportDestination | undefined;
  now?: () => number;
}

/** Each export holds a read connection; a handful at once is plenty. */
export const MAX_ACTIVE_EXPORTS = 4;

export interface ExportFeature extends Handlers<ExportChannel> {
  /** Stops every export and waits until their partial files are removed (on quit). */
  stop: () => Promise<void>;
}

/**
 * Desktop: asks where to save (`export: null` when the user closes the dialog) and starts
 * writing. Browser host: registers the export and answers the path the renderer downloads it
 * from. Progress comes as `export:progress`.
 */
export function exportFeature(ctx: ExportContext): ExportFeature {
  const now = ctx.now ?? Date.now;
  const jobs = new ExportJobs({ emit: (p) => ctx.emit('export:progress', p), now });

  return {
    async 'export:start'(request: ExportRequest): Promise<ExportStarted> {
      const destination = ctx.destination;
      if (!destination) {
        throw new Refusal('not-ready', 'This Betdesk has nowhere to save an export.');
      }
      if (jobs.active >= MAX_ACTIVE_EXPORTS) {
        throw new Refusal(
          'conflict',
          `${MAX_ACTIVE_EXPORTS} exports are under way; wait for one to finish or cancel one.`,
        );
      }
      const { accountId } = await ctx.started();
      const defaultName = exportFileName(request.kind, new Date(now()));

      if (destination.kind === 'download') {
        if (!destination.downloads.attached) {
          throw new Refusal('not-ready', 'The browser host is not serving downloads.');
        }
        const spec = jobSpec(ctx.store, accountId, request, defaultName);
        const started = jobs.toDownload(spec, destination.downloads);
        return { export: { ...started, total: spec.total, fileName: spec.fileName } };
      }

      const file = await destination.chooseFile(defaultName);
      if (file === null) return { export: null };
      const spec = jobSpec(ctx.store, accountId, request, basename(file));
      const started = jobs.toFile(spec, file);
      return { export: { ...started, total: spec.total, fileName: spec.fileName } };
    },

    // Stops it and removes what it wrote; false when it had already ended.
    async 'export:cancel'({ exportId }) {
      return { canceled: await jobs.cancel(exportId) };
    },

    stop: () => jobs.stop(),
  };
}

/** The export of one request for the account: its row count now, and how to write it. */
function jobSpec(
  store: Store,
  accountId: number,
  request: ExportRequest,
  fileName: string,
): ExportJobSpec {
  const csv = { bom: request.options.bom, formulaGuard: request.options.formulaGuard };
  if (request.kind === 'settlements') {
    const filter = settlementFilter(request.filter);
    return {
      kind: 'settlements',
      total: store.settlements.count(accountId, filter),
      fileName,
      write: (target, run) =>
        exportSettlementsCsv(store, target, { accountId, ...filter }, { ...csv, ...run }),
    };
  }
  if (request.kind === 'guards') {
    const scope = request.filter;
    return {
      kind: 'guards',
      total: store.guards.logCount(accountId, scope),
      fileName,
      write: (target, run) =>
        exportGuardLogCsv(store, target, { accountId, ...scope }, { ...csv, ...run }),
    };
  }
  // A status group with no exchange status (not placed) matches no order: the header alone.
  const filter: OrderFilter = orderFilter(request.filter) ?? { status: [] };
  return {
    kind: 'orders',
    total: store.orders.list(accountId, { ...filter, limit: 1 }).total,
    fileName,
    write: (target, run) =>
      exportOrdersCsv(store, target, { accountId, ...filter }, { ...csv, ...run }),
  };
}
