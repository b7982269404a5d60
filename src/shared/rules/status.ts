/**
 * An order row's status as people read it, and the groups the blotter filters by. The lists are
 * spelled here again rather than imported from the TypeBox schemas so the renderer does not ship
 * TypeBox; `satisfies` keeps them equal to the contract's.
 */
import type { OrderRowStatus, OrderStatusGroup } from '../ipc/schemas/desk.js';

/** Each status: the words the slip and the blotter show, and the group the blotter files it in. */
const STATUS_TABLE = {
  SENDING: ['Sending…', 'working'],
  CHECKING: ['Checking…', 'working'],
  CLAIMED: ['Claimed', 'working'],
  SUBMITTED: ['Submitted', 'working'],
  OPEN: ['Open', 'working'],
  FILLED: ['Filled', 'filled'],
  CANCELED: ['Canceled', 'canceled'],
  EXPIRED: ['Expired', 'canceled'],
  REJECTED: ['Rejected', 'rejected'],
  FAILED: ['Failed', 'rejected'],
  NOT_PLACED: ['Not placed', 'not_placed'],
} as const satisfies Record<OrderRowStatus, readonly [string, OrderStatusGroup]>;

type StatusRow = (typeof STATUS_TABLE)[OrderRowStatus];

/** One column of the table, by status. */
function column<V>(pick: (row: StatusRow) => V): Readonly<Record<OrderRowStatus, V>> {
  const out = {} as Record<OrderRowStatus, V>;
  for (const status of Object.keys(STATUS_TABLE) as OrderRowStatus[]) {
    out[status] = pick(STATUS_TABLE[status]);
  }
  return out;
}

export const ORDER_STATUS_WORDS = column<string>(([words]) => words);
export const STATUS_GROUP_OF = column<OrderStatusGroup>(([, group]) => group);

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
