/**
 * The markets screen and quoting: fixtures read from the store (so markets show while the
 * exchange is away) and quotes through the active session's trading service.
 */
import type { FixturesService, QuotesService } from '../ipc/services.js';
import type { Store } from '../store/index.js';
import type { ActiveAccount } from './active.js';
import type { FixtureBoard } from './fixtures.js';
import { refusing } from './refusals.js';

export interface MarketsContext {
  store: Store;
  active: ActiveAccount;
  board: FixtureBoard;
  /** The store id whose fixtures cursor dates the markets until the first session is up. */
  startingId: number | undefined;
}

export function marketServices(ctx: MarketsContext): {
  fixtures: FixturesService;
  quotes: QuotesService;
} {
  const { store, active } = ctx;
  return {
    fixtures: {
      list: (filter) => {
        const s = active.session;
        const id = s?.accountId ?? ctx.startingId;
        const syncedAt =
          (id !== undefined ? store.cursors.get(id, 'fixtures')?.lastSyncAt : undefined) ??
          s?.engine.status().lastSyncAt ??
          null;
        return Promise.resolve(ctx.board.page(filter, syncedAt));
      },
    },
    quotes: {
      request: (input) =>
        refusing(async () => {
          const s = await active.started();
          const live = await s.trading.quote({
            contractId: input.contractId,
            outcome: input.outcome,
            side: input.side,
            qty: input.qty,
            unit: input.unit,
            ...(input.side === 'BUY' ? { boost: input.boost } : {}),
          });
          return {
            quote: live.quote,
            clockOffsetMs: Math.round(s.client.clockOffsetMs),
            receivedAt: Date.now(),
          };
        }),
    },
  };
}
