/**
 * Support on the bridge: the logs folder (shown, and opened in the OS's file manager) and the diagnostics text
 * (diagnostics.ts). Diagnostics are most wanted when something is broken, so each part is read
 * on its own, with a time limit, and one that fails says why instead of failing the whole.
 */
import { stat } from 'node:fs/promises';
import { arch, platform, release } from 'node:os';
import type { LogsFolderOpened } from '../../shared/ipc/contract.js';
import type { Handlers, IpcHandlers } from '../ipc/handler.js';
import { scrubText } from '../log/index.js';
import type { ServicesOptions } from '../root/options.js';
import { STORE_SCHEMA_VERSION, type Store } from '../store/index.js';
import { ALL_STREAMS } from '../sync/stream-state.js';
import { diagnosticsText, type Part, type StreamCursor } from './diagnostics.js';
import { systemFolderOpener } from './open-folder.js';
import type { AccountSession } from '../root/session.js';

export interface SupportContext {
  options: Pick<ServicesOptions, 'dataDir' | 'host' | 'versions' | 'log' | 'openFolder'>;
  store: Store;
  /** The active account's session, for its stream cursors. */
  session: () => AccountSession | undefined;
  /** The calls whose answers diagnostics show. */
  handlers: Pick<
    IpcHandlers,
    'app:info' | 'settings:get' | 'alerts:settings' | 'accounts:list' | 'status:get'
  >;
  /** How long one part may take before it is reported as unavailable. Default 3 s. */
  partTimeoutMs?: number;
}

export type SupportChannel = 'support:folders' | 'support:diagnostics' | 'logs:open';

export function supportFeature(ctx: SupportContext): Handlers<SupportChannel> {
  const { options, store, handlers } = ctx;
  const log = options.log;
  const openFolder = options.openFolder ?? systemFolderOpener();
  const limit = ctx.partTimeoutMs ?? 3000;
  const part = <T>(read: () => Promise<T>) => within(read, limit);

  return {
    'support:folders': () => Promise.resolve({ logs: log?.dir ?? null, data: options.dataDir }),

    // Versions, OS, folders, settings, accounts and sync without secrets, and the last errors.
    'support:diagnostics': async () => {
      const [info, settings, alertSettings, accounts, status] = await Promise.all([
        part(() => handlers['app:info']({})),
        part(() => handlers['settings:get']({})),
        part(() => handlers['alerts:settings']({})),
        part(async () => (await handlers['accounts:list']({})).accounts),
        part(() => handlers['status:get']({})),
      ]);
      const errors = log?.recentErrors() ?? [];
      const text = diagnosticsText({
        at: new Date(),
        versions: options.versions,
        host: options.host,
        os: { platform: platform(), release: release(), arch: arch() },
        folders: { data: options.dataDir, logs: log?.dir ?? null },
        info,
        settings,
        alertSettings,
        accounts,
        status,
        cursors: cursorsOf(store, ctx.session()),
        store: {
          schemaVersion: store.schemaVersion,
          latestVersion: STORE_SCHEMA_VERSION,
          bytes: await storeBytes(store.file),
        },
        errors,
      });
      // Nothing in it should be secret; it is scrubbed as a log line is, all the same.
      const safe = log ? log.redact(text) : scrubText(text);
      return { text: safe, bytes: Buffer.byteLength(safe, 'utf8'), errors: errors.length };
    },

    // Opens the logs folder in the OS's file manager; the answer always carries the path.
    'logs:open': async (): Promise<LogsFolderOpened> => {
      if (!log) {
        return {
          path: null,
          opened: false,
          error: 'This Betdesk keeps no log file; its warnings go to the terminal.',
        };
      }
      let problem: string;
      try {
        problem = await openFolder(log.dir);
      } catch (err) {
        problem = err instanceof Error ? err.message : String(err);
      }
      if (problem === '') return { path: log.dir, opened: true, error: null };
      log.warn('the logs folder could not be opened', { reason: problem });
      return { path: log.dir, opened: false, error: withFullStop(problem) };
    },
  };
}

/** The opener's words as they came (a command's name keeps its case), ending a sentence. */
function withFullStop(text: string): string {
  const t = text.trim() || 'the file manager did not say why';
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** The part's value, or why there is none (an error, or no answer within `ms`). */
async function within<T>(read: () => Promise<T>, ms: number): Promise<Part<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Part<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${ms} ms` }), ms);
  });
  try {
    return await Promise.race([
      read().then(
        (value): Part<T> => ({ ok: true, value }),
        (err: unknown): Part<T> => ({
          ok: false,
          reason: err instanceof Error ? err.message : String(err),
        }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function cursorsOf(
  store: Store,
  session: AccountSession | undefined,
): Part<{ accountId: number; streams: StreamCursor[] }> {
  if (!session) return { ok: false, reason: 'no account session is running' };
  try {
    const streams: StreamCursor[] = [];
    for (const stream of ALL_STREAMS) {
      const c = store.cursors.get(session.accountId, stream);
      if (c) streams.push({ stream, cursor: c.cursor, lastSyncAt: c.lastSyncAt });
    }
    return { ok: true, value: { accountId: session.accountId, streams } };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** The store file with its write-ahead log and shared-memory index; null when unreadable. */
async function storeBytes(file: string): Promise<number | null> {
  const sizes = await Promise.all(
    [file, `${file}-wal`, `${file}-shm`].map((f) =>
      stat(f).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  const total = sizes.reduce((a, b) => a + b, 0);
  return total > 0 ? total : null;
}
