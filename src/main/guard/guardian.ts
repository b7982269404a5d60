/**
 * The guardian of one account: on every fresh positions and prices update it judges the
 * account's armed rules and, when one fires, claims its close in the store (the write-ahead),
 * then sends a MARKET SELL of its share through the trading service (its own clientOrderId,
 * the order intent), follows it to its end, and says what it did: the guardian log, a `guard`
 * alert, `guards:changed`. Runs wherever a sync engine runs for the account: the app's session
 * (window open or not, the browser host) and `cli sync`. See docs/guardians.md.
 *
 * It reads only the store (never the exchange): one evaluation is a handful of queries and the
 * writes of what changed (a streak, a trailing best, a hold), in one transaction. Two processes
 * on one store (the app and `cli sync`) both judge; the claim (armed -> firing, guarded by the
 * state) lets only one of them send, and the other follows the rule's close through the store.
 */
import type { Fixture } from '../../shared/api/schemas.js';
import type { GuardHold, GuardLogEvent, GuardsView } from '../../shared/ipc/contract.js';
import { silentLogger, type Logger } from '../../shared/log.js';
import { fixtureName } from '../desk/rows.js';
import type { BucketSnapshot } from '../governor/index.js';
import type {
  GuardLogEntry,
  GuardProgress,
  GuardRule,
  NewGuardLog,
  Store,
  StoredPosition,
} from '../store/index.js';
import type { Listener } from '../sync/emitter.js';
import type {
  OrdersChangedEvent,
  SettlementsChangedEvent,
  SyncEvents,
  SyncStreamName,
} from '../sync/events.js';
import type { TradingService } from '../trading/index.js';
import {
  BUDGET_MESSAGE,
  LIMIT_MESSAGE,
  localMidnight,
  type GuardBook,
  type JudgedRule,
} from './book.js';
import { GuardCloser } from './closer.js';
import { storedKnockoutSale } from './boosted.js';
import {
  keep,
  limitWords,
  observationOf,
  randomBase36,
  sameDec,
  written,
  type DayUse,
} from './evaluation.js';
import { closeSize, saleOf, type CloseSize } from './close-size.js';
import { FigureSnapshot, positionKey } from './figures.js';
import { GUARD_ORDER_PREFIX, HandSells, SOLD_BY_HAND } from './hand-sells.js';
import { judge, snapshotFresh, step, type Judgement } from './judge.js';
import {
  HOLD_MESSAGES,
  clockText,
  contractsText,
  kindName,
  positionText,
  ruleText,
} from './messages.js';

/** What the guardian needs of the sync engine (SyncEngine has it). */
export interface GuardFeed {
  on<E extends keyof SyncEvents>(event: E, listener: Listener<SyncEvents[E]>): () => void;
  /** How often positions are read now, ms. */
  readonly positionsPollMs: number;
  /**
   * A pass of these streams now (SyncEngine.syncNow). A close followed to its fill stores the
   * order before the orders stream sees it, so the guardian asks for the passes that stream
   * would have asked for (positions, settlements).
   */
  syncNow?(...streams: SyncStreamName[]): Promise<void>;
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
  /** A guardian log row this guardian wrote (`cli sync` prints each). */
  onLog?: (row: GuardLogEntry) => void;
  logger?: Logger;
  /** Local clock (default Date.now). */
  now?: () => number;
}

/** Why a knockout guard ends while unboosted contracts of its position are still held. */
const BOOSTED_GONE =
  'the boosted contracts it guarded are gone (knocked out or sold), and it never sells unboosted ones';
/** Why a knockout guard cannot tell what to sell. */
const BOOSTED_UNKNOWN =
  'Which contracts of this position are boosted cannot be told from the orders Betdesk has, so the knockout guard sells nothing it cannot prove is boosted: Resync history… on the History screen fills them in.';

