/**
 * The trading service's public surface: quotes with their expiry in exchange time, orders that
 * are placed at most once whatever fails, and their outcomes as one typed result.
 *
 *   const trading = new TradingService({ client, store, accountId });
 *   await trading.reconcileOpenIntents();            // first, after every start
 *   const q = await trading.quote({ contractId, outcome, side: 'BUY', qty: '10', unit: 'BASE' });
 *   q.expiresInMs();                                 // by the exchange's clock
 *   const out = await trading.trade({ type: 'FOK', quote: q });   // placed, then followed
 *   out.status; out.error?.code; out.error?.message;
 */
export { TradingService, type OrderParams, type TradingServiceOptions } from './service.js';
export type { ReconcileReport } from './reconcile.js';
export type { WaitOptions } from './follow.js';
export type { IntentParams } from './context.js';
export { LiveQuote } from './live-quote.js';
export {
  validateBet,
  validateClientOrderId,
  parseOrderType,
  type Bet,
  type BetInput,
} from './bet.js';
export {
  BetRefusedError,
  IntentConflictError,
  OrderValidationError,
  QuoteExpiredError,
  type BetRefusalReason,
} from './errors.js';
export {
  NOT_PLACED_CODE,
  betRefusalOf,
  isFinalOutcome,
  type OrderOutcome,
  type OutcomeError,
  type OutcomeStatus,
} from './outcome.js';
export { intentView, type IntentView } from './intent-view.js';
