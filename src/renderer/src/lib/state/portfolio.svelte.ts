/**
 * The Portfolio screen's data: what the user has made, what is at risk and where, and the equity
 * curve, read from the store by main (`portfolio:view`, `portfolio:equity`), so it works offline.
 *
 * The scope is every exchange account together, one account, or paper on its own (never added to
 * real money); the user's choice holds for the session. Figures are read while the screen is
 * shown and again on `positions:changed`, `history:changed` and a change of account (one re-read
 * at a time); hidden, a change only marks them for the next show. A row opens the position or
 * settlement it names on its own screen, switching to its account first (Positions and History
 * show the active account alone).
 */
import type {
  Account,
  AppInfo,
  EquityPeriod,
  EquitySeries,
  PortfolioPosition,
  PortfolioScope,
  PortfolioView,
  SettlementRow,
  ShowRequest,
} from '../../../../shared/ipc/contract.js';
import { isZero } from '../../../../shared/money.js';
import type { Bridge } from '../bridge.js';
import { ago } from '../format.js';
import type { Clock } from './clock.svelte.js';
import { Loader } from './loader.svelte.js';

/** The account id the portfolio gives paper mode's rows (PortfolioPosition.accountId). */
export const PAPER_ACCOUNT = 'paper';

/**
 * Positions read longer ago than this are called stale when main's own limit (twice the polling
 * interval, PositionsView.staleAfterMs) is not known.
 */
export const STALE_AFTER_MS = 120_000;

const LIVE: PortfolioScope = { kind: 'live' };
const PAPER: PortfolioScope = { kind: 'paper' };

/** "live", "paper" or the account's id: a scope as one string (the picker's value). */
export function scopeKey(scope: PortfolioScope): string {
  return scope.kind === 'account' ? scope.accountId : scope.kind;
}

export interface ScopeChoice {
  key: string;
  scope: PortfolioScope;
  text: string;
}

/** What the portfolio reads of the rest of the app. */
export interface PortfolioDeps {
  readonly app: {
    readonly info: AppInfo | null;
    readonly syncBehind: 'offline' | 'failed' | 'paused' | null;
    onModeChange(listener: () => void): () => void;
  };
  readonly accounts: {
    readonly list: Account[];
    switchTo(accountId: string | null): Promise<boolean>;
    readonly reads: { readonly error: string | null };
  };
  readonly nav: { show(request: ShowRequest): void };
  /** Main's limit for fresh positions, when the active account's view has said it. */
  readonly staleAfterMs: number | null;
}

export class PortfolioState {
  // The user's choice of scope, for the session: setting it reads that scope's figures.
  #chosen = $state.raw<PortfolioScope | null>(null);
  #period = $state<EquityPeriod>('month');
  /** The figures of `view.scope`, as main last answered. */
  view = $state.raw<PortfolioView | null>(null);
  readonly viewReads = new Loader();
  /** The equity curve of `equity.scope` and `equity.period`. */
  equity = $state.raw<EquitySeries | null>(null);
  readonly equityReads = new Loader();
  /** Why the last row could not be opened (its account could not be switched to). */
  openError = $state<string | null>(null);
  /** The account a row is switching to, while it does. */
  switching = $state<string | null>(null);
  #visible = false;
  /** The scope and accounts the last read was of (see `follow`). */
  #readKey = '';
  #changedWhileHidden = false;
  #rereading = false;
  #changedDuringReread = false;
  readonly #bridge: Bridge;
  readonly #deps: PortfolioDeps;
  readonly #clock: Clock;

  constructor(bridge: Bridge, deps: PortfolioDeps, clock: Clock) {
    this.#bridge = bridge;
    this.#deps = deps;
    this.#clock = clock;
  }

  // ---------------------------------------------------------------- scope and period

  /** The scope shown: the user's choice, else the mode's own (paper in paper mode, else live). */
  get scope(): PortfolioScope {
    const chosen = this.#chosen;
    if (
      chosen?.kind === 'account' &&
      !this.#deps.accounts.list.some((a) => a.id === chosen.accountId)
    ) {
      return this.#default(); // the account was removed
    }
    return chosen ?? this.#default();
  }
  set scope(value: PortfolioScope) {
    this.#chosen = value;
    this.view = null;
    this.equity = null;
    this.#read();
  }

  get scopeKey(): string {
    return scopeKey(this.scope);
  }
  /** The picker's value: a ScopeChoice key. */
  set scopeKey(key: string) {
    const choice = this.scopeChoices.find((c) => c.key === key);
    if (choice) this.scope = choice.scope;
  }

