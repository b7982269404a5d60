/**
 * The status bar: the active session's sync state, the exchange clock offset and the account's
 * rate budget; pausing and resuming sync.
 */
import type { AppStatus, RateBucket } from '../../shared/ipc/contract.js';
import type { BucketSnapshot, RateGovernor } from '../governor/index.js';
import { withSession, type Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { AccountSession } from '../root/session.js';

export type StatusChannel = 'status:get' | 'sync:pause' | 'sync:resume';

export function statusFeature(active: ActiveAccount): Handlers<StatusChannel> {
  return {
    'status:get': withSession(active, appStatus),
    'sync:pause': async () => appStatus(await active.pauseSync()),
    'sync:resume': async () => appStatus(await active.resumeSync()),
  };
}

export function appStatus(session: AccountSession): AppStatus {
  const s = session.engine.status();
  const { connection } = session;
  return {
    mode: session.isPaper ? 'paper' : 'live',
    online: s.state !== 'offline',
    sync: { state: s.state, lastSyncAt: s.lastSyncAt, message: s.lastError },
    // The offset is measured on the first request; before any answer there is none to show.
    clockOffsetMs: s.lastSyncAt === null ? null : Math.round(connection.client.clockOffsetMs),
    rateBudget: rateBudget(connection.governor, connection.governorName),
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
