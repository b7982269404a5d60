/**
 * The bet slip's quote: asked for the slip's terms, shown until the terms change, and alive 30 s
 * by the exchange's clock (local time plus the offset measured with the quote), so an expired
 * quote is known as such whatever the local clock says. Only the latest request's answer counts.
 */
import type { BetTerms, QuoteResult } from '../../../../shared/ipc/contract.js';
import { QUOTE_TTL_MS } from '../../../../shared/api/limits.js';
import type { Bridge } from '../bridge.js';
import type { Clock } from './clock.svelte.js';
import { Loader } from './loader.svelte.js';

export class SlipQuote {
  // The quote and the terms it prices change together: set by `request`, cleared by `discard`.
  #result = $state.raw<QuoteResult | null>(null);
  /** The terms the quote prices: what a MARKET order places. */
  #terms = $state.raw<BetTerms | null>(null);
  /**
   * The quote's requests: `loading` while one is on its way, `error` in the bridge's words. An
   * answer to an older request, or one that came after a discard, is dropped.
   */
  readonly reads = new Loader();

  /** Milliseconds the quote has left by the exchange's clock; 0 once expired. */
  readonly remainingMs: number = $derived.by(() => {
    if (!this.#result) return 0;
    const serverNow = this.#clock.now + this.#result.clockOffsetMs;
    return Math.max(0, this.#result.quote.expiresAt - serverNow);
  });
  /** The countdown's whole seconds, never more than a quote's life. */
  readonly secondsLeft: number = $derived(
    Math.min(QUOTE_TTL_MS / 1000, Math.ceil(this.remainingMs / 1000)),
  );
  readonly expired: boolean = $derived(this.#result !== null && this.remainingMs <= 0);

  readonly #bridge: Bridge;
  readonly #clock: Clock;

  constructor(bridge: Bridge, clock: Clock) {
    this.#bridge = bridge;
    this.#clock = clock;
  }

  get result(): QuoteResult | null {
    return this.#result;
  }
  get terms(): BetTerms | null {
    return this.#terms;
  }

  /**
   * Asks for a quote of `terms`, in place of the one shown. Resolves true when its answer is
   * the one shown now, false when it failed or a newer request or a discard came meanwhile.
   */
  async request(terms: BetTerms): Promise<boolean> {
    this.discard();
    let answered = false;
    await this.reads.run(
      () => this.#bridge.invoke('quote:request', terms),
      (result) => {
        this.#result = result;
        this.#terms = terms;
        answered = true;
      },
    );
    return answered;
  }

  /** The terms changed: the quote no longer prices them, and an answer on its way is dropped. */
  discard(): void {
    this.reads.cancel();
    this.reads.error = null;
    this.#result = null;
    this.#terms = null;
  }
}