export class Guardian {
  readonly accountId: number;
  readonly #o: GuardianOptions;
  readonly #now: () => number;
  readonly #log: Logger;
  readonly #closer: GuardCloser;
  /** Firing rules whose close this process sends (claimed here, or resumed at start). */
  readonly #mine = new Set<number>();
  /** The words of a limit or budget hold, by rule id (the view shows them). */
  readonly #holdWords = new Map<number, string>();
  /** Why a position went, from the settlements and sells seen (contractId|outcome -> words). */
  readonly #endReasons = new Map<string, string>();
  readonly #handSells: HandSells;
  /** The live rules as last read; what watching does not change is not read again. */
  readonly #rules = new Map<number, GuardRule>();
  /** Fixtures read from the store, kept until the sync says one changed. */
  readonly #fixtures = new Map<string, Fixture | null>();
  /** The figures of the last evaluation: its positions serve the next on the same snapshot. */
  #lastFigures: FigureSnapshot | undefined;
  /** Fixtures with a live rule, as of the last evaluation. */
  #watched = new Set<string>();
  #stops: (() => void)[] = [];
  #budgetTimer: ReturnType<typeof setTimeout> | undefined;
  #lastView = '';
  #viewTimer: ReturnType<typeof setTimeout> | undefined;
  /** The evaluation the next view is built from; undefined: judge again. */
  #pendingView: { judged: readonly JudgedRule[]; now: number } | undefined;
  /** Log rows written by the evaluation under way, for onLog after it commits. */
  readonly #written: GuardLogEntry[] = [];
  #started = false;
  #stopped = false;

