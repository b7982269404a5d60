/**
 * Guardians on the bridge: arm, change, disarm, pause, limits and defaults, the log, each on the
 * active account's session. A change is judged at once by the session's guardian, which pushes
 * `guards:changed` to every window (docs/guardians.md).
 */
import type { GuardsView } from '../../shared/ipc/contract.js';
import { withSession, type Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { AccountSession } from '../root/session.js';
import type { GuardBook } from './book.js';

export type GuardChannel =
  | 'guards:list'
  | 'guards:arm'
  | 'guards:check'
  | 'guards:disarm'
  | 'guards:pause'
  | 'guards:settings'
  | 'guards:configure'
  | 'guards:log';

export interface GuardsContext {
  book: GuardBook;
  active: ActiveAccount;
}

/** Judges the session's rules after a change (pushing guards:changed), and answers the view. */
function judged(session: AccountSession): GuardsView {
  session.guardian.evaluate();
  return session.guardian.view();
}

export function guardsFeature(ctx: GuardsContext): Handlers<GuardChannel> {
  const { book, active } = ctx;
  return {
    'guards:list': withSession(active, (s) => s.guardian.view()),
    'guards:arm': withSession(active, (s, input) => {
      book.arm(s.accountId, input, s.guardian.pollMs);
      return judged(s);
    }),
    'guards:check': withSession(active, (s, input) =>
      book.check(s.accountId, input, s.guardian.pollMs),
    ),
    'guards:disarm': withSession(active, (s, input) => {
      book.disarm(s.accountId, input);
      return judged(s);
    }),
    'guards:pause': withSession(active, (s, input) => {
      book.setPaused(input.paused);
      return judged(s);
    }),
    'guards:settings': withSession(active, (s) => book.settings(s.accountId)),
    'guards:configure': withSession(active, (s, input) => {
      const settings = book.configure(s.accountId, input);
      // New limits may let a held rule fire, or hold one.
      s.guardian.evaluate();
      return settings;
    }),
    'guards:log': withSession(active, (s, query) => book.log(s.accountId, s.bridgeId, query)),
  };
}
