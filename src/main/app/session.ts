/**
 * The runtime of the active account: its exchange client (behind the governor of its exchange),
 * the sync engine keeping the store current, the knockout watch fed by it, and the trading
 * service. One at a time; switching accounts stops one and starts the next.
 */
import { KnockoutWatch } from '../alerts/index.js';
import { ExchangeClient, type CredentialsSource, type Logger } from '../client/index.js';
import type { RateGovernor } from '../governor/index.js';
import type { Store } from '../store/index.js';
import { SyncEngine } from '../sync/index.js';
import { TradingService } from '../trading/index.js';

export interface SessionOptions {
  store: Store;
  /** The account's id in the store. */
  accountId: number;
  isPaper: boolean;
  baseUrl: string;
  credentials: CredentialsSource;
  governor: RateGovernor;
  logger: Logger;
}

export class AccountSession {
  readonly accountId: number;
  readonly isPaper: boolean;
  /** The account as the bridge names it: null for paper. */
  readonly bridgeId: string | null;
  /** The account's name in its governor. */
  readonly governorName: string;
  readonly client: ExchangeClient;
  readonly engine: SyncEngine;
  readonly watch: KnockoutWatch;
  readonly trading: TradingService;
  readonly #governor: RateGovernor;
  readonly #logger: Logger;
  #stopping: Promise<void> | undefined;

  constructor(opts: SessionOptions) {
    this.accountId = opts.accountId;
    this.isPaper = opts.isPaper;
    this.bridgeId = opts.isPaper ? null : String(opts.accountId);
    this.governorName = `account-${opts.accountId}`;
    this.#governor = opts.governor;
    this.#logger = opts.logger;
    // Registered now, so the status bar shows the account's budget before its first request.
    opts.governor.registerAccount(this.governorName);
    this.client = new ExchangeClient({
      baseUrl: opts.baseUrl,
      credentials: opts.credentials,
      account: this.governorName,
      governor: opts.governor,
      logger: opts.logger,
    });
    const base = { store: opts.store, accountId: opts.accountId, logger: opts.logger };
    this.engine = new SyncEngine({ ...base, client: this.client });
    this.watch = new KnockoutWatch({ ...base, engine: this.engine });
    this.trading = new TradingService({ ...base, client: this.client });
  }

  /** Starts syncing (paused when asked) and the watch; reconciles open intents meanwhile. */
  start(paused: boolean): void {
    if (paused) this.engine.pause();
    this.watch.start();
    this.engine.start();
    this.trading.reconcileOpenIntents().then(
      (r) => {
        if (r.checked > 0) this.#logger.info('open order intents reconciled', { ...r });
      },
      (err: unknown) =>
        this.#logger.warn('open order intents could not be reconciled yet', {
          reason: err instanceof Error ? err.message : String(err),
        }),
    );
  }

  /** Stops the watch, the engine (nothing left in flight) and the client; once. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      await this.watch.stop();
      await this.engine.stop();
      await this.client.close();
      this.#governor.unregisterAccount(this.governorName);
    })();
    return this.#stopping;
  }
}