  constructor(opts: GuardianOptions) {
    this.accountId = opts.accountId;
    this.#o = opts;
    this.#now = opts.now ?? Date.now;
    this.#log = opts.logger ?? silentLogger;
    this.#handSells = new HandSells(opts.store, opts.accountId, this.#now);
    this.#closer = new GuardCloser({
      store: opts.store,
      accountId: opts.accountId,
      trading: opts.trading,
      logger: this.#log,
      now: this.#now,
      ...(opts.onAlert ? { onAlert: opts.onAlert } : {}),
      ...(opts.onLog ? { onLog: opts.onLog } : {}),
      changed: () => this.#viewChanged(),
      closed: () => {
        this.#o.engine.syncNow?.('positions', 'settlements').catch(() => undefined);
      },
    });
  }

  /** Subscribes to the engine, resumes closes claimed before a restart, judges the rules now. */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    const e = this.#o.engine;
    this.#stops = [
      // Every positions pass, changed or not: the figures are this fresh.
      e.on('positions:synced', () => this.evaluate()),
      // An index price moved: a knockout guard may be nearer.
      e.on('fixtures:changed', (ev) => {
        for (const f of ev.fixtures) this.#fixtures.delete(f.contractId);
        if (ev.fixtures.some((f) => this.#watched.has(f.contractId))) this.evaluate();
      }),
      e.on('orders:changed', (ev) => this.#onOrders(ev)),
      e.on('settlements:changed', (ev) => this.#onSettlements(ev)),
    ];
    for (const rule of this.#o.store.guards.live(this.accountId)) {
      if (rule.state !== 'firing') continue;
      this.#mine.add(rule.id);
      this.#closer.run(rule.id, true);
    }
    this.evaluate();
  }

  /** Unsubscribes; closes in flight keep their intents (the next start resumes them). */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const stop of this.#stops.splice(0)) stop();
    if (this.#budgetTimer !== undefined) clearTimeout(this.#budgetTimer);
    this.#budgetTimer = undefined;
    if (this.#viewTimer !== undefined) clearTimeout(this.#viewTimer);
    this.#viewTimer = undefined;
    await this.#closer.stop();
  }

  /** How often the account's positions are read now, ms (freshness is twice it). */
  get pollMs(): number {
    return this.#o.engine.positionsPollMs;
  }

  /** Resolves when no close is being sent or followed. */
  idle(): Promise<void> {
    return this.#closer.idle();
  }

  /** The account's rules as the Positions screen shows them. */
  view(): GuardsView {
    const now = this.#now();
    const figures = this.#figures(now);
    const judged = this.#o.store.guards
      .live(this.accountId)
      .map((rule) => ({ rule, judgement: judge(rule, figures.figures(rule)) }));
    return this.#viewOf(judged, now);
  }

  /**
   * A SELL placed by hand on a position (the desk calls this as it places one): the position's
   * rules wait for it, then judge what is left; a sell of everything ends them once the
   * positions show it gone (hand-sells.ts).
   */
  handSell(contractId: string, outcome: string): void {
    this.#handSells.announce(contractId, outcome);
    this.evaluate();
  }

  /** Judges every armed rule on the store's figures now (what each update runs). */
  evaluate(): void {
    if (this.#stopped) return;
    const { store } = this.#o;
    const now = this.#now();
    const figures = this.#figures(now);
    const live = this.#live();
    const paused = this.#o.book.paused().paused;
    // A position whose close is under way: its other rules wait for it.
    const closing = new Set(
      live.filter((r) => r.state === 'firing').map((r) => positionKey(r.contractId, r.outcome)),
    );
    let day: DayUse | undefined;
    const dayUse = (): DayUse => (day ??= this.#dayUse(now));
    const judged: JudgedRule[] = [];
    const claimed: { ruleId: number; alertId: number | null }[] = [];
    let budgetUntil: number | null = null;

    this.#written.length = 0;
    store.transaction(() => {
      for (const rule of live) {
        const judgement = judge(rule, figures.figures(rule));
        if (rule.state !== 'armed') {
          judged.push({ rule, judgement });
          continue;
        }
        const key = positionKey(rule.contractId, rule.outcome);
        const position = figures.positions.get(key);
        if (position === undefined && rule.positionSeen && snapshotFresh(figures)) {
          this.#end(rule, now);
          continue;
        }
        // A knockout guard protects boosted contracts: once none is held, it has ended.
        if (
          rule.spec.kind === 'knockout' &&
          position !== undefined &&
          !position.boosted &&
          rule.positionSeen &&
          snapshotFresh(figures)
        ) {
          this.#end(rule, now, BOOSTED_GONE);
          continue;
        }
        const s = step(rule, judgement);
        const progress: GuardProgress = {};
        if (position !== undefined && !rule.positionSeen) progress.positionSeen = true;
        if (s.counted && (s.streak !== rule.streak || s.streak > 0)) {
          progress.streak = s.streak;
          progress.observedAt = s.observedAt;
        }
        if (judgement.best !== null && judgement.fresh && !sameDec(judgement.best, rule.best)) {
          progress.best = judgement.best;
        }
        const stale = judgement.now !== null && judgement.holds && !judgement.fresh;
        let hold: GuardHold | null = null;
        let words: string | null = null;
        // A sell by hand under way (or not yet in the positions read): it waits for it too.
        if (
          (s.fire || stale) &&
          position !== undefined &&
          !closing.has(key) &&
          !this.#handSells.blocks(rule, figures.snapshotAt)
        ) {
          const sale =
            rule.spec.kind === 'knockout'
              ? storedKnockoutSale(store, this.accountId, position, rule.spec.sharePercent)
              : undefined;
          const size =
            sale === undefined
              ? closeSize(position, rule.spec.sharePercent)
              : saleOf(position, sale?.contracts ?? 0);
          if (paused) hold = 'paused';
          else if (stale) hold = 'stale';
          else if (sale === null) {
            hold = 'position';
            words = BOOSTED_UNKNOWN;
          } else if ((words = limitWords(dayUse(), size)) !== null) hold = 'limit';
          else {
            const until = this.#blockedUntil(now);
            if (until !== null) {
              hold = 'budget';
              words = `The exchange’s order budget is spent: the close is sent at ${clockText(until)}.`;
              budgetUntil = Math.min(budgetUntil ?? until, until);
            }
          }
          if (hold === null) {
            const alertId = this.#claim(rule, judgement, position, figures, size, now);
            if (alertId !== undefined) {
              claimed.push({ ruleId: rule.id, alertId });
              closing.add(key);
              const d = dayUse();
              d.closes += 1;
              d.contracts += size.contracts;
              d.stakeMicros += size.stakeMicros;
            }
            continue;
          }
        }
        if (words !== null) this.#holdWords.set(rule.id, words);
        else this.#holdWords.delete(rule.id);
        if (hold !== rule.hold) {
          progress.hold = hold;
          if (hold !== null) this.#held(rule, judgement, figures, hold, words, now);
        }
        if (Object.keys(progress).length > 0 && !store.guards.progress(rule.id, progress)) {
          continue; // Another process moved it (claimed, disarmed): the next view shows it.
        }
        judged.push({ rule: written(rule, progress), judgement });
      }
    });

    this.#flushLog();
    this.#watched = new Set(live.map((r) => r.contractId));
    for (const c of claimed) {
      this.#mine.add(c.ruleId);
      if (c.alertId !== null) this.#o.onAlert?.(c.alertId);
      this.#closer.run(c.ruleId, false);
    }
    for (const { rule } of judged) {
      if (rule.state === 'firing') this.#closer.follow(rule, this.#mine.has(rule.id));
    }
    if (budgetUntil !== null) this.#evaluateAt(budgetUntil);
    this.#viewChanged(claimed.length === 0 ? judged : undefined, now);
  }

  // ------------------------------------------------------------------ events

  #onOrders(e: OrdersChangedEvent): void {
    this.#handSells.seen(e.orders);
    this.evaluate();
  }

  #onSettlements(e: SettlementsChangedEvent): void {
    for (const s of e.inserted) {
      const why =
        s.type === 'KNOCKED_OUT'
          ? 'the position was knocked out'
          : s.type === 'SETTLEMENT'
            ? 'the fixture settled'
            : 'the position closed';
      this.#endReasons.set(positionKey(s.contractId, s.outcome), why);
    }
    this.evaluate();
  }

  // ------------------------------------------------------------------ acting

  #figures(now: number): FigureSnapshot {
    this.#lastFigures = new FigureSnapshot(
      this.#o.store,
      this.accountId,
      this.#o.engine.positionsPollMs,
      now,
      this.#fixtures,
      this.#lastFigures,
    );
    return this.#lastFigures;
  }

  /**
   * The account's live rules: their state and progress read now, the rest kept from the first
   * read (fixed while armed); a firing rule is read whole, its close moves on.
   */
  #live(): GuardRule[] {
    const { store } = this.#o;
    const out: GuardRule[] = [];
    const seen = new Set<number>();
    for (const p of store.guards.liveProgress(this.accountId)) {
      seen.add(p.id);
      const kept = this.#rules.get(p.id);
      // The kept rule takes the watching part in place: no copy of 600 rules per update.
      const rule =
        kept !== undefined && p.state === 'armed' ? keep(kept, p) : store.guards.get(p.id);
      if (rule === undefined) continue;
      this.#rules.set(p.id, rule);
      out.push(rule);
    }
    if (seen.size !== this.#rules.size) {
      for (const id of this.#rules.keys()) if (!seen.has(id)) this.#rules.delete(id);
    }
    return out;
  }

  #where(rule: GuardRule): string {
    return positionText(rule.outcome, fixtureName(this.#o.store, this.accountId, rule.contractId));
  }

  /** Claims the close (the write-ahead), logs `fired`, stores the alert; undefined: not claimed. */
  #claim(
    rule: GuardRule,
    j: Judgement,
    position: StoredPosition,
    figures: FigureSnapshot,
    size: CloseSize,
    now: number,
  ): number | null | undefined {
    const { store } = this.#o;
    const clientOrderId = `${GUARD_ORDER_PREFIX}${rule.id}-${randomBase36()}`;
    const observation = observationOf(j, position, figures, rule, now);
    const ok = store.guards.claim(rule.id, {
      clientOrderId,
      contracts: size.contracts,
      stakeMicros: size.stakeMicros,
      observation,
      at: now,
    });
    if (!ok) return undefined;
    this.#holdWords.delete(rule.id);
    const of = size.contracts === position.contracts ? '' : ` of ${position.contracts}`;
    const message = `Fired: the ${ruleText(rule.spec)} on ${this.#where(rule)} (${j.distance ?? 'its condition held'}); selling ${contractsText(size.contracts)}${of} at the market.`;
    this.#write(rule, 'fired', now, {
      message,
      observation,
      contracts: size.contracts,
      clientOrderId,
    });
    return (
      store.alerts.insertOnce({
        accountId: this.accountId,
        kind: 'guard',
        contractId: rule.contractId,
        outcome: rule.outcome,
        message,
        dedupKey: `guard|fired|${rule.id}`,
        createdAt: now,
      })?.id ?? null
    );
  }

  #held(
    rule: GuardRule,
    j: Judgement,
    figures: FigureSnapshot,
    hold: GuardHold,
    words: string | null,
    now: number,
  ): void {
    const why =
      words ??
      (hold === 'limit' ? LIMIT_MESSAGE : hold === 'budget' ? BUDGET_MESSAGE : HOLD_MESSAGES[hold]);
    const position = figures.position(rule.contractId, rule.outcome);
    this.#write(rule, 'held', now, {
      hold,
      message: `Held: the ${ruleText(rule.spec)} on ${this.#where(rule)} would fire (${j.distance ?? 'its condition held'}). ${why}`,
      observation: position ? observationOf(j, position, figures, rule, now) : null,
    });
  }

  #end(rule: GuardRule, now: number, why?: string): void {
    const key = positionKey(rule.contractId, rule.outcome);
    const reason =
      why ??
      (this.#handSells.soldWhole(rule)
        ? SOLD_BY_HAND
        : (this.#endReasons.get(key) ?? 'the position closed'));
    if (!this.#o.store.guards.finish(rule.id, ['armed'], 'ended', now, reason)) return;
    this.#holdWords.delete(rule.id);
    this.#write(rule, 'ended', now, {
      message: `Ended: the ${kindName(rule.spec.kind)} on ${this.#where(rule)} stops watching: ${reason}.`,
    });
  }

  /** Writes a log row of `rule`; it goes to onLog once the evaluation's transaction committed. */
  #write(
    rule: GuardRule,
    event: GuardLogEvent,
    at: number,
    row: Omit<
      NewGuardLog,
      'accountId' | 'ruleId' | 'at' | 'kind' | 'contractId' | 'outcome' | 'event'
    >,
  ): void {
    const entry = this.#o.store.guards.log({
      accountId: this.accountId,
      ruleId: rule.id,
      at,
      kind: rule.spec.kind,
      contractId: rule.contractId,
      outcome: rule.outcome,
      event,
      ...row,
    });
    if (this.#o.onLog) this.#written.push(entry);
  }

  #flushLog(): void {
    const onLog = this.#o.onLog;
    for (const row of this.#written.splice(0)) onLog?.(row);
  }

  #dayUse(now: number): DayUse {
    const used = this.#o.store.guards.usedSince(this.accountId, localMidnight(now));
    return {
      limits: this.#o.book.settings(this.accountId).limits,
      closes: used.closes,
      contracts: used.contracts,
      stakeMicros: used.stakeMicros,
    };
  }

  /** Until when the order budget is spent (the exchange said slow down), or null. */
  #blockedUntil(now: number): number | null {
    const until = this.#o.ordersBucket()?.blockedUntil ?? null;
    return until !== null && until > now ? until : null;
  }

  #evaluateAt(at: number): void {
    if (this.#stopped || this.#budgetTimer !== undefined) return;
    this.#budgetTimer = setTimeout(
      () => {
        this.#budgetTimer = undefined;
        this.evaluate();
      },
      Math.max(0, at - this.#now()) + 10,
    );
    this.#budgetTimer.unref();
  }

  // ------------------------------------------------------------------ the view

  #viewOf(judged: readonly JudgedRule[], now: number): GuardsView {
    return this.#o.book.viewOf(
      this.accountId,
      { bridgeId: this.#o.bridgeId, pollMs: this.#o.engine.positionsPollMs },
      judged,
      now,
      this.#holdWords,
    );
  }

  /**
   * onChange when the view differs from the last one sent (its time aside). Built just after
   * the evaluation, not inside it: the words and the comparison of every rule cost more than
   * judging them, and a burst of updates (a positions pass, then its index prices) makes one
   * view. `judged`: the evaluation's own judgements, when nothing moved since.
   */
  #viewChanged(judged?: readonly JudgedRule[], now?: number): void {
    if (this.#o.onChange === undefined || this.#stopped) return;
    this.#pendingView =
      judged !== undefined && now !== undefined && this.#viewTimer === undefined
        ? { judged, now }
        : undefined;
    if (this.#viewTimer !== undefined) return;
    this.#viewTimer = setTimeout(() => {
      this.#viewTimer = undefined;
      const pending = this.#pendingView;
      this.#pendingView = undefined;
      const onChange = this.#o.onChange;
      if (onChange === undefined || this.#stopped) return;
      const view = pending ? this.#viewOf(pending.judged, pending.now) : this.view();
      const key = JSON.stringify({ ...view, at: 0 });
      if (key === this.#lastView) return;
      this.#lastView = key;
      onChange(view);
    }, 0);
  }
}
