/**
 * Where every knockout alert goes: stored once under its dedup key (keys.ts), then emitted as
 * `alert:knockout` only when that store succeeded, so an alert is never repeated, not even
 * across restarts. Also what wording and deduplicating an alert read back: the fixture's name
 * and the alerts stored before.
 */
import type { Alert, NewAlert } from '../store/index.js';
import type { KnockoutAlertEvent, WatchContext } from './watch-types.js';

/** Position-path knockout alerts older than this are not looked at when a row arrives. */
const ALERT_SCAN_LIMIT = 1000;

/** An alert to store: its kind, position, prices, sentence and dedup key. */
export type AlertToStore = Omit<NewAlert, 'accountId' | 'createdAt' | 'kind'> & {
  kind: KnockoutAlertEvent['kind'];
  dedupKey: string;
};

/** What the emitted event adds to the stored alert. */
export type EventDetails = Omit<
  KnockoutAlertEvent,
  'kind' | 'accountId' | 'contractId' | 'outcome' | 'message' | 'at' | 'alertId'
>;

export class AlertRecorder {
  readonly #ctx: WatchContext;
  readonly #emit: (e: KnockoutAlertEvent) => void;

  constructor(ctx: WatchContext, emit: (e: KnockoutAlertEvent) => void) {
    this.#ctx = ctx;
    this.#emit = emit;
  }

  /**
   * Stores `alert` once and, only when it is new, emits it with `details`. Returns the stored
   * row, or undefined when the key was stored before.
   */
  raise(alert: AlertToStore, details: EventDetails): Alert | undefined {
    const { accountId, store, now } = this.#ctx;
    const stored = store.alerts.insertOnce({ ...alert, accountId, createdAt: now() });
    if (stored === undefined) return undefined;
    this.#emit({
      kind: alert.kind,
      accountId,
      contractId: alert.contractId,
      outcome: alert.outcome,
      ...details,
      message: alert.message,
      at: stored.createdAt,
      alertId: stored.id,
    });
    return stored;
  }

  /** "ARS v CHE", when the store knows the fixture. */
  fixtureName(contractId: string): string | undefined {
    const f = this.#ctx.store.fixtures.get(this.#ctx.accountId, contractId);
    return f === undefined ? undefined : `${f.homeTeam} v ${f.awayTeam}`;
  }

  /** The account's stored alerts of a kind, newest first (the first ALERT_SCAN_LIMIT). */
  stored(kind: Alert['kind']): Alert[] {
    const { accountId, store } = this.#ctx;
    return store.alerts.list(accountId, { kind, limit: ALERT_SCAN_LIMIT }).alerts;
  }
}
