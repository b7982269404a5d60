/** AppStatus for the status bar: the engine's status, the clock offset and the rate budget. */
import type { AppStatus, RateBucket } from '../../shared/ipc/contract.js';
import type { BucketSnapshot, RateGovernor } from '../governor/index.js';
import type { AccountSession } from './session.js';

export function appStatus(session: AccountSession, governor: RateGovernor): AppStatus {
  const s = session.engine.status();
  return {
    mode: session.isPaper ? 'paper' : 'live',
    online: s.state !== 'offline',
    sync: { state: s.state, lastSyncAt: s.lastSyncAt, message: s.lastError },
    // The offset is measured on the first request; before any answer there is none to show.
    clockOffsetMs: s.lastSyncAt === null ? null : Math.round(session.client.clockOffsetMs),
    rateBudget: rateBudget(governor, session.governorName),
  };
}

function rateBudget(governor: RateGovernor, account: string): RateBucket[] {
  const snap = governor.snapshot();
  const own = snap.accounts[account];
  const bucket = (group: RateBucket['group'], b: BucketSnapshot): RateBucket => ({
    group,
    tokens: Math.max(0, b.tokens),
    capacity: b.capacity,
    queued: b.queued,
    blockedUntil: b.blockedUntil,
  });
  const out: RateBucket[] = [];
  if (own) {
    out.push(
      bucket('quotes', own.quotes),
      bucket('orders', own.orders),
      bucket('reads', own.reads),
      bucket('positions', own.positions),
    );
  }
  out.push(bucket('fixtures', snap.ip.fixtures));
  return out;
}
