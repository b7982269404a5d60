/**
 * The guardians' rules of one store, as every caller uses them: the bridge (feature.ts), the CLI
 * (`guard …`) and the guardian itself (guardian.ts). Arming refuses what cannot work (a
 * read-only key, a rule whose figures make no sense, a position not held) in words; pausing is
 * global, limits and the slip's defaults per account. See docs/guardians.md.
 */
import { isFinalStatus } from '../../shared/api/schemas.js';
import type {
  ArmGuards,
  DisarmGuards,
  GuardHold,
  GuardLimits,
  GuardLogPage,
  GuardLogQuery,
  GuardRuleView,
  GuardCheck,
  GuardPreview,
  GuardSettings,
  GuardSpec,
  GuardsView,
} from '../../shared/ipc/contract.js';
import { sameGuard } from '../../shared/rules/guard-kinds.js';
import { Dec, fromMicros } from '../../shared/money.js';
import { fixtureLookup, fixtureName } from '../desk/rows.js';
import { Refusal } from '../refusal.js';
import { accountSettingKey, type GuardRule, type Store } from '../store/index.js';
import { FigureSnapshot } from './figures.js';
import { judge, type Judgement } from './judge.js';
import { storedKnockoutSale } from './boosted.js';
import { closeSize } from './close-size.js';
import { HOLD_MESSAGES, contractsText, minutesText, positionText, ruleText } from './messages.js';
import { checkSpec } from './spec.js';

export interface GuardBookOptions {
  store: Store;
  /** Local clock (default Date.now). */
  now?: () => number;
}

/** How the guardian sees a rule now, from the store: what GuardsView shows beside the rule. */
export interface GuardViewContext {
  /** The account as the bridge names it (null: paper). */
  bridgeId: string | null;
  /** How often positions are read now, ms: figures older than twice it are stale. */
  pollMs: number;
}

/** A live rule with its judgement now (the guardian's evaluation hands these to the view). */
export interface JudgedRule {
  rule: GuardRule;
  judgement: Judgement;
}

/** The settings key of the global pause. */
export const PAUSED_KEY = 'guards.paused';
/** The last ended rules a view shows. */
export const RECENT_RULES = 50;
/** A fill this close to the positions snapshot may not be in it yet (two clocks). */
const CLOCK_MARGIN_MS = 2000;
const MINUTE_MS = 60_000;
/**
 * The polling interval a preview assumes when the caller has none: freshness does not change
 * whether a condition holds, only whether the guardian may act on it yet.
 */
const PREVIEW_POLL_MS = 3500;

export const DEFAULT_GUARD_LIMITS: GuardLimits = { closes: 10, contracts: null, stake: null };

export const LIMIT_MESSAGE =
  'The daily limit on automatic closes is reached: it fires again tomorrow, or once you raise the limit.';
export const BUDGET_MESSAGE =
  'The exchange’s order budget is spent: the close is sent as soon as the budget allows.';

