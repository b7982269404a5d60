/**
 * An intent as the user sees it. The store keeps five states; "not placed" is a `failed` intent
 * with code -2025 (the exchange has no order for it: it never got there, or was found absent
 * after a restart).
 */
import type { OrderIntent } from '../store/index.js';
import { NOT_PLACED_CODE } from './outcome.js';

export interface IntentView {
  clientOrderId: string;
  state: 'pending' | 'sent' | 'unknown' | 'refused' | 'not_placed' | 'done';
  orderId: string | null;
  error: { code: number; message: string } | null;
  createdAt: number;
  updatedAt: number;
}

export function intentView(i: OrderIntent): IntentView {
  const state =
    i.state === 'failed'
      ? i.lastErrorCode === NOT_PLACED_CODE
        ? 'not_placed'
        : 'refused'
      : i.state;
  return {
    clientOrderId: i.clientOrderId,
    state,
    orderId: i.orderId,
    error:
      i.lastErrorCode !== null ? { code: i.lastErrorCode, message: i.lastErrorMsg ?? '' } : null,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}
