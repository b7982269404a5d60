/**
 * The markets screen and quoting: the active account's fixtures read from the store (so markets
 * show while the exchange is away) and quotes through the active session's trading service.
 */
import { betInput } from '../desk/placement.js';
import { withSession, type Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { Store } from '../store/index.js';
import type { FixtureBoard } from './board.js';

export type MarketsChannel = 'fixtures:list' | 'quote:request';

export interface MarketsContext {
  store: Store;
  active: ActiveAccount;
  /** The active account's fixtures (the starting account's until its session is up). */
  board: FixtureBoard;
}

export function marketsFeature(ctx: MarketsContext): Handlers<MarketsChannel> {
  const { store, active, board } = ctx;
  return {
    'fixtures:list': (filter) => {
      // When the fixtures shown were last read from their own account's exchange.
      const id = board.accountId;
      const read = id === undefined ? undefined : store.cursors.get(id, 'fixtures');
      return Promise.resolve(board.page(filter, read?.lastSyncAt ?? null));
    },
    'quote:request': withSession(active, async (s, input) => {
      const live = await s.trading.quote(betInput(input));
      return {
        quote: live.quote,
        clockOffsetMs: Math.round(s.client.clockOffsetMs),
        receivedAt: Date.now(),
      };
    }),
  };
}
