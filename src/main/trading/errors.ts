/**
 * What the trading service refuses before anything reaches the exchange. Each is a mistake of
 * the caller (or a quote that ran out), said in words a person understands; none carries a
 * secret. Once an intent is recorded, outcomes are returned as OrderOutcome, not thrown.
 */
import { ErrorCodes } from '../../shared/api/errors.js';

export { IntentConflictError } from '../store/index.js';

/** The order or quote request is not valid; `field` names the part at fault. */
export class OrderValidationError extends Error {
  override readonly name = 'OrderValidationError';
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/**
 * The quote a FOK order would execute has lapsed by the exchange's clock, so the order was not
 * sent. Carries the exchange's own code for the same refusal (-2031).
 */
export class QuoteExpiredError extends Error {
  override readonly name = 'QuoteExpiredError';
  readonly code = ErrorCodes.QUOTE_EXPIRED;
  readonly rfqId: string;

  constructor(rfqId: string, expiredMsAgo: number) {
    super(
      `The quote ${rfqId} expired ${Math.max(0, Math.round(expiredMsAgo / 1000))} s ago ` +
        '(quotes live 30 s by the exchange clock), so the order was not sent; request a new quote.',
    );
    this.rfqId = rfqId;
  }
}

/** The rule of a bet the exchange refused it by, where it can be told (outcome.ts). */
export type BetRefusalReason =
  'below-minimum' | 'no-contracts' | 'over-capacity' | 'knockout-at-index';

/**
 * The exchange refused a quote for a rule of the bet (the smallest bet, its capacity, lots, a
 * boost too high), said as a sentence (outcome.ts betRefusalOf). Carries the exchange's code.
 */
export class BetRefusedError extends Error {
  override readonly name = 'BetRefusedError';
  readonly code: number;
  readonly reason: BetRefusalReason;

  constructor(code: number, reason: BetRefusalReason, message: string) {
    super(message);
    this.code = code;
    this.reason = reason;
  }
}
