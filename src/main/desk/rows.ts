/**
 * The bridge's row shapes built from the store: an order or an intent as an OrderRow, a fixture
 * as the FixtureRef a row shows. One builder for the blotter, the slip's answer and the pushes,
 * so a row reads the same wherever it appears.
 */
import type { Order } from '../../shared/api/schemas.js';
import { fixtureRefOf } from '../../shared/rules/fixture.js';
import type { FixtureRef, OrderRow, OrderRowStatus } from '../../shared/ipc/contract.js';
import type { BlotterEntry, OrderIntent, Store } from '../store/index.js';
import type { IntentParams } from '../trading/index.js';
import { NOT_PLACED_CODE, exchangeErrorOf, outcomeOfOrder } from '../trading/outcome.js';

/** "ARS v CHE", or the contractId when the account's store does not know the fixture. */
export function fixtureName(
  store: Pick<Store, 'fixtures'>,
  accountId: number,
  contractId: string,
): string {
  const f = store.fixtures.get(accountId, contractId);
  return f === undefined ? contractId : `${f.homeTeam} v ${f.awayTeam}`;
}

/** Reads the account's fixtures once per contract while a batch of rows is built. */
export function fixtureLookup(
  store: Pick<Store, 'fixtures'>,
  accountId: number,
): (contractId: string) => FixtureRef | null {
  const seen = new Map<string, FixtureRef | null>();
  return (contractId) => {
    let ref = seen.get(contractId);
    if (ref === undefined) {
      const f = store.fixtures.get(accountId, contractId);
      ref = f === undefined ? null : fixtureRefOf(f);
      seen.set(contractId, ref);
    }
    return ref;
  };
}

export function orderRow(
  order: Order,
  fixture: (contractId: string) => FixtureRef | null,
): OrderRow {
  const failed = outcomeOfOrder(order).error;
  return {
    clientOrderId: order.clientOrderId,
    orderId: order.orderId,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    contractId: order.contractId,
    fixture: fixture(order.contractId),
    outcome: order.outcome,
    side: order.side,
    orderType: order.orderType,
    unit: order.marketUnit,
    qty: order.qty,
    contracts: order.contracts,
    entryPrice: order.entryPrice,
    cost: order.cost,
    maxWin: order.side === 'BUY' ? order.maxWin : null,
    proceeds: order.proceeds ?? null,
    boost: order.boost,
    knockout: order.knockout ?? null,
    status: order.status,
    tx: order.tx,
    error: failed
      ? {
          ...(typeof failed.code === 'number' ? { code: failed.code } : {}),
          message: failed.message,
        }
      : null,
  };
}

const NEVER_ARRIVED =
  'Not placed: the exchange has no order for it, so nothing was bought or sold. Place it again if you still want it.';

/**
 * An intent the exchange has not matched to an order. `placing` says whether its request is
 * being sent by this process right now: a pending intent that is not (Betdesk stopped while
 * sending) is being checked, not sent.
 */
export function intentRow(
  intent: OrderIntent,
  placing: boolean,
  fixture: (contractId: string) => FixtureRef | null,
): OrderRow {
  // As the trading service records it; read defensively, the row may predate a field.
  const params = (intent.params ?? {}) as Partial<IntentParams>;
  const bet = params.bet ?? null;
  const status: OrderRowStatus =
    intent.state === 'failed'
      ? 'NOT_PLACED'
      : intent.state === 'pending' && placing
        ? 'SENDING'
        : 'CHECKING';
  return {
    clientOrderId: intent.clientOrderId,
    orderId: intent.orderId,
    createdAt: intent.createdAt,
    updatedAt: intent.updatedAt,
    contractId: bet?.contractId ?? null,
    fixture: bet ? fixture(bet.contractId) : null,
    outcome: bet?.outcome ?? null,
    side: bet?.side ?? null,
    orderType: orderTypeOf(params.request?.orderType),
    unit: bet?.unit ?? null,
    qty: bet?.qty ?? null,
    contracts: null,
    entryPrice: null,
    cost: null,
    maxWin: null,
    proceeds: null,
    boost: bet?.boost ?? 0,
    knockout: null,
    status,
    tx: '',
    error: status === 'NOT_PLACED' ? notPlacedError(intent) : null,
  };
}

function orderTypeOf(t: string | undefined): OrderRow['orderType'] {
  const upper = t?.toUpperCase();
  return upper === 'MARKET' || upper === 'FOK' ? upper : null;
}

function notPlacedError(intent: OrderIntent): { code?: number; message: string } {
  const code = intent.lastErrorCode;
  if (code === null) return { message: NEVER_ARRIVED };
  if (code === NOT_PLACED_CODE) return { code, message: intent.lastErrorMsg || NEVER_ARRIVED };
  return { code, message: exchangeErrorOf(code, intent.lastErrorMsg ?? '').message };
}

export function entryRow(
  entry: BlotterEntry,
  placing: (clientOrderId: string) => boolean,
  fixture: (contractId: string) => FixtureRef | null,
): OrderRow {
  return entry.source === 'order'
    ? orderRow(entry.order, fixture)
    : intentRow(entry.intent, placing(entry.intent.clientOrderId), fixture);
}
