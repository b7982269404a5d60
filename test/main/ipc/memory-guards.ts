/**
 * The guardians of the in-memory services: a small real book of rules and a guardian log, so
 * the renderer's component tests and screenshots have something to show. Arming, changing
 * (replaces), disarming, pausing and the settings behave as main's GuardBook promises
 * (docs/guardians.md); nothing here evaluates a rule: a test moves a rule with `update`.
 */
import type {
  ArmGuards,
  DisarmGuards,
  FixtureRef,
  GuardLogQuery,
  GuardLogRow,
  GuardLogPage,
  GuardRuleView,
  GuardSettings,
  GuardsView,
} from '../../../src/shared/ipc/contract.js';
import { Refusal } from '../../../src/main/refusal.js';

export interface MemoryGuardsPorts {
  /** The active account, null in paper mode. */
  account(): string | null;
  /** The key may only read. */
  readOnly(): boolean;
  /** The fixture of a contract, when the services know it. */
  fixture(contractId: string): FixtureRef | null;
  /** Tells the renderers (`guards:changed`). */
  changed(view: GuardsView): void;
  now(): number;
}

const LIVE: readonly GuardRuleView['state'][] = ['armed', 'firing'];

export class MemoryGuards {
  rules: GuardRuleView[] = [];
  log: GuardLogRow[] = [];
  settings: GuardSettings = {
    limits: { closes: 10, contracts: null, stake: null },
    defaults: [],
  };
  paused = false;
  pausedAt: number | null = null;
  usedToday = { closes: 0, contracts: 0, stake: '0' };
  readonly #ports: MemoryGuardsPorts;
  #nextRule = 1;
  #nextLog = 1;

  constructor(ports: MemoryGuardsPorts) {
    this.#ports = ports;
  }

  view(): GuardsView {
    const live = this.rules.filter((r) => LIVE.includes(r.state));
    const ended = this.rules
      .filter((r) => !LIVE.includes(r.state))
      .sort((a, b) => b.stateAt - a.stateAt)
      .slice(0, 50);
    return {
      accountId: this.#ports.account(),
      paused: this.paused,
      pausedAt: this.pausedAt,
      readOnly: this.#ports.readOnly(),
      limits: this.settings.limits,
      usedToday: { ...this.usedToday },
      rules: [...live, ...ended],
      at: this.#ports.now(),
    };
  }

  arm(input: ArmGuards): GuardsView {
    if (this.#ports.readOnly()) {
      throw new Refusal(
        'invalid-input',
        'This account’s key may only read, so no guardian can be armed on it',
      );
    }
    const at = this.#ports.now();
    if (input.replaces !== undefined) this.#end(input.replaces, 'disarmed', 'Changed by you.');
    for (const spec of input.rules) {
      const rule: GuardRuleView = {
        id: this.#nextRule++,
        accountId: this.#ports.account(),
        contractId: input.contractId,
        outcome: input.outcome,
        fixture: this.#ports.fixture(input.contractId),
        spec,
        state: 'armed',
        armedAt: at,
        stateAt: at,
        reason: null,
        best: null,
        streak: 0,
        now: null,
        firesAt: null,
        distance: null,
        hold: null,
        holdMessage: null,
        clientOrderId: null,
        orderId: null,
        contracts: null,
      };
      this.rules.push(rule);
      this.addLog(rule, 'armed', 'Armed by you.');
    }
    return this.#changed();
  }

  disarm(input: DisarmGuards): GuardsView {
    const which = this.rules.filter(
      (r) =>
        r.state === 'armed' &&
        (input.ruleId !== undefined
          ? r.id === input.ruleId
          : r.contractId === input.contractId &&
            (input.outcome === undefined || r.outcome === input.outcome)),
    );
    for (const r of which) this.#end(r.id, 'disarmed', 'Disarmed by you.');
    return this.#changed();
  }

  pause(paused: boolean): GuardsView {
    this.paused = paused;
    this.pausedAt = paused ? this.#ports.now() : null;
    return this.#changed();
  }

  configure(settings: GuardSettings): GuardSettings {
    this.settings = settings;
    this.#changed();
    return settings;
  }

  page(query: GuardLogQuery): GuardLogPage {
    const rows = this.log
      .filter(
        (r) =>
          (query.event === undefined || r.event === query.event) &&
          (query.kind === undefined || r.kind === query.kind) &&
          (query.ruleId === undefined || r.ruleId === query.ruleId) &&
          (query.contractId === undefined || r.contractId === query.contractId) &&
          (query.from === undefined || r.at >= query.from) &&
          (query.to === undefined || r.at < query.to),
      )
      .sort((a, b) => b.at - a.at || b.id - a.id);
    return {
      rows: rows.slice(query.offset, query.offset + query.limit),
      total: rows.length,
      limit: query.limit,
      offset: query.offset,
    };
  }

  /** Moves a rule as the guardian would (a distance, a hold, firing, failed) and tells. */
  update(ruleId: number, change: Partial<GuardRuleView>): GuardsView {
    this.rules = this.rules.map((r) =>
      r.id === ruleId ? { ...r, ...change, stateAt: this.#ports.now() } : r,
    );
    return this.#changed();
  }

  /** Writes a log row about `rule`; `more` adds the observation, the order, the hold. */
  addLog(
    rule: Pick<GuardRuleView, 'id' | 'accountId' | 'contractId' | 'outcome' | 'fixture' | 'spec'>,
    event: GuardLogRow['event'],
    message: string,
    more: Partial<GuardLogRow> = {},
  ): GuardLogRow {
    const row: GuardLogRow = {
      id: this.#nextLog++,
      at: this.#ports.now(),
      accountId: rule.accountId,
      ruleId: rule.id,
      kind: rule.spec.kind,
      contractId: rule.contractId,
      outcome: rule.outcome,
      fixture: rule.fixture
        ? `${rule.fixture.homeTeam} v ${rule.fixture.awayTeam}`
        : rule.contractId,
      event,
      hold: null,
      message,
      observation: null,
      contracts: null,
      clientOrderId: null,
      orderId: null,
      errorCode: null,
      ...more,
    };
    this.log.push(row);
    return row;
  }

  #end(ruleId: number, state: GuardRuleView['state'], reason: string): void {
    const rule = this.rules.find((r) => r.id === ruleId);
    if (!rule || !LIVE.includes(rule.state)) return;
    Object.assign(rule, { state, reason, stateAt: this.#ports.now(), hold: null });
    this.addLog(rule, state === 'disarmed' ? 'disarmed' : 'ended', reason);
  }

  #changed(): GuardsView {
    const view = this.view();
    this.#ports.changed(view);
    return view;
  }
}
