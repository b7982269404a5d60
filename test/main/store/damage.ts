/**
 * Real stores with local and exchange data, and the ways a file gets damaged: pages overwritten,
 * garbage, a truncated file.
 */
import fs from 'node:fs';
import crypto from 'node:crypto';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { order, settlement } from './support.js';

export const PAGE = 4096;

/**
 * Opens `file` and fills it: two accounts (one paper), settings, an open and a done intent,
 * alerts (one read), orders, settlements, a cursor. Closed after: the WAL is in the file.
 */
export function seedStore(file: string, settlements = 500): { live: number; paper: number } {
  let t = 1_700_000_000_000;
  const store = openStore(file, { now: () => t++ });
  try {
    return fill(store, settlements);
  } finally {
    store.close();
  }
}

function fill(store: Store, settlements: number): { live: number; paper: number } {
  const live = store.accounts.create({
    label: 'main',
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'key-live',
    permission: 'trade',
  }).id;
  const paper = store.accounts.create({
    label: 'Paper (sandbox)',
    baseUrl: 'http://127.0.0.1:10',
    apiKey: 'key-paper',
    permission: 'trade',
    wallet: '0x' + '2'.repeat(40),
    isPaper: true,
  }).id;
  store.settings.set('activeAccount', String(live));
  store.settings.set('desk', JSON.stringify({ oneClickBetting: true }));
  store.intents.create({ clientOrderId: 'bd-open', accountId: live, params: { qty: '5' } });
  store.intents.markSent('bd-open', '0xfeed');
  store.intents.create({ clientOrderId: 'bd-0', accountId: live, params: { qty: '1' } });
  store.applyOrderUpdates(live, [order(0, { status: 'FILLED' }), order(1)], 42);
  for (const [i, kind] of (['near', 'filled'] as const).entries()) {
    store.alerts.insertOnce({
      accountId: live,
      kind,
      contractId: `EPL-${i}`,
      outcome: 'ARS',
      message: `alert ${i}`,
      createdAt: 1_700_000_000_000 + i,
    });
  }
  store.alerts.markRead(live, 1_700_000_000_500);
  store.applySettlements(
    live,
    Array.from({ length: settlements }, (_, i) => settlement(i)),
    99,
  );
  return { live, paper };
}

/** Overwrites `count` pages from page `first` (1-based) with random bytes. */
export function overwritePages(file: string, first: number, count: number): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, crypto.randomBytes(PAGE * count), 0, PAGE * count, PAGE * (first - 1));
  } finally {
    fs.closeSync(fd);
  }
}

export function writeGarbage(file: string): void {
  fs.writeFileSync(file, crypto.randomBytes(64 * 1024));
}

/** Cuts the file to `fraction` of its length. */
export function truncate(file: string, fraction: number): void {
  fs.truncateSync(file, Math.floor(fs.statSync(file).size * fraction));
}

/** Each table's row count. */
export function counts(store: Store): Record<string, number> {
  const tables = [
    'accounts',
    'settings',
    'order_intents',
    'alerts',
    'orders',
    'settlements',
    'sync_cursors',
  ];
  return Object.fromEntries(
    tables.map((t) => [t, store.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]),
  );
}