/** Local midnight of the day `at` falls in: where "today" starts for the daily limits. */
export function localMidnight(at: number): number {
  const d = new Date(at);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

export class GuardBook {
  readonly store: Store;
  readonly now: () => number;

  constructor(opts: GuardBookOptions) {
    this.store = opts.store;
    this.now = opts.now ?? Date.now;
  }

  /** The account's rules with how far each is from firing, the pause, limits and today's use. */
  view(accountId: number, ctx: GuardViewContext): GuardsView {
    const now = this.now();
    const figures = new FigureSnapshot(this.store, accountId, ctx.pollMs, now);
    const judged = this.store.guards
      .live(accountId)
      .map((rule) => ({ rule, judgement: judge(rule, figures.figures(rule)) }));
    return this.viewOf(accountId, ctx, judged, now);
  }

  /**
   * The view of rules already judged; `holdMessages` overrides the words of a rule's hold (the
   * guardian knows when a spent budget lets it send).
   */
  viewOf(
    accountId: number,
    ctx: GuardViewContext,
    judged: readonly JudgedRule[],
    now: number,
    holdMessages?: ReadonlyMap<number, string>,
  ): GuardsView {
    const pause = this.paused();
    const fixture = fixtureLookup(this.store, accountId);
    const live = judged.map(({ rule, judgement }) =>
      ruleView(rule, judgement, fixture, ctx.bridgeId, pause.paused, holdMessages),
    );
    const ended = this.store.guards
      .recent(accountId, RECENT_RULES)
      .map((rule) => ruleView(rule, undefined, fixture, ctx.bridgeId, false));
    const used = this.store.guards.usedSince(accountId, localMidnight(now));
    return {
      accountId: ctx.bridgeId,
      paused: pause.paused,
      pausedAt: pause.at,
      readOnly: this.#readOnly(accountId),
      limits: this.settings(accountId).limits,
      usedToday: {
        closes: used.closes,
        contracts: used.contracts,
        stake: fromMicros(used.stakeMicros),
      },
      rules: [...live, ...ended],
      at: now,
    };
  }

  /**
   * What arming `input` would do on the figures now, without arming it: each rule judged as the
   * guardian will judge it, and the sentence that would refuse the arm (null: none). The dialog
   * shows it before Arm is pressed; `arm` refuses on the same verdict.
   */
  check(accountId: number, input: ArmGuards, pollMs = PREVIEW_POLL_MS): GuardCheck {
    const rules = this.#preview(accountId, input, pollMs);
    let problem: string | null = null;
    try {
      this.#checkArm(accountId, input, this.now());
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      problem = err.message;
    }
    return { rules, problem };
  }

  /**
   * Arms rules on a position (or changes one: `replaces`). Refuses (Refusal) a read-only key,
   * a rule whose fields do not fit its kind, a position not held, a rule identical to one
   * armed, a time exit whose minutes have begun, and, unless `fireNow`, a rule that would fire
   * at once on the figures now (FiresNowRefusal); logs each `armed`.
   */
  arm(accountId: number, input: ArmGuards, pollMs = PREVIEW_POLL_MS): GuardRule[] {
    const contractId = input.contractId.toUpperCase();
    const outcome = input.outcome.toUpperCase();
    const now = this.now();
    const where = this.#checkArm(accountId, input, now);
    if (input.fireNow !== true) {
      const preview = this.#preview(accountId, input, pollMs);
      const i = preview.findIndex((p) => p.firesNow);
      const spec = input.rules[i];
      const p = preview[i];
      if (spec !== undefined && p !== undefined) throw new FiresNowRefusal(spec, p, where);
    }
    return this.store.transaction(() => {
      if (input.replaces !== undefined) {
        const old = this.store.guards.get(input.replaces);
        if (
          old === undefined ||
          old.accountId !== accountId ||
          old.contractId !== contractId ||
          old.outcome !== outcome
        ) {
          throw new Refusal('not-found', `There is no rule ${input.replaces} on ${where}.`);
        }
        if (old.state !== 'armed') {
          throw new Refusal(
            'conflict',
            `That ${ruleText(old.spec)} has already fired or ended, so it cannot be changed. Arm a new rule instead.`,
          );
        }
        this.#disarmOne(old, 'replaced by a changed rule', now);
      }
      return input.rules.map((spec) => {
        const rule = this.store.guards.arm(accountId, contractId, outcome, spec, now);
        this.store.guards.log({
          accountId,
          ruleId: rule.id,
          at: now,
          kind: spec.kind,
          contractId,
          outcome,
          event: 'armed',
          message: `Armed a ${ruleText(spec)} on ${where}.`,
        });
        return rule;
      });
    });
  }

  /** Every refusal of `arm` but the figures' verdict; returns the position in words. */
  #checkArm(accountId: number, input: ArmGuards, now: number): string {
    const contractId = input.contractId.toUpperCase();
    const outcome = input.outcome.toUpperCase();
    if (this.#readOnly(accountId)) {
      throw new Refusal(
        'conflict',
        'This account’s API key may only read, so no guardian can be armed: a guardian closes a position by selling it, which needs a key with trade permission. Add one in Accounts.',
      );
    }
    for (const spec of input.rules) checkSpec(spec);
    const name = fixtureName(this.store, accountId, contractId);
    const where = positionText(outcome, name);
    const boosted = this.#heldOrBought(accountId, contractId, outcome, where);
    const others = this.store.guards
      .live(accountId)
      .filter(
        (r) => r.contractId === contractId && r.outcome === outcome && r.id !== input.replaces,
      )
      .map((r) => r.spec);
    input.rules.forEach((spec, i) => {
      if (spec.kind === 'knockout' && !boosted) {
        throw new Refusal(
          'conflict',
          `A knockout guard needs a boosted bet, and ${where} has no knockout. Choose a stop loss or a trailing stop instead.`,
        );
      }
      if (spec.kind === 'time_exit') {
        this.#checkKickOff(accountId, contractId, name, spec.minutes ?? 0, now);
      }
      const twin = [...others, ...input.rules.slice(0, i)].find((o) => sameGuard(o, spec));
      if (twin !== undefined) {
        throw new Refusal(
          'conflict',
          `A ${ruleText(twin)} is already armed on ${where}: the same rule twice would never act twice. Change that one, or choose another figure.`,
        );
      }
    });
    return where;
  }

  /** Each rule of `input` judged on the figures now, as the guardian will judge it once armed. */
  #preview(accountId: number, input: ArmGuards, pollMs: number): GuardPreview[] {
    const contractId = input.contractId.toUpperCase();
    const outcome = input.outcome.toUpperCase();
    const figures = new FigureSnapshot(this.store, accountId, pollMs, this.now());
    const position = figures.position(contractId, outcome);
    return input.rules.map((spec) => {
      const j = judge({ spec, best: null }, figures.figures({ contractId, outcome, spec }));
      const firesNow = j.now !== null && j.holds;
      // A knockout guard's sale closes its share of the boosted contracts (boosted.ts).
      const contracts =
        position === undefined
          ? null
          : spec.kind === 'knockout'
            ? (storedKnockoutSale(this.store, accountId, position, spec.sharePercent)?.contracts ??
              null)
            : closeSize(position, spec.sharePercent).contracts;
      return {
        firesNow,
        distance: j.distance,
        contracts: firesNow ? contracts : null,
        observedAt: j.observedAt,
      };
    });
  }

  /** Disarms one rule, or every live rule of a position; logs each `disarmed` with `reason`. */
  disarm(accountId: number, input: DisarmGuards, reason = 'disarmed by you'): GuardRule[] {
    const now = this.now();
    return this.store.transaction(() => {
      if (input.ruleId !== undefined) {
        const rule = this.store.guards.get(input.ruleId);
        if (rule === undefined || rule.accountId !== accountId) {
          throw new Refusal('not-found', `There is no rule ${input.ruleId} on this account.`);
        }
        if (rule.state === 'firing') {
          throw new Refusal(
            'conflict',
            'This rule has fired and its close is being sent, so it can no longer be disarmed.',
          );
        }
        if (rule.state !== 'armed') return [];
        return this.#disarmOne(rule, reason, now) ? [rule] : [];
      }
      if (input.contractId === undefined || input.outcome === undefined) {
        throw new Refusal(
          'invalid-input',
          'Say which rule to disarm (ruleId), or which position (contractId and outcome).',
        );
      }
      const contractId = input.contractId.toUpperCase();
      const outcome = input.outcome.toUpperCase();
      return this.store.guards
        .live(accountId)
        .filter((r) => r.state === 'armed' && r.contractId === contractId && r.outcome === outcome)
        .filter((r) => this.#disarmOne(r, reason, now));
    });
  }

  /** Whether every rule is held, and since when. */
  paused(): { paused: boolean; at: number | null } {
    const raw = this.store.settings.get(PAUSED_KEY);
    if (raw === undefined) return { paused: false, at: null };
    try {
      const v = JSON.parse(raw) as { paused?: unknown; at?: unknown };
      const paused = v.paused === true;
      return { paused, at: paused && typeof v.at === 'number' ? v.at : null };
    } catch {
      return { paused: false, at: null };
    }
  }

  setPaused(paused: boolean): { paused: boolean; at: number | null } {
    const before = this.paused();
    if (before.paused === paused) return before;
    const next = { paused, at: paused ? this.now() : null };
    this.store.settings.set(PAUSED_KEY, JSON.stringify(next));
    return next;
  }

  settings(accountId: number): GuardSettings {
    const raw = this.store.settings.get(accountSettingKey('guards', accountId));
    const out: GuardSettings = { limits: { ...DEFAULT_GUARD_LIMITS }, defaults: [] };
    if (raw === undefined) return out;
    try {
      const v = JSON.parse(raw) as Partial<GuardSettings>;
      if (v.limits !== undefined) out.limits = { ...out.limits, ...v.limits };
      if (Array.isArray(v.defaults)) out.defaults = v.defaults;
    } catch {
      // A damaged setting reads as the defaults; configure() writes it again.
    }
    return out;
  }

  configure(accountId: number, settings: GuardSettings): GuardSettings {
    for (const spec of settings.defaults) checkSpec(spec);
    if (settings.limits.stake !== null && new Dec(settings.limits.stake).lte(0)) {
      throw new Refusal(
        'invalid-input',
        'A daily stake limit is an amount above $0; leave it empty for none.',
      );
    }
    const next: GuardSettings = {
      limits: { ...settings.limits },
      defaults: settings.defaults.map((s) => ({ ...s })),
    };
    this.store.settings.set(accountSettingKey('guards', accountId), JSON.stringify(next));
    return next;
  }

  /** The guardian log, newest first, as the screen shows it. */
  log(accountId: number, bridgeId: string | null, query: GuardLogQuery): GuardLogPage {
    const page = this.store.guards.logPage(accountId, query);
    const names = new Map<string, string>();
    const nameOf = (contractId: string): string => {
      let n = names.get(contractId);
      if (n === undefined)
        names.set(contractId, (n = fixtureName(this.store, accountId, contractId)));
      return n;
    };
    return {
      rows: page.rows.map((r) => ({
        id: r.id,
        at: r.at,
        accountId: bridgeId,
        ruleId: r.ruleId,
        kind: r.kind,
        contractId: r.contractId,
        outcome: r.outcome,
        fixture: nameOf(r.contractId),
        event: r.event,
        hold: r.hold,
        message: r.message,
        observation: r.observation,
        contracts: r.contracts,
        clientOrderId: r.clientOrderId,
        orderId: r.orderId,
        errorCode: r.errorCode,
      })),
      total: page.total,
      limit: query.limit,
      offset: query.offset,
    };
  }

  // ------------------------------------------------------------------ helpers

  #readOnly(accountId: number): boolean {
    return this.store.accounts.get(accountId)?.permission === 'read';
  }

  #disarmOne(rule: GuardRule, reason: string, at: number): boolean {
    if (!this.store.guards.finish(rule.id, ['armed'], 'disarmed', at, reason)) return false;
    const name = fixtureName(this.store, rule.accountId, rule.contractId);
    this.store.guards.log({
      accountId: rule.accountId,
      ruleId: rule.id,
      at,
      kind: rule.spec.kind,
      contractId: rule.contractId,
      outcome: rule.outcome,
      event: 'disarmed',
      message: `Disarmed the ${ruleText(rule.spec)} on ${positionText(rule.outcome, name)}: ${reason}.`,
    });
    return true;
  }

  /**
   * The position is held, or a BUY of it is open or filled after the last positions snapshot
   * (the slip's "Protect this bet" right after placing); refuses in words otherwise. Returns
   * whether it is boosted.
   */
  #heldOrBought(accountId: number, contractId: string, outcome: string, where: string): boolean {
    const held = this.store.positions
      .list(accountId, { contractId, team: outcome })
      .find((p) => p.outcome === outcome && p.contracts > 0);
    if (held) return held.boosted;
    const snapshotAt = this.store.cursors.get(accountId, 'positions')?.lastSyncAt ?? null;
    const orders = this.store.orders
      .list(accountId, { contractId, team: outcome, side: 'BUY', limit: 50 })
      .orders.filter(
        (o) =>
          o.outcome === outcome &&
          (!isFinalStatus(o.status) ||
            (o.status === 'FILLED' &&
              (snapshotAt === null || o.updatedAt + CLOCK_MARGIN_MS >= snapshotAt))),
      );
    const intents = this.store.intents.listOpen(accountId).flatMap((i) => {
      const bet = (i.params as { bet?: BetOfIntent | null } | null)?.bet;
      return i.state !== 'failed' &&
        bet?.side === 'BUY' &&
        bet.contractId?.toUpperCase() === contractId &&
        bet.outcome?.toUpperCase() === outcome
        ? [bet]
        : [];
    });
    if (orders.length === 0 && intents.length === 0) {
      throw new Refusal(
        'conflict',
        `You hold nothing on ${where}, and no bet on it is open: a guardian protects a position you hold.`,
      );
    }
    return orders.some((o) => o.boost > 0) || intents.some((b) => (b.boost ?? 0) > 0);
  }

  /**
   * A time exit needs its minutes still to come: one armed 30 minutes before a kick-off 10
   * minutes away would close at once, which is not what "30 minutes before" asks.
   */
  #checkKickOff(
    accountId: number,
    contractId: string,
    name: string,
    minutes: number,
    now: number,
  ): void {
    const f = this.store.fixtures.get(accountId, contractId);
    if (f === undefined || f.startsAt - minutes * MINUTE_MS > now) return;
    if (f.startsAt <= now) {
      throw new Refusal(
        'conflict',
        `${name} has kicked off, so a time exit before kick-off cannot fire. Close it yourself, or choose another rule.`,
      );
    }
    const left = Math.floor((f.startsAt - now) / MINUTE_MS);
    throw new Refusal(
      'conflict',
      `${name} kicks off in ${left < 1 ? 'less than a minute' : minutesText(left)}, sooner than this time exit’s ${minutesText(minutes)}: it would close at once. Choose fewer minutes, or close it yourself.`,
    );
  }
}

