/**
 * The sentences `guard list` and `guard add` say on standard error beside their JSON: what a
 * rule does, in the words of docs/guardians.md, and where it stands.
 */
import type { GuardKind, GuardRuleView, GuardSpec } from '../../../shared/ipc/contract.js';

const KIND_WORDS: Record<GuardKind, string> = {
  knockout: 'knockout guard',
  stop_loss: 'stop loss',
  take_profit: 'take profit',
  trailing_stop: 'trailing stop',
  time_exit: 'time exit',
};

/** "stop loss at -10 % P&L, closes 50 % after 2 fresh observations". */
export function specWords(spec: GuardSpec): string {
  const when = conditionWords(spec);
  const share = spec.sharePercent === 100 ? 'closes it all' : `closes ${spec.sharePercent} %`;
  const confirm =
    spec.confirmations > 1 ? ` after ${spec.confirmations} fresh observations in a row` : '';
  return `${KIND_WORDS[spec.kind]}${when ? ` ${when}` : ''}, ${share}${confirm}`;
}

function conditionWords(spec: GuardSpec): string {
  switch (spec.kind) {
    case 'knockout':
      return spec.percent !== undefined ? `within ${spec.percent} % of the knockout` : '';
    case 'stop_loss':
      if (spec.price !== undefined) return `at a closing price of ${spec.price} or below`;
      return spec.percent !== undefined ? `at -${spec.percent} % P&L` : '';
    case 'take_profit':
      if (spec.price !== undefined) return `at a closing price of ${spec.price} or above`;
      return spec.percent !== undefined ? `at +${spec.percent} % P&L` : '';
    case 'trailing_stop':
      return spec.percent !== undefined
        ? `${spec.percent} % below the best closing price since armed`
        : '';
    case 'time_exit':
      return spec.minutes !== undefined ? `${spec.minutes} min before kick-off` : '';
  }
}

/** "Rule 12 on ARS v CHE (ARS): stop loss at -10 % P&L, closes it all; armed, 2.4 % above." */
export function ruleLine(rule: GuardRuleView): string {
  const fixture = rule.fixture
    ? `${rule.fixture.homeTeam} v ${rule.fixture.awayTeam}`
    : rule.contractId;
  const state =
    rule.state === 'firing'
      ? `closing${rule.contracts !== null ? ` ${rule.contracts} contracts` : ''}` +
        (rule.clientOrderId !== null ? ` (order ${rule.clientOrderId})` : '')
      : rule.state;
  const distance = rule.distance !== null ? `, ${rule.distance}` : '';
  const hold = rule.holdMessage !== null ? ` Held: ${rule.holdMessage}` : '';
  return `Rule ${rule.id} on ${fixture} (${rule.outcome}): ${specWords(rule.spec)}; ${state}${distance}.${hold}`;
}
