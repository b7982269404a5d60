/**
 * Exchange accounts: a label, the exchange's base URL and an API key, kept in the store; the
 * key's secret is kept by the system keychain and nowhere else (not the database, not a log,
 * not an error, not a return value). Without a keychain no account with a secret is added:
 * KeychainUnavailableError says so, and nothing is written anywhere.
 *
 * The keychain entry of an account is named "<apiKey>@<baseUrl>" under the keychain's service:
 * unique per key and exchange whatever database file the account row lives in (the app and the
 * CLI may use different files), and the same name for the same secret.
 */
import { ACCOUNT_LABEL_MAX, accountLabelProblem } from '../../shared/ipc/account-label.js';
import type { RemovalCounts } from '../../shared/rules/account-removal.js';
import type { Credentials } from '../client/index.js';
import { KeychainUnavailableError } from '../keychain/keychain.js';
import type { Account, Store } from '../store/index.js';
import { AccountError, withoutSecret } from './errors.js';
import { exchangeProbe, type KeyCheck, type KeyProbe } from './probe.js';

/** The part of the keychain the registry uses (src/main/keychain's Keychain). */
export interface SecretStore {
  available(): Promise<boolean>;
  setSecret(name: string, secret: string): Promise<void>;
  getSecret(name: string): Promise<string | null>;
  deleteSecret(name: string): Promise<boolean>;
}

export interface NewAccountInput {
  label: string;
  baseUrl: string;
  apiKey: string;
  secret: string;
  /**
   * Add it even when its exchange cannot be checked (nothing answers, not an exchange): a second,
   * deliberate act after a first attempt was refused with AccountError('unchecked').
   */
  keepUnchecked?: boolean;
}

/** An account as shown and returned: never its secret. */
export interface AccountView {
  id: number;
  label: string;
  baseUrl: string;
  /** The API key id: public, sent in a header with every request. */
  apiKey: string;
  permission: 'read' | 'trade' | 'unknown';
  isPaper: boolean;
  createdAt: number;
}

export interface AddedAccount extends AccountView {
  /** Something to tell the user about the key (e.g. its permission could not be checked). */
  notice?: string;
  /**
   * The labels of the accounts already added that read the same wallet (the key's newest orders
   * are theirs), first added first; [] when none.
   */
  sameWalletAs: string[];
}

export interface AccountRegistryOptions {
  store: Store;
  keychain: SecretStore;
  /** How a new key is checked (default: against its exchange, see probe.ts). */
  probe?: KeyProbe;
}

export class AccountRegistry {
  readonly #store: Store;
  readonly #keychain: SecretStore;
  readonly #probe: KeyProbe;

  constructor(opts: AccountRegistryOptions) {
    this.#store = opts.store;
    this.#keychain = opts.keychain;
    this.#probe = opts.probe ?? exchangeProbe();
  }