  get period(): EquityPeriod {
    return this.#period;
  }
  /** A new period reads its curve; the figures stay. */
  set period(value: EquityPeriod) {
    this.#period = value;
    this.equity = null;
    if (this.#visible) void this.#readEquity();
  }

  /** Every exchange account together, each account, and paper apart. */
  get scopeChoices(): ScopeChoice[] {
    return [
      { key: 'live', scope: LIVE, text: 'All exchange accounts' },
      ...this.#deps.accounts.list.map((a): ScopeChoice => ({
        key: a.id,
        scope: { kind: 'account', accountId: a.id },
        text: a.label,
      })),
      { key: 'paper', scope: PAPER, text: 'Paper (practice money)' },
    ];
  }

  /** What the scope is, in words: "All exchange accounts (2)", "Main", "Paper". */
  get scopeWords(): string {
    const scope = this.scope;
    if (scope.kind === 'paper') return 'Paper';
    if (scope.kind === 'live') {
      const n = this.#deps.accounts.list.length;
      const leftOut = (this.view?.sharedWallets ?? []).reduce((k, w) => k + w.others.length, 0);
      const wallets = n - leftOut;
      return leftOut > 0 && wallets > 0
        ? `All exchange accounts (${n}, ${wallets} ${wallets === 1 ? 'wallet' : 'wallets'})`
        : `All exchange accounts (${n})`;
    }
    return this.#label(scope.accountId);
  }

  /**
   * Wallets that several accounts read, each counted once, in words ("“Main (read)” reads the
   * same wallet as “Main”: counted once, from “Main”."); null when there is none.
   */
  get sharedWords(): string | null {
    const shared = this.view?.sharedWallets ?? [];
    if (shared.length === 0) return null;
    const names = (labels: string[]) =>
      labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)!}`;
    return shared
      .map(({ counted, others }) => {
        const verb = others.length === 1 ? 'reads' : 'read';
        return `${names(others.map((a) => `“${a.label}”`))} ${verb} the same wallet as “${counted.label}”: counted once, from “${counted.label}”.`;
      })
      .join(' ');
  }

  #default(): PortfolioScope {
    return this.#deps.app.info?.mode === 'paper' ? PAPER : LIVE;
  }

  // ---------------------------------------------------------------- how fresh

  /**
   * When each account's positions were read, in words: "positions read 2 min ago", or one
   * account at a time ("Main 5 s ago · ISA 2 min ago"); null before the figures are read.
   */
  get freshness(): string | null {
    const view = this.view;
    if (!view) return null;
    const now = this.#clock.now;
    const at = (t: number | null) => (t === null ? 'never' : ago(now - t));
    if (view.accounts.length === 0) return null;
    if (view.accounts.length === 1) {
      const t = view.accounts[0]!.positionsAt;
      return t === null ? 'positions not read from the exchange yet' : `positions read ${at(t)}`;
    }
    return `positions read: ${view.accounts.map((a) => `${a.label} ${at(a.positionsAt)}`).join(' · ')}`;
  }

  /**
   * Why the figures may be out of date, in words, or null while they are fresh: Betdesk is
   * offline (figures from this computer), sync is paused or failing, or an account's positions
   * were read too long ago.
   */
  get staleWords(): string | null {
    const view = this.view;
    if (!view) return null;
    const behind = this.#deps.app.syncBehind;
    if (behind === 'offline') {
      return 'Offline: these are the figures saved on this computer; they update when the exchange answers again.';
    }
    const limit = this.#deps.staleAfterMs ?? STALE_AFTER_MS;
    const now = this.#clock.now;
    const old = view.accounts.filter((a) => a.positionsAt !== null && now - a.positionsAt > limit);
    const parts: string[] = [];
    if (behind === 'paused') parts.push('sync is paused');
    if (behind === 'failed') parts.push('the last sync failed');
    for (const a of old)
      parts.push(`${a.label}’s positions were read ${ago(now - a.positionsAt!)}`);
    if (parts.length === 0) return null;
    return `Stale: ${parts.join('; ')}. Open positions and unrealized P&L may be out of date.`;
  }

  /** The scope holds nothing yet: no position, no settlement. */
  get empty(): boolean {
    const v = this.view;
    return (
      v !== null &&
      v.openPositions === 0 &&
      v.latest.length === 0 &&
      v.unknownSettlements === 0 &&
      isZero(v.realized)
    );
  }

  // ---------------------------------------------------------------- opening rows

  /** The row's account is the active one (Positions and History show its data). */
  isActive(accountId: string): boolean {
    const info = this.#deps.app.info;
    if (!info) return false;
    return accountId === PAPER_ACCOUNT ? info.mode === 'paper' : info.activeAccountId === accountId;
  }

  /** Opens the position's detail on Positions, switching to its account first if need be. */
  async openPosition(p: PortfolioPosition): Promise<void> {
    if (!(await this.#activate(p.accountId, p.accountLabel))) return;
    this.#deps.nav.show({
      screen: 'positions',
      contractId: p.contractId,
      outcome: p.outcome,
      detail: true,
    });
  }

  /** Opens the settlement's detail on History, switching to its account first if need be. */
  async openSettlement(accountId: string, accountLabel: string, row: SettlementRow): Promise<void> {
    if (!(await this.#activate(accountId, accountLabel))) return;
    this.#deps.nav.show({ screen: 'history', settlementId: row.id });
  }

  async #activate(accountId: string, label: string): Promise<boolean> {
    this.openError = null;
    if (this.isActive(accountId)) return true;
    this.switching = accountId;
    try {
      const switched = await this.#deps.accounts.switchTo(
        accountId === PAPER_ACCOUNT ? null : accountId,
      );
      if (!switched) {
        const why = this.#deps.accounts.reads.error;
        this.openError = `Could not switch to ${label} to open it${why ? `: ${why}` : '.'}`;
      }
      return switched;
    } finally {
      this.switching = null;
    }
  }

  #label(accountId: string): string {
    if (accountId === PAPER_ACCOUNT) return 'Paper';
    return this.#deps.accounts.list.find((a) => a.id === accountId)?.label ?? accountId;
  }

  // ---------------------------------------------------------------- life

  /** Follows the pushes that change the figures; returns the function that stops. */
  start(): () => void {
    const stops = [
      this.#bridge.on('positions:changed', () => this.refresh()),
      this.#bridge.on('history:changed', () => this.refresh()),
      this.#deps.app.onModeChange(() => this.refresh()),
    ];
    return () => stops.forEach((stop) => stop());
  }

  /** The screen is on view: the first read, the read it missed while hidden, or another scope's. */
  show(): void {
    this.#visible = true;
    const v = this.view;
    if (!v || this.#changedWhileHidden || scopeKey(v.scope) !== this.scopeKey) this.#read();
    else if (!this.equity && !this.equityReads.loading) void this.#readEquity();
  }

  hide(): void {
    this.#visible = false;
  }

  /**
   * The scope or the accounts moved without a choice (the mode's default once the app's info
   * came, an account added or removed): reads again when the last read was of something else.
   * The screen calls it whenever they change.
   */
  follow(): void {
    if (this.#visible && this.#readKey !== '' && this.#readKey !== this.#key()) this.#read();
  }

  #key(): string {
    return `${this.scopeKey}|${this.#deps.accounts.list.map((a) => a.id).join(',')}`;
  }

  /** Something the figures rest on changed: read again, one re-read at a time. */
  refresh(): void {
    if (!this.#visible) {
      this.#changedWhileHidden = true;
      return;
    }
    if (this.#rereading) {
      this.#changedDuringReread = true;
      return;
    }
    this.#rereading = true;
    void Promise.all([this.#readView(), this.#readEquity()]).finally(() => {
      this.#rereading = false;
      if (this.#changedDuringReread) {
        this.#changedDuringReread = false;
        this.refresh();
      }
    });
  }

  /** Reads what failed again. */
  retry(): void {
    if (this.viewReads.error || !this.view) void this.#readView();
    if (this.equityReads.error || !this.equity) void this.#readEquity();
  }

  #read(): void {
    if (!this.#visible) {
      this.#changedWhileHidden = true;
      return;
    }
    this.#changedWhileHidden = false;
    // The figures first: they are what the user waits for; the curve follows.
    void this.#readView().then(() => this.#readEquity());
  }

  async #readView(): Promise<void> {
    const scope = this.scope;
    this.#readKey = this.#key();
    this.#changedWhileHidden = false;
    await this.viewReads.run(
      () => this.#bridge.invoke('portfolio:view', { scope }),
      (view) => (this.view = view),
    );
  }

  async #readEquity(): Promise<void> {
    const scope = this.scope;
    const period = this.#period;
    await this.equityReads.run(
      () => this.#bridge.invoke('portfolio:equity', { scope, period }),
      (equity) => (this.equity = equity),
    );
  }
}
