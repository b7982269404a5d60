/**
 * The runtime of one account: its connection (exchange client behind the governor of its
 * exchange, trading service), the sync engine keeping the store current, the knockout watch fed
 * by it, the alert centre, the guardian, and the desk (placing from the app). Every account's
 * runs at once, on screen or not (active.ts).
 */
import { KnockoutWatch } from '../alerts/index.js';
import type { Logger } from '../../shared/log.js';
import type { ExchangeClient } from '../client/index.js';
import { AlertCentre, type Emit } from '../desk/alert-centre.js';
import { DeskTrading } from '../desk/placement.js';
import { positionsView } from '../desk/positions.js';
import type { AccountAlertCounts, PositionsView } from '../../shared/ipc/contract.js';
import type { Store } from '../store/index.js';
import { SyncEngine } from '../sync/index.js';
import type { TradingService } from '../trading/index.js';
import type { AccountRegistry } from '../accounts/index.js';
import { AccountConnection, type ConnectionOptions, type RateGovernors } from './connection.js';
import type { PaperMode } from '../practice/paper.js';
import type { GuardBook } from '../guard/book.js';
import { Guardian } from '../guard/guardian.js';
import { Refusal } from '../refusal.js';

export interface SessionOptions extends ConnectionOptions {
  isPaper: boolean;
  /** The account's name in alerts and notifications ("Paper" for paper). */
  label: string;
  logger: Logger;
  /** Where the desk announces bridge events (the app's event hub, through events.ts's routing). */
  emit: Emit;
  /** Every watched account's alert counts (the tray's); alone: this one's. */
  everyAccount?: (() => AccountAlertCounts[]) | undefined;
  /** The desk's fill-to-snapshot margin (DeskTradingOptions.clockMarginMs); tests shorten it. */
  clockMarginMs?: number | undefined;
  /** The guardians' rules, one book for the app. */
  guardBook: GuardBook;
}

export class AccountSession {
  readonly accountId: number;
  readonly isPaper: boolean;
  /** The account as the bridge names it: null for paper. */
  readonly bridgeId: string | null;
  readonly connection: AccountConnection;
  readonly engine: SyncEngine;
  readonly watch: KnockoutWatch;
  /** Placing from the app: one intent, one order; known refusals before sending. */
  readonly desk: DeskTrading;
  /** Knockout, fill and rejection alerts; the account's alert settings. */
  readonly alerts: AlertCentre;
  /** The account's guardians: exit rules that close a position by themselves. */
  readonly guardian: Guardian;
  readonly #store: Store;
  #stopping: Promise<void> | undefined;

  constructor(opts: SessionOptions) {
    this.accountId = opts.accountId;
    this.isPaper = opts.isPaper;
    this.#store = opts.store;
    this.bridgeId = opts.isPaper ? null : String(opts.accountId);
    const connection = (this.connection = new AccountConnection(opts));
    const base = { store: opts.store, accountId: opts.accountId, logger: opts.logger };
    this.engine = new SyncEngine({ ...base, client: connection.client });
    this.watch = new KnockoutWatch({ ...base, engine: this.engine });
    const bridge = { store: opts.store, accountId: opts.accountId, bridgeId: this.bridgeId };
    this.alerts = new AlertCentre({
      ...bridge,
      label: opts.label,
      watch: this.watch,
      engine: this.engine,
      emit: opts.emit,
      ...(opts.everyAccount === undefined ? {} : { everyAccount: opts.everyAccount }),
    });
    this.desk = new DeskTrading({
      ...bridge,
      trading: connection.trading,
      syncStatus: () => this.engine.status(),
      ordersBucket: () => connection.governor.snapshot().accounts[connection.governorName]?.orders,
      emit: opts.emit,
      ...(opts.clockMarginMs === undefined ? {} : { clockMarginMs: opts.clockMarginMs }),
      onSell: (contractId, outcome) => this.guardian.handSell(contractId, outcome),
    });
    this.guardian = new Guardian({
      ...bridge,
      book: opts.guardBook,
      engine: this.engine,
      trading: connection.trading,
      ordersBucket: () => connection.governor.snapshot().accounts[connection.governorName]?.orders,
      onChange: (view) => opts.emit('guards:changed', view),
      onAlert: (alertId) => this.alerts.announce(alertId),
      logger: opts.logger,
    });
  }

  /** The positions screen's view of this account, from the store. */
  positionsView(): PositionsView {
    return positionsView(this.#store, this.accountId, {
      bridgeId: this.bridgeId,
      pollMs: this.engine.positionsPollMs,
      levels: this.alerts.levels,
    });
  }

  get client(): ExchangeClient {
    return this.connection.client;
  }

  get trading(): TradingService {
    return this.connection.trading;
  }

  /**
   * Starts syncing (paused when asked), the watch and the guardian; reconciles open intents
   * meanwhile.
   */
  start(paused: boolean): void {
    if (paused) this.engine.pause();
    // The alert settings reach the watch before its first check.
    this.alerts.start();
    this.watch.start();
    this.engine.start();
    this.guardian.start();
    void this.desk.reconcile();
  }

  /** Stops the guardian, the watch, the engine (nothing left in flight) and the connection; once. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      // First: no close starts once the session is going; those in flight keep their intents.
      await this.guardian.stop();
      this.desk.stop();
      this.alerts.stop();
      await this.watch.stop();
      await this.engine.stop();
      await this.connection.close();
    })();
    return this.#stopping;
  }
}

/** What a session is opened with: the same for every account. */
export interface SessionParts {
  store: Store;
  registry: AccountRegistry;
  paper: PaperMode;
  governors: RateGovernors;
  logger: Logger;
  /** Where the session of `accountId` (null: paper) announces bridge events. */
  emitFor: (accountId: number | null) => Emit;
  everyAccount?: () => AccountAlertCounts[];
  clockMarginMs?: number | undefined;
  guardBook: GuardBook;
}

/** Paper's name in alerts, notifications and the tray. */
export const PAPER_NAME = 'Paper';

/** The session of a live account, or of paper for null (paper mode starts on first use). */
export async function openSession(
  parts: SessionParts,
  accountId: number | null,
): Promise<AccountSession> {
  const { store, logger, clockMarginMs, guardBook, everyAccount } = parts;
  const shared = { store, logger, clockMarginMs, guardBook, everyAccount };
  const live = accountId === null ? undefined : parts.registry.get(accountId);
  if (live && !live.isPaper) {
    return new AccountSession({
      ...shared,
      emit: parts.emitFor(live.id),
      label: live.label,
      accountId: live.id,
      isPaper: false,
      baseUrl: live.baseUrl,
      credentials: parts.registry.credentials(live.id),
      governor: parts.governors.for(live.baseUrl),
    });
  }
  if (accountId !== null) throw new Refusal('not-found', 'There is no such account.');
  const paper = await parts.paper.exchange();
  return new AccountSession({
    ...shared,
    emit: parts.emitFor(null),
    label: PAPER_NAME,
    accountId: paper.account.id,
    isPaper: true,
    baseUrl: paper.url,
    credentials: paper.credentials,
    governor: parts.governors.for(paper.url),
  });
}
