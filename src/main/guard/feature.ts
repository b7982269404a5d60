/**
 * Guardians on the bridge: arm, change, disarm, pause, limits and defaults, the log.
 *
 * CONTRACT (issue 19): the handlers' names are fixed; the bodies are the guardian engineer's.
 */
import type { Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { GuardBook } from './book.js';

export type GuardChannel =
  | 'guards:list'
  | 'guards:arm'
  | 'guards:disarm'
  | 'guards:pause'
  | 'guards:settings'
  | 'guards:configure'
  | 'guards:log';

export interface GuardsContext {
  book: GuardBook;
  active: ActiveAccount;
}

export function guardsFeature(_ctx: GuardsContext): Handlers<GuardChannel> {
  const later = (): never => {
    throw new Error('guardians: not built yet');
  };
  return {
    'guards:list': later,
    'guards:arm': later,
    'guards:disarm': later,
    'guards:pause': later,
    'guards:settings': later,
    'guards:configure': later,
    'guards:log': later,
  };
}
