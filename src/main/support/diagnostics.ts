/**
 * The diagnostics text a user pastes into a support email: what runs where, its settings,
 * accounts and sync state without a secret, the store, and the last warnings and errors. Plain
 * text, one fact a line, the same on every OS.
 */
import type { Account, AlertSettings, AppInfo, AppStatus } from '../../shared/ipc/contract.js';
import { sizeWords } from '../../shared/bytes.js';
import type { LogRecord } from '../log/index.js';

/** A part that could not be read says why instead. */
export type Part<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface StreamCursor {
  stream: string;
  cursor: number;
  lastSyncAt: number;
}

export interface DiagnosticsFacts {
  at: Date;
  versions: AppInfo['versions'];
  host: AppInfo['host'];
  os: { platform: string; release: string; arch: string };
  folders: { data: string; logs: string | null };
  info: Part<AppInfo>;
  settings: Part<object>;
  alertSettings: Part<AlertSettings>;
  accounts: Part<Account[]>;
  status: Part<AppStatus>;
  /** The active account's streams, from the store. */
  cursors: Part<{ accountId: number; streams: StreamCursor[] }>;
  store: { schemaVersion: number; latestVersion: number; bytes: number | null };
  errors: readonly LogRecord[];
}

export function diagnosticsText(f: DiagnosticsFacts): string {
  const v = f.versions;
  const lines: string[] = [
    'Betdesk diagnostics',
    `Made: ${f.at.toISOString()}`,
    '',
    '## App',
    `Betdesk ${v.app} (${f.host === 'electron' ? 'desktop app' : 'browser host'})`,
    `Node ${v.node}; Electron ${v.electron ?? 'none'}; Chrome ${v.chrome ?? 'none'}`,
    `OS: ${f.os.platform} ${f.os.release} (${f.os.arch})`,
    `Data folder: ${f.folders.data}`,
    `Logs folder: ${f.folders.logs ?? 'none (warnings go to the terminal)'}`,
    '',
    '## Mode',
    partLine(f.info, (i) =>
      i.mode === 'paper'
        ? 'Paper trading (the built-in sandbox exchange)'
        : `Live: ${i.accountLabel}${i.canTrade ? '' : ' (read-only key)'}`,
    ),
    '',
    '## Settings',
    ...partLines(f.settings, keyValues),
    ...partLines(f.alertSettings, (s) => keyValues(s).map((l) => `alerts.${l}`)),
    '',
    '## Accounts',
    ...partLines(f.accounts, accountLines),
    '',
    '## Sync',
    ...partLines(f.status, statusLines),
    ...partLines(f.cursors, ({ accountId, streams }) => [
      `Streams of account ${accountId} (store):`,
      ...(streams.length === 0
        ? ['  none synced yet']
        : streams.map((s) => `  ${s.stream}: cursor ${s.cursor}, stored ${iso(s.lastSyncAt)}`)),
    ]),
    '',
    '## Store',
    `Schema version ${f.store.schemaVersion} (this Betdesk's: ${f.store.latestVersion})`,
    `Size: ${f.store.bytes === null ? 'unknown' : sizeWords(f.store.bytes)} (with its journal)`,
    '',
    `## Last warnings and errors (${f.errors.length})`,
    ...(f.errors.length === 0 ? ['none in this run'] : f.errors.map(recordLine)),
  ];
  return `${lines.join('\n')}\n`;
}

function partLine<T>(part: Part<T>, line: (value: T) => string): string {
  return part.ok ? line(part.value) : `unavailable: ${part.reason}`;
}

function partLines<T>(part: Part<T>, lines: (value: T) => string[]): string[] {
  return part.ok ? lines(part.value) : [`unavailable: ${part.reason}`];
}

/** `name: value` for each setting, nested objects flattened with dots. */
function keyValues(value: object, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out.push(...keyValues(v as object, `${prefix}${key}.`));
    } else {
      out.push(`${prefix}${key}: ${JSON.stringify(v)}`);
    }
  }
  return out;
}

const PERMISSION: Record<Account['permission'], string> = {
  read: 'read-only key',
  trade: 'trade key',
  unknown: 'permission not checked',
};

function accountLines(accounts: Account[]): string[] {
  if (accounts.length === 0) return ['none (paper trading only)'];
  return accounts.map(
    (a) =>
      `- ${a.label}: ${a.baseUrl}, key …${a.apiKeyHint}, ${PERMISSION[a.permission]}` +
      `${a.active ? ' (active)' : ''}`,
  );
}

function statusLines(s: AppStatus): string[] {
  const budget = s.rateBudget
    .map(
      (b) =>
        `${b.group} ${Math.floor(b.tokens)}/${b.capacity}${b.queued ? ` (${b.queued} queued)` : ''}`,
    )
    .join(', ');
  return [
    `State: ${s.sync.state}; ${s.online ? 'online' : 'offline'}; mode ${s.mode}`,
    `Last complete sync: ${s.sync.lastSyncAt === null ? 'never' : iso(s.sync.lastSyncAt)}`,
    `Message: ${s.sync.message ?? 'none'}`,
    `Exchange clock offset: ${s.clockOffsetMs === null ? 'not measured' : `${s.clockOffsetMs} ms`}`,
    `Rate budget: ${budget || 'none'}`,
  ];
}

function recordLine(r: LogRecord): string {
  const fields = r.fields ? ` ${JSON.stringify(r.fields)}` : '';
  return `${r.time} ${r.level.toUpperCase()} ${r.msg}${fields}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
