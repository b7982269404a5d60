/** Alerts as the alert centre raises them, for the shell's tests. */
import type {
  AlertKind,
  AlertRaised,
  AlertsSummary,
  AlertView,
} from '../../../src/shared/ipc/contract.js';

const MESSAGES: Record<AlertKind, string> = {
  near: 'Your boosted bet on ARS (ARS v CHE) is 4.31% above its knockout price of 0.4100.',
  knocked_out: 'Your boosted bet on ARS (ARS v CHE) was knocked out: 12 contracts lost.',
  filled: 'Your order for 25 ARS contracts (ARS v CHE) was filled at 0.5600.',
  rejected: 'Your order for ARS (ARS v CHE) was rejected: the transaction reverted.',
  guard: 'Guardian: the stop loss on ARS (ARS v CHE) fired and sold 12 contracts.',
};

export function alertView(kind: AlertKind, id = 1): AlertView {
  return {
    id,
    kind,
    accountId: null,
    account: 'Paper',
    contractId: 'EPL-ARSCHE-0001',
    outcome: 'ARS',
    fixture: 'ARS v CHE',
    message: MESSAGES[kind],
    createdAt: 1_800_000_000_000,
    read: false,
    ...(kind === 'near' || kind === 'knocked_out'
      ? { knockout: '0.4100', price: '0.4277' }
      : { orderId: '0x5c1e' }),
  };
}

/** The account on screen's counts; alone among the watched ones unless `everyAccount` says. */
export function alertsSummary(over: Partial<AlertsSummary> = {}): AlertsSummary {
  const { everyAccount, ...counts } = over;
  const own = { accountId: null, unread: 0, unreadDanger: 0, nearKnockout: 0, ...counts };
  return { ...own, everyAccount: everyAccount ?? [{ ...own, account: 'Paper' }] };
}

export function alertRaised(
  kind: AlertKind,
  notify = true,
  summary: AlertsSummary = alertsSummary({ unread: 1 }),
): AlertRaised {
  return { alert: alertView(kind), notify, summary };
}
