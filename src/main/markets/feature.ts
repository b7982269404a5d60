/**
 * The markets screen and quoting: the active account's fixtures read from the store (so markets
 * show while the exchange is away) and quotes through the active session's trading service.
 */
import type { FixturesService, QuotesService } from '../ipc/services.js';
import type { Store } from '../store/index.js';
import type { ActiveAccount } from '../root/active.js';
import type { FixtureBoard } from './board.js';
import { refusing } from '../app/refusals.js';

export interface MarketsContext {
  store: Store;
  active: ActiveAccount;
  /** The active account's fixtures (the starting account's until its session is up). */
  board: FixtureBoard;
}

export function marketServices(ctx: MarketsContext): {
  fixtures: FixturesService;
  quotes: QuotesService;
} {
  const { store, active } = ctx;
  return {
    fixtures: {
      list: (filter) => {
        // When the fixtures shown were last read from their own account's exchange.
        const id = ctx.board.accountId;
        const read = id === undefined ? undefined : store.cursors.get(id, 'fixtures');
        return Promise.resolve(ctx.board.page(filter, read?.lastSyncAt ?? null));
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
