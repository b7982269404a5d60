/**
 * One account's connection to its exchange: the exchange client behind the rate governor of
 * that exchange, and the trading service on top of it. The app's account session and every
 * CLI command that reaches the exchange are built on one.
 */
import type { Logger } from '../../shared/log.js';
import type { CredentialsSource } from '../client/index.js';
import { ExchangeClient } from '../client/index.js';
import { RateGovernor } from '../governor/index.js';
import type { Store } from '../store/index.js';
import { TradingService } from '../trading/index.js';

/** One RateGovernor per exchange base URL: accounts of one exchange share its IP budget. */
export class RateGovernors {
  readonly #byBaseUrl = new Map<string, RateGovernor>();

  for(baseUrl: string): RateGovernor {
    let governor = this.#byBaseUrl.get(baseUrl);
    if (!governor) this.#byBaseUrl.set(baseUrl, (governor = new RateGovernor()));
    return governor;
  }

  /** Stops every governor's timers. */
  close(): void {
    for (const governor of this.#byBaseUrl.values()) governor.close();
  }
}

export interface ConnectionOptions {
  store: Store;
  /** The account's id in the store. */
  accountId: number;
  baseUrl: string;
  credentials: CredentialsSource;
  governor: RateGovernor;
  logger?: Logger;
}

export class AccountConnection {
  readonly accountId: number;
  /** The account's name in its governor. */
  readonly governorName: string;
  readonly client: ExchangeClient;
  readonly trading: TradingService;
  readonly #governor: RateGovernor;
  #closing: Promise<void> | undefined;

  constructor(opts: ConnectionOptions) {
    this.accountId = opts.accountId;
    this.governorName = `account-${opts.accountId}`;
    this.#governor = opts.governor;
    // Registered now, so the status bar shows the account's budget before its first request.
    opts.governor.registerAccount(this.governorName);
    const logger = opts.logger !== undefined ? { logger: opts.logger } : {};
    this.client = new ExchangeClient({
      baseUrl: opts.baseUrl,
      credentials: opts.credentials,
      account: this.governorName,
      governor: opts.governor,
      ...logger,
    });
    this.trading = new TradingService({
      store: opts.store,
      accountId: opts.accountId,
      client: this.client,
      ...logger,
    });
  }

  get governor(): RateGovernor {
    return this.#governor;
  }

  /** Closes the client (nothing left in flight) and leaves the governor; once. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.client.close();
      this.#governor.unregisterAccount(this.governorName);
    })();
    return this.#closing;
  }
}