  /**
   * Checks the exchange and the key, records the account and puts the secret in the keychain.
   * @throws AccountError (invalid input, label or key already added, key refused by the
   *   exchange, exchange not checked and `keepUnchecked` not set), KeychainUnavailableError /
   *   KeychainError (nothing is kept then).
   */
  async add(input: NewAccountInput): Promise<AddedAccount> {
    const label = checkLabel(input.label);
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    const apiKey = checkApiKey(input.apiKey);
    const secret = input.secret;
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new AccountError('invalid', 'The API secret is required.');
    }
    if (this.#store.accounts.getByLabel(label)) {
      throw new AccountError('exists', `An account named "${label}" already exists.`);
    }
    const same = this.#store.accounts
      .list()
      .find((a) => a.apiKey === apiKey && a.baseUrl === baseUrl);
    if (same) {
      throw new AccountError(
        'exists',
        `This API key is already added for ${baseUrl}, as "${same.label}".`,
      );
    }
    // No keychain, no account: refused before anything is checked or written.
    if (!(await this.#keychain.available())) throw new KeychainUnavailableError();

    const check = await this.#probe(baseUrl, { apiKey, secret });
    if (check.unreachable !== undefined && input.keepUnchecked !== true) {
      throw new AccountError(
        'unchecked',
        withoutSecret(
          `${label} was not added: its exchange could not be checked. ${check.unreachable}`,
          secret,
        ),
      );
    }
    const account = this.#store.accounts.create({
      label,
      baseUrl,
      apiKey,
      permission: check.permission,
    });
    try {
      await this.#keychain.setSecret(keychainName(account), secret);
    } catch (err) {
      this.#store.accounts.remove(account.id);
      if (err instanceof Error) err.message = withoutSecret(err.message, secret);
      throw err;
    }
    const sameWalletAs = this.#store.wallets
      .holders(account.baseUrl, check.newestOrders ?? [], account.id)
      .map((id) => this.#store.accounts.get(id)?.label)
      .filter((l) => l !== undefined);
    const view: AddedAccount = { ...toView(account), sameWalletAs };
    const notices = [noticeOf(check), sameWalletNotice(sameWalletAs)];
    const notice = notices.filter((n) => n !== undefined).join(' ');
    if (notice !== '') view.notice = withoutSecret(notice, secret);
    return view;
  }

