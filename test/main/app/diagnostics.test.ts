/**
 * The support service: the diagnostics text (versions, OS, folders, settings, accounts, sync
 * state and cursors, the store, the last errors; never a secret) and opening the logs folder,
 * whose answer always carries the path.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { supportFeature, type SupportContext } from '../../../src/main/support/feature.js';
import { openAppLog, type AppLog } from '../../../src/main/log/index.js';
import type { AccountSession } from '../../../src/main/root/session.js';
import type { Account, AppInfo, AppStatus } from '../../../src/shared/ipc/contract.js';
import { tempDir, tempStore, type TempStore } from '../../harness/temp.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const secret = randomBytes(32).toString('hex');

const INFO: AppInfo = {
  mode: 'live',
  activeAccountId: '1',
  accountLabel: 'Main desk',
  canTrade: true,
  host: 'browser',
  versions: { app: '1.2.3', node: '20.20.2', electron: null, chrome: null },
};
const ACCOUNT: Account = {
  id: '1',
  label: 'Main desk',
  baseUrl: 'https://exchange.example',
  apiKeyHint: 'ab12',
  permission: 'trade',
  active: true,
  createdAt: 0,
  sameWalletAs: [],
};
const STATUS: AppStatus = {
  mode: 'live',
  online: true,
  sync: {
    state: 'error',
    lastSyncAt: 1_795_000_000_000,
    message: 'Positions could not be synced.',
  },
  clockOffsetMs: 12,
  rateBudget: [{ group: 'orders', tokens: 8.5, capacity: 9, queued: 1, blockedUntil: null }],
};

function setup(
  over: Partial<SupportContext> = {},
  log?: AppLog,
): {
  t: TempStore;
  context: SupportContext;
} {
  const t = tempStore({ account: { label: 'Main desk', baseUrl: ACCOUNT.baseUrl, apiKey: 'k' } });
  cleanups.push(t.cleanup);
  t.store.cursors.set(t.accountId, 'orders', 1_795_000_000_123, 1_795_000_000_000);
  const context: SupportContext = {
    options: {
      dataDir: t.dir,
      host: 'browser',
      versions: INFO.versions,
      ...(log ? { log } : {}),
    },
    store: t.store,
    session: () => ({ accountId: t.accountId }) as AccountSession,
    handlers: {
      'app:info': () => Promise.resolve(INFO),
      'accounts:list': () => Promise.resolve({ accounts: [ACCOUNT] }),
      // A setting that should never be one: scrubbed all the same.
      'settings:get': () => Promise.resolve({ oneClickBetting: true, apiSecret: secret }),
      'alerts:settings': () => Promise.reject(new Error('The alert settings are not loaded.')),
      'status:get': () => Promise.resolve(STATUS),
    } as unknown as SupportContext['handlers'],
    ...over,
  };
  return { t, context };
}

async function openLog(): Promise<AppLog> {
  const tmp = tempDir('betdesk-support-');
  const log = await openAppLog({ dir: join(tmp.dir, 'logs') });
  cleanups.push(tmp.cleanup, () => log.close());
  return log;
}

/** The latest schema a new store reaches, counted apart from the store's code: one file each. */
const MIGRATIONS = readdirSync(
  new URL('../../../src/main/store/migrations/', import.meta.url),
).filter((f) => /^\d{3}_\w+\.ts$/.test(f)).length;

it('diagnostics hold versions, OS, folders, settings, accounts, sync and the store', async () => {
  const log = await openLog();
  const { t, context } = setup({}, log);
  const d = await supportFeature(context)['support:diagnostics']({});
  const text = d.text;
  for (const expected of [
    'Betdesk 1.2.3 (browser host)',
    'Node 20.20.2; Electron none; Chrome none',
    `OS: ${process.platform}`,
    `Data folder: ${t.dir}`,
    `Logs folder: ${log.dir}`,
    'Live: Main desk',
    'oneClickBetting: true',
    'unavailable: The alert settings are not loaded.',
    '- Main desk: https://exchange.example, key …ab12, trade key (active)',
    'State: error; online; mode live',
    'Message: Positions could not be synced.',
    'Exchange clock offset: 12 ms',
    'Rate budget: orders 8/9 (1 queued)',
    `Streams of account ${t.accountId} (store):`,
    '  orders: cursor 1795000000123, stored 2026-11-18T11:06:40.000Z',
    `Schema version ${MIGRATIONS} (this Betdesk's: ${MIGRATIONS})`,
    'none in this run',
  ]) {
    expect(text).toContain(expected);
  }
  expect(text).not.toContain(secret);
  expect(d.bytes).toBe(Buffer.byteLength(text));
  expect(d.errors).toBe(0);
});

it('diagnostics list the last warnings and errors, redacted', async () => {
  const log = await openLog();
  log.warn('a sync pass failed', {
    stream: 'orders',
    error: 'The exchange had an internal error.',
  });
  log.error(`signing failed with ${secret}`);
  const { context } = setup({}, log);
  const d = await supportFeature(context)['support:diagnostics']({});
  expect(d.errors).toBe(2);
  expect(d.text).toMatch(
    /## Last warnings and errors \(2\)\n\S+Z WARN a sync pass failed \{"stream":"orders",/,
  );
  expect(d.text).toContain('ERROR signing failed with [redacted]');
  expect(d.text).not.toContain(secret);
});

it('a part that does not answer in time is reported, not waited for', async () => {
  const { context } = setup({
    partTimeoutMs: 50,
    handlers: {
      ...setup().context.handlers,
      'status:get': () => new Promise<AppStatus>(() => {}),
    },
  });
  const d = await supportFeature(context)['support:diagnostics']({});
  expect(d.text).toContain('## Sync\nunavailable: no answer within 50 ms');
  expect(d.text).toContain('Logs folder: none (warnings go to the terminal)');
});

it('opening the logs folder answers the path, and why it failed in words', async () => {
  const log = await openLog();
  const asked: string[] = [];
  const failing = setup({}, log).context;
  failing.options.openFolder = (path) => {
    asked.push(path);
    return Promise.resolve('xdg-open is not installed');
  };
  expect(await supportFeature(failing)['logs:open']({})).toEqual({
    path: log.dir,
    opened: false,
    error: 'xdg-open is not installed.',
  });
  expect(asked).toEqual([log.dir]);
  await expect
    .poll(() => log.recentErrors().map((r) => r.msg))
    .toContain('the logs folder could not be opened');

  const throwing = setup({}, log).context;
  throwing.options.openFolder = () => Promise.reject(new Error('no desktop session'));
  expect(await supportFeature(throwing)['logs:open']({})).toMatchObject({
    path: log.dir,
    opened: false,
    error: 'no desktop session.',
  });

  const opening = setup({}, log).context;
  opening.options.openFolder = () => Promise.resolve('');
  expect(await supportFeature(opening)['logs:open']({})).toEqual({
    path: log.dir,
    opened: true,
    error: null,
  });
  expect(await supportFeature(opening)['support:folders']({})).toEqual({
    logs: log.dir,
    data: opening.options.dataDir,
  });
});

it('without a log file there is no folder to open, and it says so', async () => {
  const { context } = setup();
  expect(await supportFeature(context)['logs:open']({})).toEqual({
    path: null,
    opened: false,
    error: 'This Betdesk keeps no log file; its warnings go to the terminal.',
  });
});
