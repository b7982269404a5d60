/** Guardian rules, views and log rows as main sends them, with defaults a test overrides. */
import type {
  GuardLogRow,
  GuardRuleView,
  GuardSettings,
  GuardSpec,
  GuardsView,
} from '../../src/shared/ipc/contract.js';
import { NOW, fixtureRef } from './rows.js';

export function guardSpec(over: Partial<GuardSpec> = {}): GuardSpec {
  return { kind: 'knockout', percent: '5', sharePercent: 100, confirmations: 1, ...over };
}

export function guardRule(over: Partial<GuardRuleView> = {}): GuardRuleView {
  return {
    id: 1,
    accountId: null,
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    fixture: fixtureRef(),
    spec: guardSpec(),
    state: 'armed',
    armedAt: NOW - 60_000,
    stateAt: NOW - 60_000,
    reason: null,
    best: null,
    streak: 0,
    now: '8.2',
    firesAt: '5',
    distance: '3.2 % away',
    hold: null,
    holdMessage: null,
    clientOrderId: null,
    orderId: null,
    contracts: null,
    ...over,
  };
}

export function guardsView(
  rules: GuardRuleView[] = [],
  over: Partial<GuardsView> = {},
): GuardsView {
  return {
    accountId: null,
    paused: false,
    pausedAt: null,
    readOnly: false,
    limits: { closes: 10, contracts: null, stake: null },
    usedToday: { closes: 1, contracts: 4, stake: '2.04' },
    rules,
    at: NOW,
    ...over,
  };
}

export function guardSettings(defaults: GuardSpec[] = []): GuardSettings {
  return { limits: { closes: 10, contracts: null, stake: null }, defaults };
}

export function guardLogRow(over: Partial<GuardLogRow> = {}): GuardLogRow {
  return {
    id: 1,
    at: NOW,
    accountId: null,
    ruleId: 1,
    kind: 'knockout',
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    fixture: 'ARS v CHE',
    event: 'filled',
    hold: null,
    message: 'The close filled: 10 contracts sold at 0.4410.',
    observation: {
      at: NOW - 2_000,
      closingPrice: '0.4410',
      indexPrice: '0.4200',
      pnl: '-0.59',
      pnlPercent: '-11.57',
      contracts: 10,
    },
    contracts: 10,
    clientOrderId: 'bd-guard-1',
    orderId: '0xfeed',
    errorCode: null,
    ...over,
  };
}
