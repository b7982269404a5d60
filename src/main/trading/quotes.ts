/**
 * The quotes this service made, by rfqId, so an order naming one can check its expiry (by the
 * exchange's clock) before anything is sent; and how an order's `quote` / `rfqId` is read.
 */
import type { Quote } from '../../shared/api/schemas.js';
import type { ExchangeClient } from '../client/index.js';
import { OrderValidationError, QuoteExpiredError } from './errors.js';
import { LiveQuote } from './live-quote.js';

/** The quote an order executes: its id, and what is known of it here. */
export interface QuoteRef {
  rfqId: string;
  /** Made by this service (its bet and expiry known). */
  live?: LiveQuote;
  /** Passed in by the caller (its expiry known). */
  quote?: Quote;
}

/** Quotes kept while they lapsed less than this long ago (and at most MAX_KEPT of them). */
const KEEP_LAPSED_MS = 60_000;
const MAX_KEPT = 1000;

export class QuoteBook {
  readonly #client: ExchangeClient;
  readonly #quotes = new Map<string, LiveQuote>();

  constructor(client: ExchangeClient) {
    this.#client = client;
  }

  /** A live or recently lapsed quote made here. */
  get(rfqId: string): LiveQuote | undefined {
    return this.#quotes.get(rfqId);
  }

  /** Keeps a new quote, forgetting the oldest ones long lapsed. */
  remember(live: LiveQuote): void {
    for (const [id, q] of this.#quotes) {
      if (q.expiredForMs() < KEEP_LAPSED_MS && this.#quotes.size < MAX_KEPT) break;
      this.#quotes.delete(id);
    }
    this.#quotes.set(live.rfqId, live);
  }

  /** The quote an order names (`quote`, `rfqId`, or both agreeing), or undefined for none. */
  refOf(params: { quote?: LiveQuote | Quote; rfqId?: string }): QuoteRef | undefined {
    if (params.quote !== undefined && params.rfqId !== undefined) {
      if (params.quote.rfqId !== params.rfqId) {
        throw new OrderValidationError(
          'rfqId',
          'The rfqId given is not the id of the quote given.',
        );
      }
    }
    if (params.quote instanceof LiveQuote) return { rfqId: params.quote.rfqId, live: params.quote };
    if (params.quote !== undefined) {
      const live = this.#quotes.get(params.quote.rfqId);
      return live
        ? { rfqId: live.rfqId, live }
        : { rfqId: params.quote.rfqId, quote: params.quote };
    }
    if (params.rfqId !== undefined) {
      if (typeof params.rfqId !== 'string' || !RFQ_ID.test(params.rfqId)) {
        throw new OrderValidationError('rfqId', 'The rfqId is not the id of a quote.');
      }
      const live = this.#quotes.get(params.rfqId);
      return live ? { rfqId: live.rfqId, live } : { rfqId: params.rfqId };
    }
    return undefined;
  }

  /** FOK (and MARKET) executing a quote: refused here once the quote has lapsed. */
  refuseIfLapsed(ref: QuoteRef): void {
    const expiresAt = ref.live?.expiresAt ?? ref.quote?.expiresAt;
    if (expiresAt === undefined) return;
    const lapsedFor = this.#client.serverNow() - expiresAt;
    if (lapsedFor >= 0) throw new QuoteExpiredError(ref.rfqId, lapsedFor);
  }
}

const RFQ_ID = /^[A-Za-z0-9_:.-]{1,128}$/;
