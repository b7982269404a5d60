/**
 * The bet slip: one outcome, a size in contracts or dollars, a boost, and the quote the exchange
 * gave for it. A quote lives 30 seconds by the exchange's clock, so the countdown runs on server
 * time (local time plus the measured offset) and an expired quote cannot be used.
 */
import type { Fixture, QuoteResult } from '../../../../shared/ipc/contract.js';
import { cmp, isDecimalString } from '../../../../shared/money.js';
import { bridge, messageOf } from '../bridge.js';

export type SizeUnit = 'BASE' | 'QUOTE';

export interface Selection {
  fixture: Fixture;
  outcome: string;
}

class BetSlipState {
  selection = $state<Selection | null>(null);
  unit = $state<SizeUnit>('BASE');
  qty = $state('');
  boost = $state(0);
  quote = $state<QuoteResult | null>(null);
  requesting = $state(false);
  error = $state<string | null>(null);
  /** Local clock, ticking while a quote is live. */
  now = $state(Date.now());
  private timer: ReturnType<typeof setInterval> | undefined;

  /** Why the size cannot be quoted as it stands, or null when it can. */
  get sizeProblem(): string | null {
    const qty = this.qty.trim();
    if (qty === '') return null;
    if (!isDecimalString(qty) || cmp(qty, 0) <= 0) {
      return this.unit === 'BASE'
        ? 'Enter a number of contracts greater than zero.'
        : 'Enter an amount in dollars greater than zero, like 25 or 12.50.';
    }
    if (this.unit === 'BASE' && !/^\d+$/.test(qty)) return 'Contracts are whole numbers.';
    return null;
  }

  get canRequest(): boolean {
    return (
      this.selection !== null &&
      this.qty.trim() !== '' &&
      this.sizeProblem === null &&
      !this.requesting
    );
  }

  /** Milliseconds the quote has left by the exchange's clock; 0 once expired. */
  get remainingMs(): number {
    if (!this.quote) return 0;
    const serverNow = this.now + this.quote.clockOffsetMs;
    return Math.max(0, this.quote.quote.expiresAt - serverNow);
  }

  get expired(): boolean {
    return this.quote !== null && this.remainingMs <= 0;
  }

  select(fixture: Fixture, outcome: string): void {
    this.selection = { fixture, outcome };
    this.discardQuote();
    this.error = null;
  }

  clear(): void {
    this.selection = null;
    this.discardQuote();
    this.error = null;
  }

  /** Any change to what is asked makes the quote shown no longer the quote for it. */
  discardQuote(): void {
    this.quote = null;
    this.stopTicking();
  }

  async request(): Promise<void> {
    const selection = this.selection;
    if (!selection || !this.canRequest) return;
    this.requesting = true;
    this.error = null;
    this.discardQuote();
    try {
      this.quote = await bridge.invoke('quote:request', {
        contractId: selection.fixture.contractId,
        outcome: selection.outcome,
        side: 'BUY',
        qty: this.qty.trim(),
        unit: this.unit,
        boost: this.boost,
      });
      this.startTicking();
    } catch (err) {
      this.error = messageOf(err);
    } finally {
      this.requesting = false;
    }
  }

  private startTicking(): void {
    this.stopTicking();
    this.now = Date.now();
    this.timer = setInterval(() => {
      this.now = Date.now();
      if (this.remainingMs <= 0) this.stopTicking();
    }, 250);
  }

  private stopTicking(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

export const slip = new BetSlipState();
