/**
 * The practice panel on the bridge: the sandbox's controls for the paper account, so a user can
 * rehearse a near knockout, a knockout, a closed market, a kick-off, a settlement and a rejection in a few
 * clicks. Every call is refused unless the active account is the paper account: a live account
 * never reaches the sandbox. After each change the account syncs at once, so the screens and
 * the knockout watch see it without waiting for the next poll.
 */
import { dec, price } from '../../shared/money.js';
import { knockoutDistance, percent } from '../alerts/distance.js';
import { fixtureName } from '../desk/rows.js';
import type { Handlers, SessionSource } from '../ipc/handler.js';
import { Refusal, sentence } from '../refusal.js';
import type { Store } from '../store/index.js';
import type { SyncStreamName } from '../sync/events.js';
import type { PracticeControls } from './paper.js';

export type PracticeChannel =
  'practice:price' | 'practice:close' | 'practice:kickoff' | 'practice:resolve' | 'practice:reject';

/** What practice needs of the active account's session. */
export interface PracticeSession {
  readonly isPaper: boolean;
  /** The paper account's store id: whose fixtures name the ones driven. */
  readonly accountId: number;
  readonly engine: { syncNow(...names: SyncStreamName[]): Promise<void> };
}

export interface PracticeContext {
  store: Store;
  /** The active session, once started. */
  active: SessionSource<PracticeSession>;
  /** The paper exchange's controls; undefined while paper mode was never started. */
  controls(): Promise<PracticeControls | undefined>;
}

export const PRACTICE_REFUSED =
  'Practice controls work only in paper mode. The active account is a live exchange account, which Betdesk never drives: switch to paper in Accounts to practise.';

export function practiceFeature(ctx: PracticeContext): Handlers<PracticeChannel> {
  async function drive<T>(
    change: (c: PracticeControls, session: PracticeSession) => T,
    streams: SyncStreamName[],
  ): Promise<T> {
    const session = await ctx.active.started();
    const controls = session.isPaper ? await ctx.controls() : undefined;
    if (!session.isPaper || controls === undefined) {
      throw new Refusal('conflict', PRACTICE_REFUSED);
    }
    let result: T;
    try {
      result = change(controls, session);
    } catch (err) {
      throw refusal(err);
    }
    if (streams.length > 0) session.engine.syncNow(...streams).catch(() => undefined);
    return result;
  }

  return {
    async 'practice:price'(input) {
      const p = dec(input.indexPrice);
      if (p.lte(0) || p.gte(1)) {
        throw new Refusal('invalid-input', 'An index price is above 0 and below 1, like 0.35.');
      }
      const outcome = input.outcome.toUpperCase();
      const { knockedOut, name, knockout } = await drive(
        (c, paper) => {
          // The boosted bet held on it, as stored before the move.
          const held = ctx.store.positions
            .list(paper.accountId, { contractId: input.contractId, team: outcome })
            .find((x) => x.boosted && x.knockout !== undefined);
          return {
            ...c.setPrice(input.contractId, outcome, input.indexPrice),
            name: fixtureName(ctx.store, paper.accountId, input.contractId),
            knockout: held?.knockout,
          };
        },
        ['fixtures', 'positions', 'settlements', 'orders'],
      );
      const out =
        knockedOut === 0
          ? ''
          : ` ${knockedOut} boosted position${knockedOut === 1 ? ' was' : 's were'} knocked out.`;
      // The distance on the index, as the knockout watch measures it (alerts/distance.ts).
      const distance = knockout !== undefined ? knockoutDistance(p, knockout) : null;
      const above =
        distance !== null && distance.gt(0)
          ? `, ${percent(distance)} above the knockout (${knockout}) of your boosted bet`
          : '';
      return { message: `${name}: ${outcome}’s index price is now ${price(p)}${above}.${out}` };
    },

    async 'practice:close'(input) {
      const f = await drive((c) => c.closeBetting(input.contractId), ['fixtures']);
      return { message: `Betting on ${f.homeTeam} v ${f.awayTeam} is now closed.` };
    },

    async 'practice:kickoff'(input) {
      const f = await drive((c) => c.kickoffIn(input.contractId, input.minutes), ['fixtures']);
      const when =
        input.minutes === 0 ? 'now' : `in ${input.minutes} minute${input.minutes === 1 ? '' : 's'}`;
      return { message: `${f.homeTeam} v ${f.awayTeam} now kicks off ${when}.` };
    },

    async 'practice:resolve'(input) {
      const winner = input.winner.toUpperCase();
      const f = await drive(
        (c) => c.resolve(input.contractId, winner),
        ['fixtures', 'positions', 'settlements'],
      );
      const how =
        winner === 'DRAW'
          ? 'ended in a draw: bets pay back their entry price'
          : `resolved: ${winner} won`;
      return { message: `${f.homeTeam} v ${f.awayTeam} ${how}. Every position on it settles.` };
    },

    async 'practice:reject'() {
      await drive((c) => c.rejectNextOrder(), []);
      return {
        message:
          'The next bet you place will be accepted and then rejected on chain (-2024), so you can see a rejection.',
      };
    },
  };
}

/** The sandbox's refusal of a practice call, in words (its codes name the field at fault). */
function refusal(err: unknown): unknown {
  if (err instanceof Error && err.name === 'ApiError') {
    return new Refusal('invalid-input', sentence(err.message));
  }
  return err;
}
