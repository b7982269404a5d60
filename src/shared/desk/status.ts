/**
 * An order row's status as people read it, and the groups the blotter filters by. The lists are
 * spelled here again rather than imported from the TypeBox schemas so the renderer does not ship
 * TypeBox; `satisfies` keeps them equal to the contract's.
 */
import type { OrderRowStatus, OrderStatusGroup } from '../ipc/schemas/desk.js';

/** The words the slip and the blotter show for each status. */
export const ORDER_STATUS_WORDS = {
  SENDING: 'Sending…',
  CHECKING: 'Checking…',
  CLAIMED: 'Claimed',
  SUBMITTED: 'Submitted',
  OPEN: 'Open',
  FILLED: 'Filled',
  CANCELED: 'Canceled',
  EXPIRED: 'Expired',
  REJECTED: 'Rejected',
  FAILED: 'Failed',
  NOT_PLACED: 'Not placed',
} as const satisfies Record<OrderRowStatus, string>;

export const STATUS_GROUP_OF = {
  SENDING: 'working',
  CHECKING: 'working',
  CLAIMED: 'working',
  SUBMITTED: 'working',
  OPEN: 'working',
  FILLED: 'filled',
  CANCELED: 'canceled',
  EXPIRED: 'canceled',
  REJECTED: 'rejected',
  FAILED: 'rejected',
  NOT_PLACED: 'not_placed',
} as const satisfies Record<OrderRowStatus, OrderStatusGroup>;

export const STATUS_GROUP_WORDS = {
  working: 'Working',
  filled: 'Filled',
  canceled: 'Canceled or expired',
  rejected: 'Rejected or failed',
  not_placed: 'Not placed',
} as const satisfies Record<OrderStatusGroup, string>;

export const STATUS_GROUPS = Object.keys(STATUS_GROUP_WORDS) as OrderStatusGroup[];

/** Nothing will change this row any more. */
export function isFinalRowStatus(status: OrderRowStatus): boolean {
  return STATUS_GROUP_OF[status] !== 'working';
}

/** Its fate is not known yet: placing the same bet again now could make it a double bet. */
export function isFateUnknown(status: OrderRowStatus): boolean {
  return status === 'SENDING' || status === 'CHECKING';
}

/** Ranks a status for "which of two copies of a row is newer": a final status always wins. */
function rank(status: OrderRowStatus): number {
  if (isFinalRowStatus(status)) return 3;
  if (status === 'SENDING' || status === 'CHECKING') return 1;
  return 2;
}

/** The later of two copies of one order row (a push and a reply may arrive in either order). */
export function newerRow<R extends { status: OrderRowStatus; updatedAt: number }>(a: R, b: R): R {
  const ra = rank(a.status);
  const rb = rank(b.status);
  if (ra !== rb) return ra > rb ? a : b;
  return b.updatedAt >= a.updatedAt ? b : a;
}
