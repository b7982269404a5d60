/**
 * Accounts: the registry (shared with the CLI: rows in the store, secrets in the keychain), and
 * for the bridge the accounts screen, switching, and the app's mode (paper or a live account).
 * Accounts reach the bridge with string ids and never a secret.
 */
import type { Account, AppInfo } from '../../shared/ipc/contract.js';
import { AccountRegistry, type AccountView } from './index.js';
import { ServiceError } from '../ipc/errors.js';
import type { AccountsService, AppService, ServicesOptions } from '../ipc/services.js';
import { Keychain } from '../keychain/keychain.js';
import type { Store } from '../store/index.js';
import type { ActiveAccount } from '../root/active.js';
import { refusing } from '../app/refusals.js';
import type { AccountSession } from '../root/session.js';

/** The store's accounts with their secrets in the keychain (`keychainService`: tests' own). */
export function openAccountRegistry(store: Store, keychainService?: string): AccountRegistry {
  const keychain = new Keychain(keychainService !== undefined ? { service: keychainService } : {});
  return new AccountRegistry({ store, keychain });
}

export function bridgeAccount(a: AccountView, activeId: number | null): Account {
  return {
    id: String(a.id),
    label: a.label,
    baseUrl: a.baseUrl,
    apiKeyHint: a.apiKey.slice(-4),
    permission: a.permission,
    active: a.id === activeId,
    createdAt: a.createdAt,
  };
}

/** The store id of a bridge account id; undefined when it cannot be one. */
export function storeId(accountId: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(accountId) ? Number(accountId) : undefined;
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

export function accountServices(ctx: AccountsContext): {
  app: AppService;
  accounts: AccountsService;
} {
  const { registry, active, info } = ctx;
  return {
    app: {
      info: async () => {
        await active.settled();
        return info(active.session);
      },
    },
    accounts: {
      // Paper is not one of them: it has no row in the accounts screen.
      list: () =>
        Promise.resolve(
          registry
            .list()
            .filter((a) => !a.isPaper)
            .map((a) => bridgeAccount(a, liveId(active.session))),
        ),
      add: (input) =>
        refusing(async () => {
          const added = await registry.add(input);
          const account = bridgeAccount(added, null);
          return added.notice === undefined ? account : { ...account, notice: added.notice };
        }),
      remove: (accountId) =>
        refusing(async () => {
          await active.settled();
          const id = storeId(accountId);
          const a = id === undefined ? undefined : registry.get(id);
          if (!a || a.isPaper) return false;
          if (liveId(active.session) === a.id) await active.switchTo(null);
          return registry.remove(a.id);
        }),
      switchTo: (accountId) =>
        refusing(async () => {
          if (accountId === null) return info(await active.switchTo(null));
          const id = storeId(accountId);
          const a = id === undefined ? undefined : registry.get(id);
          if (!a) throw new ServiceError('not-found', 'There is no such account.');
          return info(await active.switchTo(a.isPaper ? null : a.id));
        }),
    },
  };
}
