/**
 * The account a start opens: the live account remembered as active in the store's settings, or
 * paper. Kept apart from active.ts (which brings the sessions) so the start's early bridge
 * (early.ts) can read it without loading the exchange client.
 */
import { storeId } from '../accounts/ids.js';
import type { Store } from '../store/index.js';

/** The settings key holding the active account's store id (absent: paper). */
export const ACTIVE_ACCOUNT = 'activeAccountId';

/** The live account remembered as active when it still exists; null: paper. */
export function rememberedAccount(store: Pick<Store, 'settings' | 'accounts'>): number | null {
  const id = storeId(store.settings.get(ACTIVE_ACCOUNT) ?? '');
  const account = id === undefined ? undefined : store.accounts.get(id);
  return account && !account.isPaper ? account.id : null;
}

/** The account a start opens and shows the markets of: the remembered live one, else paper's. */
export function startingAccount(store: Pick<Store, 'settings' | 'accounts'>): number | undefined {
  return rememberedAccount(store) ?? store.accounts.list().find((a) => a.isPaper)?.id;
}
