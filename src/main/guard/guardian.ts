/**
 * The guardian of one account: on every fresh positions and prices update it judges the
 * account's armed rules and, when one fires, claims its close in the store (the write-ahead),
 * then sends a MARKET SELL of its share through the trading service (its own clientOrderId,
 * the order intent), follows it to its end, and says what it did: the guardian log, a `guard`
 * alert, `guards:changed`. Runs wherever a sync engine runs for the account: the app's session
 * (window open or not, the browser host) and `cli sync`. See docs/guardians.md.
 *
 * CONTRACT (issue 19): the options and methods are fixed; the bodies are the guardian
 * engineer's.
 */
import type { GuardsView } from '../../shared/ipc/contract.js';
import type { Logger } from '../../shared/log.js';
import type { BucketSnapshot } from '../governor/index.js';
import type { Store } from '../store/index.js';
import type { Listener } from '../sync/emitter.js';
import type { SyncEvents } from '../sync/events.js';
import type { TradingService } from '../trading/index.js';
import type { GuardBook } from './book.js';

/** What the guardian needs of the sync engine (SyncEngine has it). */
export interface GuardFeed {
  on<E extends keyof SyncEvents>(event: E, listener: Listener<SyncEvents[E]>): () => void;
  /** How often positions are read now, ms. */
  readonly positionsPollMs: number;
}

export interface GuardianOptions {
  store: Store;
  book: GuardBook;
  accountId: number;
  /** The account as the bridge names it (null: paper). */
  bridgeId: string | null;
  engine: GuardFeed;
  trading: Pick<TradingService, 'placeOrder' | 'waitForFinal'>;
  /** The account's order bucket in the rate governor: a spent budget holds a firing. */
  ordersBucket: () => BucketSnapshot | undefined;
  /** `guards:changed` to every window; absent in the CLI. */
  onChange?: (view: GuardsView) => void;
  /** A `guard` alert was stored (the alert centre announces it); absent in the CLI. */
  onAlert?: (alertId: number) => void;
  logger?: Logger;
  /** Local clock (default Date.now). */
  now?: () => number;
}

export class Guardian {
  readonly accountId: number;

  constructor(opts: GuardianOptions) {
    this.accountId = opts.accountId;
  }

  /** Subscribes to the engine, resumes closes claimed before a restart, judges the rules now. */
  start(): void {
    throw new Error('Guardian.start: not built yet');
  }

  /** Unsubscribes; closes in flight keep their intents (the next start resumes them). */
  stop(): Promise<void> {
    return Promise.resolve();
  }

  /** Judges every armed rule on the store's figures now (what each update runs). */
  evaluate(): void {
    throw new Error('Guardian.evaluate: not built yet');
  }

  /** Resolves when no close is being sent or followed. */
  idle(): Promise<void> {
    return Promise.resolve();
  }

  /** The account's rules as the Positions screen shows them. */
  view(): GuardsView {
    throw new Error('Guardian.view: not built yet');
  }
}
