/** The exchange accounts: list, add (secret to the keychain via main), remove, switch. */
import type { Account, NewAccount } from '../../../../shared/ipc/contract.js';
import { bridge, messageOf } from '../bridge.js';
import { appState } from './app.svelte.js';

class AccountsState {
  list = $state<Account[]>([]);
  busy = $state(false);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);

  async load(): Promise<void> {
    try {
      this.list = (await bridge.invoke('accounts:list', {})).accounts;
      this.error = null;
    } catch (err) {
      this.error = messageOf(err);
    }
  }

  /** Returns true when the account was added. */
  async add(input: NewAccount): Promise<boolean> {
    return this.run(async () => {
      const account = await bridge.invoke('accounts:add', input);
      this.notice = `Added ${account.label}. Its secret is kept in the system keychain.`;
      await this.load();
    });
  }

  async remove(account: Account): Promise<boolean> {
    return this.run(async () => {
      await bridge.invoke('accounts:remove', { accountId: account.id });
      this.notice = `Removed ${account.label} and its secret.`;
      await this.load();
      await appState.refresh();
    });
  }

  /** `null` switches to paper trading. */
  async switchTo(accountId: string | null): Promise<boolean> {
    return this.run(async () => {
      const info = await bridge.invoke('accounts:switch', { accountId });
      appState.setInfo(info);
      this.notice =
        info.mode === 'paper' ? 'Now paper trading.' : `Now trading as ${info.accountLabel}.`;
      await this.load();
      await appState.refresh();
    });
  }

  private async run(task: () => Promise<void>): Promise<boolean> {
    this.busy = true;
    this.error = null;
    this.notice = null;
    try {
      await task();
      return true;
    } catch (err) {
      this.error = messageOf(err);
      return false;
    } finally {
      this.busy = false;
    }
  }
}

export const accounts = new AccountsState();
