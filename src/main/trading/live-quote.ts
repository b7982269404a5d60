/**
 * A quote and its life in the exchange's time. `quote.expiresAt` is the exchange's clock; the
 * local clock may be off by any amount, so the time left is measured against the client's
 * estimate of the exchange's clock (`serverNow`), never against Date.now().
 */
import type { Quote } from '../../shared/api/schemas.js';
import type { Bet } from './bet.js';

export class LiveQuote {
  readonly quote: Quote;
  /** The bet the quote was requested for. */
  readonly bet: Bet;
  readonly #serverNow: () => number;

  constructor(quote: Quote, bet: Bet, serverNow: () => number) {
    this.quote = quote;
    this.bet = bet;
    this.#serverNow = serverNow;
  }

  get rfqId(): string {
    return this.quote.rfqId;
  }

  /** When the quote lapses, exchange time (ms since epoch). */
  get expiresAt(): number {
    return this.quote.expiresAt;
  }

  /** Milliseconds the quote stays live, by the exchange's clock; 0 once it has lapsed. */
  expiresInMs(): number {
    return Math.max(0, this.quote.expiresAt - this.#serverNow());
  }

  /** How long ago it lapsed (negative while live). */
  expiredForMs(): number {
    return this.#serverNow() - this.quote.expiresAt;
  }

  expired(): boolean {
    return this.expiredForMs() >= 0;
  }

  /** The quote as the exchange sent it, with the time left; what a UI or the CLI shows. */
  toJSON(): Quote & { expiresInMs: number } {
    return { ...this.quote, expiresInMs: this.expiresInMs() };
  }
}
