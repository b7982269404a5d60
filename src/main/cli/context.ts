/**
 * What a command runs with: the store file, the account and its connection (an exchange client
 * behind the process's rate governor, and the trading service), whose open intents are
 * reconciled before the command does anything else. The store, the account registry and the
 * connection are opened by the same compositions as the app's (src/main/root, src/main/data).
 */
import os from 'node:os';
import {
  credentialsFromEnv,
  normalizeBaseUrl,
  type AccountRegistry,
  type AccountView,
} from '../accounts/index.js';
import { openAccountRegistry } from '../accounts/feature.js';
import { AccountConnection, RateGovernors } from '../root/connection.js';
import { defaultDataDir, legacyDataDirs } from '../data/data-dir.js';
import {
  dailyBackups,
  openDataStore,
  openStoreFile,
  type OpenedStore,
} from '../data/store-file.js';
import type { Credentials, CredentialsSource } from '../client/index.js';
import { RealizedBackfill } from '../pnl/backfill.js';
import { SAY_AFTER_MS, sayStart, StartTracker } from '../start/index.js';
import { ioCodeOf, writeFaultOf, type BackupSchedule, type Store } from '../store/index.js';
import type { ReconcileReport } from '../trading/index.js';
import { str, type Parsed } from './args.js';
import type { CliIO, Output } from './output.js';
import { UsageError } from './usage.js';

/** Where the exchange is when nothing says otherwise: the sandbox's default address. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** The app's data folder (data-dir.ts): BETDESK_DATA_DIR, else the OS's folder for app data. */
export function dataDir(env: CliIO['env']): string {
  return defaultDataDir(process.platform, env, os.homedir());
}

/**
 * The store and its accounts; BETDESK_KEYCHAIN_SERVICE lets tests use their own keychain.
 * Opened as the app opens it (checked, rebuilt when damaged, moved from an earlier version's
 * folder); what was done is said on standard error, and the app shows it too. Then the daily
 * backup, as the app takes it (backupIfDue).
 */
export async function openAccounts(
  p: Parsed,
  io: CliIO,
  out: Output,
): Promise<{ store: Store; accounts: AccountRegistry; backups: BackupSchedule }> {
  const db = str(p, 'db');
  const dir = dataDir(io.env);
  // A phase of the opening that lasts over a second (an upgrade) is said on stderr (start/say.ts).
  const start = new StartTracker();
  const afterMs = Number(io.env['BETDESK_START_SAY_AFTER_MS'] ?? SAY_AFTER_MS);
  const stopSaying = sayStart(start, {
    prefix: 'betdesk: ',
    write: (line) => out.say(line),
    ...(Number.isFinite(afterMs) ? { afterMs } : {}),
  });
  let opened;
  try {
    opened =
      db !== undefined
        ? await openStoreFile(db, { report: start.report })
        : await openDataStore(dir, {
            legacyDirs: legacyDataDirs(dir, process.platform, io.env, os.homedir()),
            report: start.report,
          });
    start.report({ phase: 'ready', message: 'Ready.' });
  } finally {
    stopSaying();
  }
  const { store, news } = opened;
  for (const notice of news) out.say(notice.message);
  const backups = await backupIfDue(opened, out);
  await workOutPastBets(store, out);
  const accounts = openAccountRegistry(store, io.env['BETDESK_KEYCHAIN_SERVICE'] ?? 'Betdesk');
  return { store, accounts, backups };
}

/**
 * The realized P&L an upgrade left to work out (docs/pnl.md, "The upgrade"), worked out before
 * the command reads the store, as the app does on a worker while it runs: an export of an
 * upgraded store would otherwise call those rows unknown. Said on stderr: how many, and done.
 */
async function workOutPastBets(store: Store, out: Output): Promise<void> {
  if (store.settlementRealized.backfillFrom() === null) return;
  const total = store.settlementRealized.pendingCount();
  out.say(`betdesk: working out the P&L of ${total} past bets…`);
  await new RealizedBackfill(store).start();
  out.say('betdesk: the P&L of past bets is worked out.');
}

/**
 * The CLI user who never opens the app gets its daily backups (docs/data.md): before the command
 * runs, one is taken when the newest is a day old, into the same folder, 7 kept. Before rather
 * than after, so a command that fails or is interrupted still leaves the day's copy, and the copy
 * holds the store as the command found it. A backup that fails is said, never fails the command.
 * The schedule is returned for a long `sync`, which starts its hourly checks as the app does;
 * stop() it before closing the store.
 */
async function backupIfDue(opened: OpenedStore, out: Output): Promise<BackupSchedule> {
  const backups = dailyBackups(opened, {
    onError: (err) => out.say(backupFailure(err)),
  });
  await backups.runIfDue();
  return backups;
}

