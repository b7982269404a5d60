/** The exchange accounts: list, add (secret to the keychain via main), remove, switch. */
import type { Account, NewAccount } from '../../../../shared/ipc/contract.js';
import { messageOf, type Bridge } from '../bridge.js';
import type { AppState } from './app.svelte.js';

export class AccountsState {
  #list = $state.raw<Account[]>([]);
  #busy = $state(false);
  #error = $state<string | null>(null);
  #notice = $state<string | null>(null);
  /** The account waiting for a second press of Remove. */
  #removalAsked = $state<string | null>(null);
  readonly #bridge: Bridge;
  readonly #app: AppState;

  constructor(bridge: Bridge, app: AppState) {
    this.#bridge = bridge;
    this.#app = app;
  }

  get list(): Account[] {
    return this.#list;
  }
  get busy(): boolean {
    return this.#busy;
  }
  get error(): string | null {
    return this.#error;
  }
  get notice(): string | null {
    return this.#notice;
  }
  /** The id of the account whose Remove asks to be pressed again, or null. */
  get removalAsked(): string | null {
    return this.#removalAsked;
  }

  async load(): Promise<void> {
    try {
      this.#list = (await this.#bridge.invoke('accounts:list', {})).accounts;
      this.#error = null;
    } catch (err) {
      this.#error = messageOf(err);
    }
  }

  /** Returns true when the account was added. */
  async add(input: NewAccount): Promise<boolean> {
    return this.#runAccountChange(async () => {
      const account = await this.#bridge.invoke('accounts:add', input);
      this.#notice = `Added ${account.label}. Its secret is kept in the system keychain.`;
      await this.load();
    });
  }

  /**
   * The Remove button: the first press asks (the button becomes "Confirm removal"), the second
   * removes. Resolves true when the account was removed.
   */
  async pressRemove(account: Account): Promise<boolean> {
    if (this.#removalAsked !== account.id) {
      this.#removalAsked = account.id;
      return false;
    }
    this.#removalAsked = null;
    return this.remove(account);
  }

  async remove(account: Account): Promise<boolean> {
    return this.#runAccountChange(async () => {
      await this.#bridge.invoke('accounts:remove', { accountId: account.id });
      this.#notice = `Removed ${account.label} and its secret.`;
      await this.load();
      await this.#app.refresh();
    });
  }

  /** `null` switches to paper trading. */
  async switchTo(accountId: string | null): Promise<boolean> {
    return this.#runAccountChange(async () => {
      const info = await this.#bridge.invoke('accounts:switch', { accountId });
      this.#app.setInfo(info);
      this.#notice =
        info.mode === 'paper' ? 'Now paper trading.' : `Now trading as ${info.accountLabel}.`;
      await this.load();
      await this.#app.refresh();
    });
  }

  async #runAccountChange(task: () => Promise<void>): Promise<boolean> {
    this.#busy = true;
    this.#error = null;
    this.#notice = null;
    try {
      await task();
      return true;
    } catch (err) {
      this.#error = messageOf(err);
      return false;
    } finally {
      this.#busy = false;
    }
  }
}
