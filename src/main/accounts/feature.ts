/**
 * Accounts on the bridge: the accounts screen, switching, and the app's mode (paper or a live
 * account). The registry (shared with the CLI) keeps rows in the store and secrets in the
 * keychain; accounts reach the bridge with string ids and never a secret.
 */
import type { Account, AppInfo } from '../../shared/ipc/contract.js';
import type { Handlers } from '../ipc/handler.js';
import { Keychain } from '../keychain/keychain.js';
import { Refusal } from '../refusal.js';
import type { ActiveAccount } from '../root/active.js';
import type { ServicesOptions } from '../root/options.js';
import type { AccountSession } from '../root/session.js';
import type { Store } from '../store/index.js';
import { AccountRegistry, storeId, type AccountView } from './index.js';

export type AccountsChannel =
  | 'app:info'
  | 'accounts:list'
  | 'accounts:add'
  | 'accounts:removal'
  | 'accounts:remove'
  | 'accounts:switch';

/** The store's accounts with their secrets in the keychain (`keychainService`: tests' own). */
export function openAccountRegistry(store: Store, keychainService?: string): AccountRegistry {
  const keychain = new Keychain(keychainService !== undefined ? { service: keychainService } : {});
  return new AccountRegistry({ store, keychain });
}

function bridgeAccount(
  a: AccountView,
  activeId: number | null,
  sameWalletAs: readonly string[] = [],
): Account {
  return {
    id: String(a.id),
    label: a.label,
    baseUrl: a.baseUrl,
    apiKeyHint: a.apiKey.slice(-4),
    permission: a.permission,
    active: a.id === activeId,
    createdAt: a.createdAt,
    sameWalletAs: [...sameWalletAs],
  };
}

/** The active live account's store id; null in paper mode. */
const liveId = (s: AccountSession | undefined) => (s && !s.isPaper ? s.accountId : null);

/** The app's mode with `session` active (none: paper, as while switching). */
export type AppInfoOf = (session: AccountSession | undefined) => AppInfo;

export function appInfoOf(
  registry: AccountRegistry,
  { host, versions }: Pick<ServicesOptions, 'host' | 'versions'>,
): AppInfoOf {
  return (session) => {
    const id = liveId(session);
    const live = id === null ? undefined : registry.get(id);
    return {
      mode: live ? 'live' : 'paper',
      activeAccountId: live ? String(live.id) : null,
      accountLabel: live?.label ?? 'Paper',
      canTrade: live?.permission !== 'read',
      host,
      versions,
    };
  };
}

export interface AccountsContext {
  registry: AccountRegistry;
  active: ActiveAccount;
  info: AppInfoOf;
}

export function accountsFeature(ctx: AccountsContext): Handlers<AccountsChannel> {
  const { registry, active, info } = ctx;
  return {
    'app:info': async () => {
      await active.settled();
      return info(active.session);
    },
    // Paper is not one of them: it has no row in the accounts screen.
    'accounts:list': () => {
      const shared = registry.sameWallets();
      return Promise.resolve({
        accounts: registry
          .list()
          .filter((a) => !a.isPaper)
          .map((a) => bridgeAccount(a, liveId(active.session), shared.get(a.id))),
      });
    },
    'accounts:add': async (input) => {
      const added = await registry.add(input);
      // Watched from now on, on screen or not (root/active.ts).
      // One that cannot start says why when it is switched to.
      await active.watch(added.id).catch(() => undefined);
      const account = bridgeAccount(added, null, added.sameWalletAs);
      return added.notice === undefined ? account : { ...account, notice: added.notice };
    },
    'accounts:removal': ({ accountId }) => {
      const id = storeId(accountId);
      const a = id === undefined ? undefined : registry.get(id);
      const counts = a && !a.isPaper ? registry.removal(a.id) : undefined;
      if (!counts) throw new Refusal('not-found', 'There is no such account.');
      return Promise.resolve(counts);
    },
    'accounts:remove': async ({ accountId }) => {
      await active.settled();
      const id = storeId(accountId);
      const a = id === undefined ? undefined : registry.get(id);
      if (!a || a.isPaper) return { removed: false };
      if (liveId(active.session) === a.id) await active.switchTo(null);
      // Its session stops before its rows go.
      await active.unwatch(a.id);
      return { removed: await registry.remove(a.id) };
    },
    'accounts:switch': async ({ accountId }) => {
      if (accountId === null) return info(await active.switchTo(null));
      const id = storeId(accountId);
      const a = id === undefined ? undefined : registry.get(id);
      if (!a) throw new Refusal('not-found', 'There is no such account.');
      return info(await active.switchTo(a.isPaper ? null : a.id));
    },
  };
}