/** Why the daily backup failed, and that nothing else did. */
function backupFailure(err: unknown): string {
  const lead = 'The daily backup of the store could not be made';
  const kept = 'The store itself is unchanged; the next command tries again';
  switch (writeFaultOf(err)) {
    case 'disk-full':
      return `${lead}: the disk is full. ${kept} once there is room.`;
    case 'io-error':
      return `${lead}: the disk reported an input/output error (${ioCodeOf(err) ?? 'EIO'}). ${kept}.`;
    default:
      return `${lead} (${err instanceof Error ? err.message : String(err)}). ${kept}.`;
  }
}

/** A command's account, opened: its store, its row, and its connection to the exchange. */
export interface CommandContext {
  store: Store;
  /** The daily backups: a long-running command start()s the hourly checks. */
  backups: BackupSchedule;
  account: AccountView;
  connection: AccountConnection;
  close(): Promise<void>;
}

/**
 * Opens the account a command is for: --account LABEL, else the environment's credentials,
 * else BETDESK_ACCOUNT, else the only account. Then reconciles its open intents. A command that
 * talks to the exchange (`exchange`) has its credentials read first, so a missing secret is
 * said at once rather than as a failed order.
 */
export async function openCommandContext(
  p: Parsed,
  io: CliIO,
  out: Output,
  opts: { exchange: boolean },
): Promise<CommandContext> {
  const { store, accounts, backups } = await openAccounts(p, io, out);
  const governors = new RateGovernors();
  let connection: AccountConnection | undefined;
  try {
    const label = str(p, 'account') ?? undefined;
    const fromEnv = label === undefined ? credentialsFromEnv(io.env) : undefined;
    const overrideUrl = str(p, 'base-url');
    let account: AccountView;
    let credentials: CredentialsSource;
    let baseUrl: string;
    if (fromEnv) {
      baseUrl = normalizeBaseUrl(overrideUrl ?? io.env['BETDESK_BASE_URL'] ?? DEFAULT_BASE_URL);
      account = accounts.accountForKey(baseUrl, fromEnv.apiKey);
      credentials = fromEnv satisfies Credentials;
    } else {
      account = chooseAccount(accounts, label ?? io.env['BETDESK_ACCOUNT']);
      baseUrl = overrideUrl !== undefined ? normalizeBaseUrl(overrideUrl) : account.baseUrl;
      const provider = accounts.credentials(account.id);
      if (opts.exchange) await provider();
      credentials = provider;
    }
    connection = new AccountConnection({
      store,
      accountId: account.id,
      baseUrl,
      credentials,
      governor: governors.for(baseUrl),
    });
    // Only when something is open: reading the local history needs no exchange.
    if (store.intents.listOpen(account.id).some((i) => i.state !== 'failed')) {
      sayReconciled(await connection.trading.reconcileOpenIntents(), out);
    }
    const opened = connection;
    return {
      store,
      backups,
      account,
      connection: opened,
      async close() {
        await opened.close();
        governors.close();
        await backups.stop();
        store.close();
      },
    };
  } catch (err) {
    await connection?.close();
    governors.close();
    await backups.stop();
    store.close();
    throw err;
  }
}

function sayReconciled(report: ReconcileReport, out: Output): void {
  if (report.placed.length > 0) {
    out.say(
      `Found ${report.placed.length} order(s) placed before an interruption: ${report.placed.join(', ')}.`,
    );
  }
  if (report.notPlaced.length > 0) {
    out.say(
      `${report.notPlaced.length} order(s) never reached the exchange before an interruption and were not placed: ${report.notPlaced.join(', ')}.`,
    );
  }
  if (report.unknown.length > 0) {
    out.say(
      `Whether ${report.unknown.length} order(s) were placed is still unknown (the exchange did not answer): ${report.unknown.join(', ')}.`,
    );
  }
}

function chooseAccount(accounts: AccountRegistry, label: string | undefined): AccountView {
  if (label !== undefined) {
    const a = accounts.byLabel(label);
    if (!a) {
      const known = accounts.list().map((x) => x.label);
      throw new UsageError(
        `There is no account named "${label}"` +
          (known.length > 0
            ? ` (accounts: ${known.join(', ')}).`
            : '; add one with `accounts add`.'),
      );
    }
    return a;
  }
  const all = accounts.list();
  if (all.length === 1) return all[0]!;
  if (all.length === 0) {
    throw new UsageError(
      'No account to use: add one with `accounts add`, or set BETDESK_API_KEY and BETDESK_API_SECRET.',
    );
  }
  throw new UsageError(
    `There are ${all.length} accounts; choose one with --account LABEL (${all.map((a) => a.label).join(', ')}).`,
  );
}
