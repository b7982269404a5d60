/**
 * The Practice panel (paper mode only): drives the in-process sandbox so a user can rehearse a
 * near knockout, a knockout, a closed market, a kick-off (a guardian's time exit), a settlement
 * and a rejection. Main refuses every
 * call unless the paper account is active; this class only keeps the choices and the results.
 */
import {
  isIndexPrice,
  nearKnockoutPrice,
  pastKnockoutPrice,
} from '../../../../shared/rules/knockout.js';
import type { PositionRow } from '../../../../shared/ipc/contract.js';
import { cmp } from '../../../../shared/money.js';
import { messageOf, type Bridge } from '../bridge.js';
import type { Clock } from './clock.svelte.js';

export interface PracticeLogEntry {
  id: number;
  ok: boolean;
  message: string;
  at: number;
}

/** A fixture the panel can drive, with the outcome it would pick first. */
export interface PracticeFixture {
  contractId: string;
  homeTeam: string;
  awayTeam: string;
  /** The outcome to start on: the held one, or the slip's. */
  outcome?: string;
  /** The outcome is held (a position), not only picked. */
  held?: boolean;
}

export interface PracticeContext {
  /** The fixtures to offer: the positions' first (the selected one leading), then the markets'. */
  readonly fixtures: readonly PracticeFixture[];
  /** The active account's open positions. */
  readonly positions: readonly PositionRow[];
  /** The index price of `outcome` as the markets show it now, or null when not on screen. */
  indexPrice(contractId: string, outcome: string): string | null;
  /** The account's near-knockout alert levels (fractions), or null before they are read. */
  readonly alertLevels: readonly string[] | null;
}

export const PRACTICE_LOG_SIZE = 6;

export class PracticeState {
  #chosenContractId = $state('');
  #outcome = $state('');
  #price = $state('');
  /** A sandbox call is on its way: the buttons wait for it. */
  busy = $state(false);
  /** What the sandbox said, newest first. */
  log = $state.raw<PracticeLogEntry[]>([]);
  #nextId = 1;

  /** The position the chosen outcome holds: its knockout is what the knockout buttons move to. */
  readonly held = $derived.by((): PositionRow | null => {
    const contractId = this.contractId;
    const outcome = this.outcome;
    const held = this.#ctx.positions.find(
      (p) => p.contractId === contractId && p.outcome === outcome,
    );
    return held ?? null;
  });

  readonly #bridge: Bridge;
  readonly #ctx: PracticeContext;
  readonly #clock: Clock;

  constructor(bridge: Bridge, ctx: PracticeContext, clock: Clock) {
    this.#bridge = bridge;
    this.#ctx = ctx;
    this.#clock = clock;
  }

  /** What the panel offers: the positions' fixtures first (the selected one leading). */
  readonly fixtures: readonly PracticeFixture[] = $derived.by(() => this.#ctx.fixtures);

  /** The fixture chosen, or else the first one offered (the selected position's). */
  readonly fixture: PracticeFixture | null = $derived.by(() => {
    const offered = this.#ctx.fixtures;
    return offered.find((f) => f.contractId === this.#chosenContractId) ?? offered[0] ?? null;
  });

  // The choices are private: the fixture and outcome shown fall back to what is offered, and
  // another fixture drops the last one's outcome and price.

  get contractId(): string {
    return this.fixture?.contractId ?? '';
  }
  /** Another fixture: its own outcome and price, not the last one's. */
  set contractId(value: string) {
    if (value === this.#chosenContractId) return;
    this.#chosenContractId = value;
    this.#outcome = '';
    this.#price = '';
  }

  get outcome(): string {
    const f = this.fixture;
    if (!f) return '';
    if (this.#outcome === f.homeTeam || this.#outcome === f.awayTeam) return this.#outcome;
    return f.outcome ?? f.homeTeam;
  }
  set outcome(value: string) {
    this.#outcome = value;
  }

  get price(): string {
    return this.#price;
  }
  set price(value: string) {
    this.#price = value.trim();
  }

  /** The chosen outcome's index price now, when the markets show it. */
  readonly indexNow: string | null = $derived.by(() => {
    const contractId = this.contractId;
    return contractId ? this.#ctx.indexPrice(contractId, this.outcome) : null;
  });

  readonly priceProblem: string | null = $derived.by(() => {
    if (this.#price === '' || isIndexPrice(this.#price)) return null;
    return 'An index price is between 0 and 1, with up to four decimals, like 0.25.';
  });

  /** Follows a position the user picked: its fixture and outcome. */
  follow(contractId: string, outcome: string): void {
    this.#chosenContractId = contractId;
    this.#outcome = outcome;
    this.#price = '';
  }

  async setPrice(indexPrice = this.#price): Promise<void> {
    const contractId = this.contractId;
    const outcome = this.outcome;
    if (!contractId || !outcome) return;
    if (!isIndexPrice(indexPrice)) {
      this.#logResult(
        false,
        'An index price is between 0 and 1, with up to four decimals, like 0.25.',
      );
      return;
    }
    this.#price = indexPrice;
    await this.#callSandbox(() =>
      this.#bridge.invoke('practice:price', { contractId, outcome, indexPrice }),
    );
  }

  /**
   * The index just above the knockout (the held position's unless told), inside the account's
   * deepest alert level, so a near-knockout alert fires.
   */
  async moveNear(knockout = this.held?.knockout): Promise<void> {
    if (!knockout) return;
    // The smallest level is the deepest; none read yet leaves the default to nearKnockoutPrice.
    const [deepest] = [...(this.#ctx.alertLevels ?? [])].sort(cmp);
    await this.setPrice(nearKnockoutPrice(knockout, deepest));
  }

  /** The index below the knockout, or at it (the held position's unless told): knocked out. */
  async movePast(knockout = this.held?.knockout): Promise<void> {
    if (knockout) await this.setPrice(pastKnockoutPrice(knockout));
  }

  async closeBetting(): Promise<void> {
    const contractId = this.contractId;
    if (!contractId) return;
    await this.#callSandbox(() => this.#bridge.invoke('practice:close', { contractId }));
  }

  /** Moves the fixture's kick-off to `minutes` from now: a guardian's time exit comes due. */
  async kickoffIn(minutes: number): Promise<void> {
    const contractId = this.contractId;
    if (!contractId) return;
    await this.#callSandbox(() => this.#bridge.invoke('practice:kickoff', { contractId, minutes }));
  }

  /** Settles every position on the fixture: `winner` is a team or "DRAW". */
  async resolve(winner: string): Promise<void> {
    const contractId = this.contractId;
    if (!contractId) return;
    await this.#callSandbox(() => this.#bridge.invoke('practice:resolve', { contractId, winner }));
  }

  async rejectNext(): Promise<void> {
    await this.#callSandbox(() => this.#bridge.invoke('practice:reject', {}));
  }

  reset(): void {
    this.#chosenContractId = '';
    this.#outcome = '';
    this.#price = '';
    this.log = [];
  }

  async #callSandbox(call: () => Promise<{ message: string }>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      this.#logResult(true, (await call()).message);
    } catch (err) {
      this.#logResult(false, messageOf(err));
    } finally {
      this.busy = false;
    }
  }

  #logResult(ok: boolean, message: string): void {
    const entry = { id: this.#nextId++, ok, message, at: this.#clock.now };
    this.log = [entry, ...this.log].slice(0, PRACTICE_LOG_SIZE);
  }
}
