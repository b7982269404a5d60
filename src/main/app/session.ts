/**
 * The runtime of the active account: its exchange client (behind the governor of its exchange),
 * the sync engine keeping the store current, the knockout watch fed by it, the trading service,
 * and the desk on top of them (placing from the app, the alert centre). One at a time;
 * switching accounts stops one and starts the next.
 */
import { KnockoutWatch } from '../alerts/index.js';
import { ExchangeClient, type CredentialsSource, type Logger } from '../client/index.js';
import { AlertCentre, type Emit } from '../desk/alert-centre.js';
import { DeskTrading } from '../desk/placement.js';
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
  /** Where the desk announces bridge events (the app's event hub). */
  emit: Emit;
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
  /** Placing from the app: one intent, one order; known refusals before sending. */
  readonly desk: DeskTrading;
  /** Knockout, fill and rejection alerts; the account's alert settings. */
  readonly alerts: AlertCentre;
  readonly #governor: RateGovernor;
  #stopping: Promise<void> | undefined;

  constructor(opts: SessionOptions) {
    this.accountId = opts.accountId;
    this.isPaper = opts.isPaper;
    this.bridgeId = opts.isPaper ? null : String(opts.accountId);
    this.governorName = `account-${opts.accountId}`;
    this.#governor = opts.governor;
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
    const bridge = { store: opts.store, accountId: opts.accountId, bridgeId: this.bridgeId };
    this.alerts = new AlertCentre({
      ...bridge,
      watch: this.watch,
      engine: this.engine,
      emit: opts.emit,
    });
    this.desk = new DeskTrading({
      ...bridge,
      trading: this.trading,
      syncStatus: () => this.engine.status(),
      ordersBucket: () => opts.governor.snapshot().accounts[this.governorName]?.orders,
      emit: opts.emit,
    });
  }

  /** Starts syncing (paused when asked) and the watch; reconciles open intents meanwhile. */
  start(paused: boolean): void {
    if (paused) this.engine.pause();
    // The alert settings reach the watch before its first check.
    this.alerts.start();
    this.watch.start();
    this.engine.start();
    void this.desk.reconcile();
  }

  /** Stops the watch, the engine (nothing left in flight) and the client; once. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.desk.stop();
      this.alerts.stop();
      await this.watch.stop();
      await this.engine.stop();
      await this.client.close();
      this.#governor.unregisterAccount(this.governorName);
    })();
    return this.#stopping;
  }
}