/**
 * An arm refused because a rule would fire at once on the figures now: the app's dialog says so
 * before Arm and sends `fireNow` when the user means it; the CLI asks for `--now`.
 */
export class FiresNowRefusal extends Refusal {
  constructor(spec: GuardSpec, preview: GuardPreview, where: string) {
    const sells = preview.contracts === null ? '' : ` and sell ${contractsText(preview.contracts)}`;
    super(
      'conflict',
      `On the figures now, the ${ruleText(spec)} on ${where} would fire at once (${preview.distance ?? 'its condition holds'})${sells}. Arm it only if you mean it to close now.`,
    );
    this.name = 'FiresNowRefusal';
  }
}

interface BetOfIntent {
  contractId?: string;
  outcome?: string;
  side?: string;
  boost?: number;
}

/** Decimal text for the view: percentages to 2 places, prices to 4, minutes whole. */
function figureText(kind: GuardSpec, value: Dec | null): string | null {
  if (value === null) return null;
  if (kind.kind === 'time_exit') return value.toFixed(0);
  if (kind.kind === 'trailing_stop' || kind.price !== undefined) return value.toFixed(4);
  return value.toFixed(2);
}

function viewHold(
  rule: GuardRule,
  j: Judgement | undefined,
  paused: boolean,
  messages: ReadonlyMap<number, string> | undefined,
): { hold: GuardHold | null; message: string | null } {
  if (rule.state !== 'armed' || j === undefined) return { hold: null, message: null };
  if (paused) return { hold: 'paused', message: HOLD_MESSAGES.paused };
  if (j.now === null) {
    return rule.positionSeen
      ? { hold: 'stale', message: HOLD_MESSAGES.stale }
      : { hold: 'position', message: HOLD_MESSAGES.position };
  }
  if (!j.fresh) return { hold: 'stale', message: HOLD_MESSAGES.stale };
  if (rule.hold === 'limit' || rule.hold === 'budget') {
    return {
      hold: rule.hold,
      message: messages?.get(rule.id) ?? (rule.hold === 'limit' ? LIMIT_MESSAGE : BUDGET_MESSAGE),
    };
  }
  return { hold: null, message: null };
}

function ruleView(
  rule: GuardRule,
  j: Judgement | undefined,
  fixture: (contractId: string) => GuardRuleView['fixture'],
  bridgeId: string | null,
  paused: boolean,
  holdMessages?: ReadonlyMap<number, string>,
): GuardRuleView {
  const { hold, message } = viewHold(rule, j, paused, holdMessages);
  const best = j?.best ?? rule.best;
  return {
    id: rule.id,
    accountId: bridgeId,
    contractId: rule.contractId,
    outcome: rule.outcome,
    fixture: fixture(rule.contractId),
    spec: rule.spec,
    state: rule.state,
    armedAt: rule.armedAt,
    stateAt: rule.stateAt,
    reason: rule.reason,
    best: rule.spec.kind === 'trailing_stop' && best !== null ? new Dec(best).toFixed(4) : null,
    streak: rule.streak,
    now: figureText(rule.spec, j?.now ?? null),
    firesAt: figureText(rule.spec, j?.firesAt ?? null),
    distance: j?.distance ?? null,
    hold,
    holdMessage: message,
    clientOrderId: rule.clientOrderId,
    orderId: rule.orderId,
    contracts: rule.contracts,
  };
}
