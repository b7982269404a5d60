/**
 * The Practice panel (paper mode only): drives the in-process sandbox so a user can rehearse a
 * near knockout, a knockout, a closed market, a settlement and a rejection. Main refuses every
 * call unless the paper account is active; this class only keeps the choices and the results.
 */
import {
  isIndexPrice,
  nearKnockoutPrice,
  pastKnockoutPrice,
} from '../../../../shared/desk/knockout.js';
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
}

export const PRACTICE_LOG_SIZE = 6;

export class PracticeState {
  #chosen = $state('');
  #outcome = $state('');
  #price = $state('');
  #busy = $state(false);
  #log = $state.raw<PracticeLogEntry[]>([]);
  #nextId = 1;
  readonly #bridge: Bridge;
  readonly #ctx: PracticeContext;
  readonly #clock: Clock;

  constructor(bridge: Bridge, ctx: PracticeContext, clock: Clock) {
    this.#bridge = bridge;
    this.#ctx = ctx;
    this.#clock = clock;
  }

  get fixtures(): readonly PracticeFixture[] {
    return this.#ctx.fixtures;
  }

  /** The fixture chosen, or else the first one offered (the selected position's). */
  get fixture(): PracticeFixture | null {
    const offered = this.#ctx.fixtures;
    return offered.find((f) => f.contractId === this.#chosen) ?? offered[0] ?? null;
  }

  get contractId(): string {
    return this.fixture?.contractId ?? '';
  }
  /** Another fixture: its own outcome and price, not the last one's. */
  set contractId(value: string) {
    if (value === this.#chosen) return;
    this.#chosen = value;
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

  get priceProblem(): string | null {
    if (this.#price === '' || isIndexPrice(this.#price)) return null;
    return 'An index price is between 0 and 1, with up to four decimals, like 0.25.';
  }

  get busy(): boolean {
    return this.#busy;
  }
  /** Newest first. */
  get log(): PracticeLogEntry[] {
    return this.#log;
  }

  /** Follows a position the user picked: its fixture and outcome. */
  follow(contractId: string, outcome: string): void {
    this.#chosen = contractId;
    this.#outcome = outcome;
    this.#price = '';
  }

  async setPrice(indexPrice = this.#price): Promise<void> {
    const contractId = this.contractId;
    const outcome = this.outcome;
    if (!contractId || !outcome) return;
    if (!isIndexPrice(indexPrice)) {
      this.#note(false, 'An index price is between 0 and 1, with up to four decimals, like 0.25.');
      return;
    }
    this.#price = indexPrice;
    await this.#run(() =>
      this.#bridge.invoke('practice:price', { contractId, outcome, indexPrice }),
    );
  }

  /** Just above the knockout: a near-knockout alert. */
  async moveNear(knockout: string): Promise<void> {
    await this.setPrice(nearKnockoutPrice(knockout));
  }

  /** Just below the knockout: knocked out. */
  async movePast(knockout: string): Promise<void> {
    await this.setPrice(pastKnockoutPrice(knockout));
  }

  async closeBetting(): Promise<void> {
    const contractId = this.contractId;
    if (!contractId) return;
    await this.#run(() => this.#bridge.invoke('practice:close', { contractId }));
  }

  /** Settles every position on the fixture: `winner` is a team or "DRAW". */
  async resolve(winner: string): Promise<void> {
    const contractId = this.contractId;
    if (!contractId) return;
    await this.#run(() => this.#bridge.invoke('practice:resolve', { contractId, winner }));
  }

  async rejectNext(): Promise<void> {
    await this.#run(() => this.#bridge.invoke('practice:reject', {}));
  }

  reset(): void {
    this.#chosen = '';
    this.#outcome = '';
    this.#price = '';
    this.#log = [];
  }

  async #run(call: () => Promise<{ message: string }>): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      this.#note(true, (await call()).message);
    } catch (err) {
      this.#note(false, messageOf(err));
    } finally {
      this.#busy = false;
    }
  }

  #note(ok: boolean, message: string): void {
    const entry = { id: this.#nextId++, ok, message, at: this.#clock.now };
    this.#log = [entry, ...this.#log].slice(0, PRACTICE_LOG_SIZE);
  }
}
