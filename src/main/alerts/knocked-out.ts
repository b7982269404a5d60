/**
 * "Knocked out" alerts, whichever way the knockout was found. A new KNOCKED_OUT settlement row
 * reports the contracts that no position-path alert (loss-judge.ts) reported since the
 * position's previous settlement row; a loss found from positions reports what it lost. Keeps
 * each position's last knockout price, so a message can name it after the position is gone.
 */
import type { Settlement } from '../../shared/api/schemas.js';
import { price as priceOf } from '../../shared/money.js';
import type { StoredPosition } from '../store/index.js';
import {
  knockedOutKey,
  knockedOutPrefix,
  parsePositionKnockout,
  positionKey,
  type KnockedOutKind,
} from './keys.js';
import { knockedOutMessage } from './messages.js';
import type { AlertRecorder } from './recorder.js';
import type { WatchContext } from './watch-types.js';

/** One knockout to report: the position, how it was found, when, and the contracts lost. */
export interface Knockout {
  contractId: string;
  outcome: string;
  kind: KnockedOutKind;
  at: number;
  contracts: number;
  /** The index price that knocked it out, when a settlement row says. */
  price?: string;
}

export class KnockedOutAlerts {
  readonly #ctx: WatchContext;
  readonly #alerts: AlertRecorder;
  /** Per position: the last knockout price seen, for messages about it after it is gone. */
  readonly #lastKnockout = new Map<string, string>();

  constructor(ctx: WatchContext, alerts: AlertRecorder) {
    this.#ctx = ctx;
    this.#alerts = alerts;
  }

  /** Keeps a position's knockout price for later messages. */
  remember(p: StoredPosition): void {
    if (p.knockout !== undefined) this.#lastKnockout.set(positionKey(p), p.knockout);
  }

  /** A new KNOCKED_OUT row: alert for the contracts no position-path alert reported yet. */
  fromRow(row: Settlement): void {
    const { store, accountId } = this.#ctx;
    const at = timestampMs(row.timestamp);
    const before = store.settlements.query(accountId, {
      contractId: row.contractId,
      team: row.outcome,
      to: at,
      limit: 1,
    }).settlements[0];
    const since = before === undefined ? -1 : timestampMs(before.timestamp);
    const prefix = knockedOutPrefix(row.contractId, row.outcome);
    let reported = 0;
    for (const a of this.#alerts.stored('knocked_out')) {
      const k = parsePositionKnockout(a.dedupKey, prefix);
      if (k !== null && k.at > since && k.at <= at) reported += k.contracts;
    }
    if (reported >= row.contracts) return;
    this.raise({
      contractId: row.contractId,
      outcome: row.outcome,
      kind: 's',
      at,
      contracts: row.contracts - reported,
      ...(row.price !== undefined ? { price: row.price } : {}),
    });
  }

  /** Stores and emits one knockout (once per dedup key), and logs it when it is new. */
  raise(k: Knockout): void {
    const knockout = this.#lastKnockout.get(positionKey(k));
    const fixture = this.#alerts.fixtureName(k.contractId);
    const message = knockedOutMessage({
      outcome: k.outcome,
      fixture,
      contracts: k.contracts,
      ...(k.price !== undefined ? { price: priceOf(k.price) } : {}),
      ...(knockout !== undefined ? { knockout } : {}),
    });
    const stored = this.#alerts.raise(
      {
        kind: 'knocked_out',
        contractId: k.contractId,
        outcome: k.outcome,
        level: k.price ?? null,
        threshold: knockout ?? null,
        message,
        dedupKey: knockedOutKey(k.contractId, k.outcome, k.kind, k.at, k.contracts),
      },
      {
        ...(knockout !== undefined ? { knockout } : {}),
        contracts: k.contracts,
        ...(fixture !== undefined ? { fixture } : {}),
      },
    );
    if (stored === undefined) return;
    this.#ctx.logger.info('a boosted position was knocked out', {
      contractId: k.contractId,
      outcome: k.outcome,
      contracts: k.contracts,
      seenBy: k.kind === 's' ? 'settlement' : 'positions',
    });
  }
}

/** ISO 8601 (UTC when no zone is given: docs/api.md 2.7 gives times in UTC) to ms. */
function timestampMs(iso: string): number {
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(iso) || !iso.includes('T');
  return Date.parse(zoned ? iso : `${iso}Z`);
}
