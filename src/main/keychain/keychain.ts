/**
 * API secrets live in the system keychain (the Secret Service on Linux, via keytar) and nowhere
 * else. When there is no keychain, Betdesk refuses to keep a secret rather than fall back to a
 * file: KeychainUnavailableError says so, in words the user can act on.
 */

/** The part of keytar we use; tests and other platforms may pass their own. */
export interface KeychainBackend {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export const KEYCHAIN_UNAVAILABLE_MESSAGE =
  'No system keychain is available (Secret Service not running); Betdesk will not store API secrets in plain text.';

/** There is no keychain to talk to: no Secret Service, no session bus, or keytar itself failed
 *  to load. */
export class KeychainUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(KEYCHAIN_UNAVAILABLE_MESSAGE, options);
    this.name = 'KeychainUnavailableError';
  }
}

/** The keychain is there but refused (locked, denied). The message never holds the secret. */
export class KeychainError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeychainError';
  }
}

/** What libsecret and D-Bus say when there is no Secret Service to reach. */
const UNAVAILABLE =
  /d-?bus|could not connect|org\.freedesktop\.secrets|secret ?service|serviceunknown|was not provided|autolaunch|no such (interface|object)|connection refused|not supported/i;
const LOCKED = /locked|prompt|dismissed|cancel/i;

export interface KeychainOptions {
  /** Keychain service name entries are filed under; 'Betdesk' unless a test wants its own. */
  service?: string;
  /** Defaults to keytar, loaded on first use so a missing native module is just "unavailable". */
  backend?: KeychainBackend;
}

const PROBE_ACCOUNT = 'betdesk-keychain-probe';

export class Keychain {
  readonly service: string;
  private backend: KeychainBackend | undefined;
  private loading: Promise<KeychainBackend> | undefined;

  constructor(options: KeychainOptions = {}) {
    this.service = options.service ?? 'Betdesk';
    this.backend = options.backend;
  }

  /** True when a keychain answers; never throws. */
  async available(): Promise<boolean> {
    try {
      const backend = await this.load();
      await backend.getPassword(this.service, PROBE_ACCOUNT);
      return true;
    } catch {
      return false;
    }
  }

  async setSecret(accountId: string, secret: string): Promise<void> {
    if (secret === '') throw new KeychainError('An empty secret cannot be stored.');
    await this.call('store the secret', (b) => b.setPassword(this.service, accountId, secret));
  }

  /** The secret, or null when none is stored for the account. */
  async getSecret(accountId: string): Promise<string | null> {
    return this.call('read the secret', (b) => b.getPassword(this.service, accountId));
  }

  /** Removes the secret; false when there was none. */
  async deleteSecret(accountId: string): Promise<boolean> {
    return this.call('remove the secret', (b) => b.deletePassword(this.service, accountId));
  }

  private async call<T>(what: string, fn: (b: KeychainBackend) => Promise<T>): Promise<T> {
    const backend = await this.load();
    try {
      return await fn(backend);
    } catch (err) {
      throw classify(err, what);
    }
  }

  private async load(): Promise<KeychainBackend> {
    if (this.backend) return this.backend;
    this.loading ??= import('keytar').then(
      (m) => {
        const mod = m as unknown as { default?: KeychainBackend } & KeychainBackend;
        this.backend = mod.default ?? mod;
        return this.backend;
      },
      (err: unknown) => {
        this.loading = undefined;
        throw new KeychainUnavailableError({ cause: err });
      },
    );
    return this.loading;
  }
}

function classify(err: unknown, what: string): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (UNAVAILABLE.test(message)) return new KeychainUnavailableError({ cause: err });
  if (LOCKED.test(message)) {
    return new KeychainError(
      `The system keychain is locked or refused, so Betdesk could not ${what}; unlock it and try again.`,
      { cause: err },
    );
  }
  return new KeychainError(`The system keychain could not ${what}.`, { cause: err });
}
