/** Helpers for the export job tests: a filled store, the progress a job reports, CSV in memory. */
import { Writable } from 'node:stream';
import type { AccountSession } from '../../../src/main/root/session.js';
import type { Store } from '../../../src/main/store/index.js';
import type { ExportProgress } from '../../../src/shared/ipc/contract.js';
import { fixture, order, settlement } from '../store/support.js';

export const LEAGUES = ['Premier League', 'La Liga'] as const;

/**
 * `n` settlements on contracts EPL-0..EPL-10 (fixtures alternating between two leagues, one
 * with a team name a spreadsheet would run as a formula), and `orders` orders.
 */
export function fill(store: Store, accountId: number, n: number, orders = 0): void {
  store.fixtures.upsertMany(
    accountId,
    Array.from({ length: 11 }, (_, k) =>
      fixture(`EPL-${k}`, {
        league: LEAGUES[k % 2]!,
        homeTeam: k === 3 ? '=CMD' : 'ARS',
        awayTeam: 'CHE',
      }),
    ),
    1,
  );
  const rows = Array.from({ length: n }, (_, i) => settlement(i));
  for (let i = 0; i < rows.length; i += 5000) {
    store.applySettlements(accountId, rows.slice(i, i + 5000));
  }
  if (orders > 0) {
    const statuses = ['FILLED', 'CANCELED', 'EXPIRED', 'OPEN', 'REJECTED'] as const;
    store.applyOrderUpdates(
      accountId,
      Array.from({ length: orders }, (_, i) =>
        order(i, {
          status: statuses[i % statuses.length]!,
          side: i % 3 === 0 ? 'SELL' : 'BUY',
          ...(i % 3 === 0 ? { proceeds: '12.50' } : {}),
        }),
      ),
      1,
    );
  }
}

/** What the export service needs of the active account's session. */
export function sessionOf(accountId: number): () => Promise<AccountSession> {
  return () => Promise.resolve({ accountId } as AccountSession);
}

/** Collects `export:progress` events and waits for the ones a test is about. */
export class ProgressLog {
  readonly events: ExportProgress[] = [];
  readonly #waiters: {
    test: (p: ExportProgress) => boolean;
    resolve: (p: ExportProgress) => void;
  }[] = [];
  /** Run on every event, before waiters: where a test acts mid-export. */
  onEvent: (p: ExportProgress) => void = () => {};

  readonly emit = (p: ExportProgress): void => {
    this.events.push(p);
    this.onEvent(p);
    for (const w of [...this.#waiters]) {
      if (w.test(p)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  };

  /** The first event (already seen or still to come) that passes `test`. */
  next(test: (p: ExportProgress) => boolean): Promise<ExportProgress> {
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  /** The export's final event: done, canceled or failed. */
  final(exportId: string): Promise<ExportProgress> {
    return this.next(
      (p) => p.exportId === exportId && p.state !== 'waiting' && p.state !== 'running',
    );
  }

  of(exportId: string): ExportProgress[] {
    return this.events.filter((p) => p.exportId === exportId);
  }
}

/** A stream that keeps what is written, as bytes. */
export function sink(): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

/** The first guardian log row's time: 2024-03-01 12:00 UTC; each next row an hour later. */
export const GUARD_LOG_START = Date.UTC(2024, 2, 1, 12);
const HOUR = 3_600_000;

/**
 * A guardian log of `n` rows on rules armed on EPL-0..EPL-4 (EPL-3's fixture has the team a
 * spreadsheet would run as a formula, as fill() names it): every event, holds, observations with
 * losses, a refused close with its error code, and a message with a comma, quotes and a
 * formula's first character.
 */
export function fillGuardLog(store: Store, accountId: number, n: number): void {
  const kinds = ['knockout', 'stop_loss', 'take_profit', 'trailing_stop', 'time_exit'] as const;
  const rules = kinds.map((kind, k) =>
    store.guards.arm(
      accountId,
      `EPL-${k}`,
      k % 2 ? 'ARS' : 'CHE',
      kind === 'time_exit'
        ? { kind, minutes: 30, sharePercent: 100, confirmations: 1 }
        : { kind, percent: '5', sharePercent: 50, confirmations: 2 },
      GUARD_LOG_START - HOUR,
    ),
  );
  const events = ['armed', 'held', 'fired', 'sent', 'filled', 'failed', 'disarmed'] as const;
  store.transaction(() => {
    for (let i = 0; i < n; i++) {
      const rule = rules[i % rules.length]!;
      const event = events[i % events.length]!;
      const at = GUARD_LOG_START + i * HOUR;
      const observed = event === 'held' || event === 'fired' || event === 'failed';
      store.guards.log({
        accountId,
        ruleId: rule.id,
        at,
        kind: rule.spec.kind,
        contractId: rule.contractId,
        outcome: rule.outcome,
        event,
        hold: event === 'held' ? 'stale' : null,
        message:
          event === 'failed'
            ? '-2029: nothing to sell, "already closed", not retried.'
            : `Rule ${rule.id} ${event}.`,
        observation: observed
          ? {
              at: at - 1500,
              closingPrice: '0.4210',
              indexPrice: '0.3875',
              pnl: i % 2 ? '-1.50' : '2.25',
              pnlPercent: i % 2 ? '-12.5' : '18.75',
              contracts: 40,
            }
          : null,
        contracts: event === 'armed' || event === 'disarmed' ? null : 20,
        clientOrderId: event === 'sent' || event === 'filled' ? `bdg-${rule.id}-abc123` : null,
        orderId: event === 'filled' ? `0x${rule.id.toString(16).padStart(8, '0')}` : null,
        errorCode: event === 'failed' ? -2029 : null,
      });
    }
  });
}
