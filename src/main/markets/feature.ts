/**
 * The markets screen and quoting: the active account's fixtures read from the store (so markets
 * show while the exchange is away) and quotes through the active session's trading service.
 */
import { betInput } from '../desk/placement.js';
import { withSession, type Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { FixtureBoard } from './board.js';

export type MarketsChannel = 'fixtures:list' | 'quote:request';

export interface MarketsContext {
  active: ActiveAccount;
  /** The active account's fixtures (the starting account's until its session is up). */
  board: FixtureBoard;
}

export function marketsFeature(ctx: MarketsContext): Handlers<MarketsChannel> {
  const { active, board } = ctx;
  return {
    'fixtures:list': (filter) => Promise.resolve(board.page(filter)),
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
