/** Exchange accounts: secrets go in once, to the keychain, and never come back out. */
import type { Services } from '../services.js';
import type { FeatureHandlers } from '../handler.js';

export type AccountHandlers = FeatureHandlers<
  'accounts:list' | 'accounts:add' | 'accounts:remove' | 'accounts:switch'
>;

export function accountHandlers(s: Services): AccountHandlers {
  return {
    'accounts:list': async () => ({ accounts: await s.accounts.list() }),
    'accounts:add': (input) => s.accounts.add(input),
    'accounts:remove': async ({ accountId }) => ({ removed: await s.accounts.remove(accountId) }),
    'accounts:switch': ({ accountId }) => s.accounts.switchTo(accountId),
  };
}
