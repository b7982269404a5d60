/**
 * The exchange clock and its one timer. A SUBMITTED order has two events: its transaction hash
 * appears, then its block arrives (execution.ts). The timer is armed for the earliest event; every
 * event that is due runs when it fires, or when advanceClock moves the clock past it.
 */
import { badParameter } from './errors.js';
import { executeBlock, touchOrder } from './execution.js';
import type { OrderRec } from './model.js';
import { randomHex } from './rng.js';
import type { ExchangeState } from './state.js';

/** setTimeout's longest delay; the timer re-arms for an event further away when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function advanceClock(s: ExchangeState, ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) {
    throw badParameter('advanceMs: must be a non-negative number');
  }
  s.advancedMs += Math.floor(ms);
  s.store?.setMeta('advancedMs', String(s.advancedMs));
  catchUp(s);
}

/** Runs every event that is due, saves the state and arms the timer for the next event. */
export function catchUp(s: ExchangeState): void {
  runDue(s);
  s.persist();
  armTimer(s);
}

/** Queues a SUBMITTED order's events (its hash only while it has none). */
export function schedule(s: ExchangeState, rec: OrderRec): void {
  if (rec.order.tx === '') {
    s.events.push({ at: rec.txAt, seq: rec.seq, kind: 'tx', orderId: rec.order.orderId });
  }
  s.events.push({ at: rec.dueAt, seq: rec.seq, kind: 'block', orderId: rec.order.orderId });
}

/** Arms the timer for the earliest event, unless it is armed for that time already. */
export function armTimer(s: ExchangeState): void {
  if (s.closed) return;
  const next = s.events.peek();
  if (next === undefined) {
    if (s.timer !== undefined) clearTimeout(s.timer);
    s.timer = undefined;
    return;
  }
  if (s.timer !== undefined && s.timerAt === next.at) return;
  if (s.timer !== undefined) clearTimeout(s.timer);
  const delay = Math.min(MAX_TIMER_MS, Math.max(0, next.at - s.now()));
  s.timerAt = next.at;
  s.timer = setTimeout(() => {
    s.timer = undefined;
    if (s.closed) return;
    catchUp(s);
  }, delay);
  s.timer.unref();
}

/** Stops the timer and drops every queued event (the exchange is closing). */
export function stopClock(s: ExchangeState): void {
  if (s.timer !== undefined) clearTimeout(s.timer);
  s.timer = undefined;
  s.events.clear();
}

function runDue(s: ExchangeState): void {
  const now = s.now();
  for (let e = s.events.peek(); e !== undefined && e.at <= now; e = s.events.peek()) {
    s.events.pop();
    const rec = s.ordersById.get(e.orderId);
    if (rec === undefined || rec.order.status !== 'SUBMITTED') continue;
    if (e.kind === 'tx') {
      if (rec.order.tx === '') {
        rec.order.tx = `0x${randomHex(32)}`;
        touchOrder(s, rec);
      }
    } else {
      executeBlock(s, rec);
    }
  }
}