  #sameWalletOf(accountId: number): string[] {
    return this.sameWallets().get(accountId) ?? [];
  }

  /**
   * For each account that shares its wallet with others: their labels, in the order they were
   * added. Accounts alone on their wallet are not in it.
   */
  sameWallets(): Map<number, string[]> {
    const out = new Map<number, string[]>();
    for (const group of this.#store.wallets.groups()) {
      for (const id of group) {
        const others = group.filter((o) => o !== id).map((o) => this.#store.accounts.get(o));
        out.set(
          id,
          others.filter((a) => a !== undefined).map((a) => a.label),
        );
      }
    }
    return out;
  }

  /** Every account, in the order they were added. */
  list(): AccountView[] {
    return this.#store.accounts.list().map(toView);
  }

  get(id: number): AccountView | undefined {
    const a = this.#store.accounts.get(id);
    return a && toView(a);
  }

  byLabel(label: string): AccountView | undefined {
    const a = this.#store.accounts.getByLabel(label);
    return a && toView(a);
  }

  /**
   * What removing the account would delete, counted, armed guardian rules first
   * (shared/rules/account-removal.ts); undefined when there is no such account.
   */
  removal(account: number | string): RemovalCounts | undefined {
    const a = this.#find(account);
    return a && this.#store.removal.counts(a.id);
  }

  #find(account: number | string): Account | undefined {
    return typeof account === 'number'
      ? this.#store.accounts.get(account)
      : this.#store.accounts.getByLabel(account);
  }

  /**
   * Removes the account's secret from the keychain, then the account (and, by cascade, its
   * local history). False when there is no such account. When the keychain cannot be reached
   * the account is kept, so no secret is left behind without an account that names it.
   */
  async remove(account: number | string): Promise<boolean> {
    const a = this.#find(account);
    if (!a) return false;
    await this.#keychain.deleteSecret(keychainName(a));
    return this.#store.accounts.remove(a.id);
  }

  /**
   * Where the exchange client gets the account's credentials: a function it calls before each
   * request. The secret is read from the keychain on first use and then held in this function
   * only; it stops answering once the account is removed.
   */
  credentials(accountId: number): () => Promise<Credentials> {
    let secret: string | undefined;
    return async () => {
      const a = this.#store.accounts.get(accountId);
      if (!a) {
        throw new AccountError('not-found', `There is no account ${accountId}; it was removed.`);
      }
      secret ??= (await this.#keychain.getSecret(keychainName(a))) ?? undefined;
      if (secret === undefined) {
        throw new AccountError(
          'no-secret',
          `The secret of account "${a.label}" is not in the system keychain; remove the account and add it again.`,
        );
      }
      return { apiKey: a.apiKey, secret };
    };
  }

  /**
   * The account for credentials that do not come from the keychain (BETDESK_API_KEY and
   * BETDESK_API_SECRET): the one with the same key and exchange, or a new one labelled
   * "env:<apiKey>". Only the key id is recorded; the secret stays where it came from.
   */
  accountForKey(baseUrl: string, apiKey: string): AccountView {
    const url = normalizeBaseUrl(baseUrl);
    const key = checkApiKey(apiKey);
    const found = this.#store.accounts.list().find((a) => a.apiKey === key && a.baseUrl === url);
    if (found) return toView(found);
    let label = `env:${key}`.slice(0, ACCOUNT_LABEL_MAX);
    if (this.#store.accounts.getByLabel(label)) label = `env:${key}@${url}`;
    return toView(this.#store.accounts.create({ label, baseUrl: url, apiKey: key }));
  }

  /** Checks the key of an account again (e.g. after its permission changed) and records it. */
  async recheck(accountId: number): Promise<AddedAccount> {
    const a = this.#store.accounts.get(accountId);
    if (!a) throw new AccountError('not-found', `There is no account ${accountId}.`);
    const creds = await this.credentials(accountId)();
    const check = await this.#probe(a.baseUrl, creds);
    const updated = this.#store.accounts.update(accountId, { permission: check.permission }) ?? a;
    const view: AddedAccount = { ...toView(updated), sameWalletAs: this.#sameWalletOf(a.id) };
    const notice = noticeOf(check);
    if (notice !== undefined) view.notice = withoutSecret(notice, creds.secret);
    return view;
  }
}

/** Says so when a new key reads a wallet accounts already added read (store/repos/wallets.ts). */
function sameWalletNotice(labels: readonly string[]): string | undefined {
  if (labels.length === 0) return undefined;
  const quoted = labels.map((l) => `"${l}"`);
  const names =
    quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)!}`;
  return `This key reads the same wallet as ${names}: they hold the same orders. Betdesk counts that wallet once in the Portfolio's totals.`;
}

/** What to tell the user about a check: why it could not be made, or what it found. */
function noticeOf(check: KeyCheck): string | undefined {
  if (check.unreachable !== undefined) {
    return `Kept without a check, so its permission is unknown: ${check.unreachable}`;
  }
  return check.notice;
}

export function keychainName(account: Pick<Account, 'apiKey' | 'baseUrl'>): string {
  return `${account.apiKey}@${account.baseUrl}`;
}

function toView(a: Account): AccountView {
  return {
    id: a.id,
    label: a.label,
    baseUrl: a.baseUrl,
    apiKey: a.apiKey,
    permission: a.permission ?? 'unknown',
    isPaper: a.isPaper,
    createdAt: a.createdAt,
  };
}

function checkLabel(value: unknown): string {
  const label = typeof value === 'string' ? value.trim() : '';
  const problem = accountLabelProblem(label);
  if (problem !== null) throw new AccountError('invalid', problem);
  return label;
}

function checkApiKey(value: unknown): string {
  const key = typeof value === 'string' ? value.trim() : '';
  if (key === '') throw new AccountError('invalid', 'The API key is required.');
  if (key.length > 256 || /\s/.test(key)) {
    throw new AccountError('invalid', 'The API key must be one word of at most 256 characters.');
  }
  return key;
}

/** "http(s)://host[:port][/prefix]" without a trailing slash, query or fragment. */
export function normalizeBaseUrl(value: unknown): string {
  let url: URL;
  try {
    url = new URL(typeof value === 'string' ? value.trim() : '');
  } catch {
    throw new AccountError(
      'invalid',
      `The exchange address must be a URL such as https://api.example.com (got ${JSON.stringify(value)}).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AccountError('invalid', 'The exchange address must start with http:// or https://.');
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new AccountError(
      'invalid',
      'The exchange address must not carry a user name, password, query or fragment.',
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
