/** The exchange accounts: list, add (secret to the keychain via main), remove, switch. */
import type { Account, NewAccount } from '../../../../shared/ipc/contract.js';
import { removalWords, type RemovalCounts } from '../../../../shared/rules/account-removal.js';
import { BridgeFailure, messageOf, type Bridge } from '../bridge.js';
import type { AppState } from './app.svelte.js';
import { Loader } from './loader.svelte.js';

/** How an attempt to add an account ended. */
export type AddOutcome =
  /** Added: the form empties. */
  | 'added'
  /** Its exchange could not be checked: the form may offer to keep it anyway. */
  | 'unchecked'
  /** Refused (wrong key, bad input, no keychain…): nothing was kept. */
  | 'refused';

export class AccountsState {
  list = $state.raw<Account[]>([]);
  /** An add, remove or switch is on its way. */
  busy = $state(false);
  /** The list's reads; its error also tells why the last change failed. */
  readonly reads = new Loader();
  /** What the last change did, in words. */
  notice = $state<string | null>(null);
  /** Why the last attempt to add an account failed, in main's words; null after a success. */
  addError = $state<string | null>(null);
  /** The id of the account whose Remove asks to be pressed again, or null. */
  removalAsked = $state<string | null>(null);
  /**
   * What removing it deletes, counted by main (`accounts:removal`); null while they are read or
   * when they could not be: the words then name every kind without counts.
   */
  removalCounts = $state.raw<RemovalCounts | null>(null);
  readonly #bridge: Bridge;
  readonly #app: AppState;

  constructor(bridge: Bridge, app: AppState) {
    this.#bridge = bridge;
    this.#app = app;
  }

  async load(): Promise<void> {
    await this.reads.run(
      () => this.#bridge.invoke('accounts:list', {}),
      ({ accounts }) => (this.list = accounts),
    );
  }

  /**
   * Adds the account. When its exchange cannot be checked main refuses it ('unchecked') and the
   * form may send it again with `keepUnchecked`, which adds it without the check.
   */
  async add(input: NewAccount): Promise<AddOutcome> {
    let outcome: AddOutcome = 'refused';
    this.addError = null;
    await this.#runAccountChange(async () => {
      try {
        const account = await this.#bridge.invoke('accounts:add', input);
        outcome = 'added';
        const kept = `Added ${account.label}. Its secret is kept in the system keychain.`;
        this.notice = account.notice === undefined ? kept : `${kept} ${account.notice}`;
      } catch (err) {
        if (err instanceof BridgeFailure && err.kind === 'unchecked') outcome = 'unchecked';
        this.addError = messageOf(err);
        return;
      }
      await this.load();
    });
    return outcome;
  }

  /**
   * The Remove button: the first press asks, saying what goes with the account (the button
   * becomes "Confirm removal"); the second removes. Resolves true when it was removed.
   */
  async pressRemove(account: Account): Promise<boolean> {
    if (this.removalAsked !== account.id) {
      this.removalAsked = account.id;
      this.removalCounts = null;
      try {
        const counts = await this.#bridge.invoke('accounts:removal', { accountId: account.id });
        if (this.removalAsked === account.id) this.removalCounts = counts;
      } catch {
        // The words name every kind without counts: nothing is hidden for want of a count.
      }
      return false;
    }
    this.removalAsked = null;
    this.removalCounts = null;
    return this.remove(account);
  }

  /**
   * What removing the account deletes, said before the second press: the armed guardian rules
   * first, then every kind the store deletes with it (AccountsRepo.remove), with counts.
   */
  removalText(account: Account): string {
    const counts = this.removalAsked === account.id ? this.removalCounts : null;
    return removalWords(account.label, counts);
  }

  /** Keeps the account whose removal was asked. */
  cancelRemoval(): void {
    this.removalAsked = null;
    this.removalCounts = null;
  }

  async remove(account: Account): Promise<boolean> {
    return this.#runAccountChange(async () => {
      await this.#bridge.invoke('accounts:remove', { accountId: account.id });
      this.notice = `Removed ${account.label}: its guardian rules and log, orders, settlements, positions, alerts, recorded prices, equity points, fixtures and alert settings on this computer, and its secret in the system keychain. The exchange keeps its own records.`;
      await this.load();
      await this.#app.refresh();
    });
  }

  /** `null` switches to paper trading. */
  async switchTo(accountId: string | null): Promise<boolean> {
    return this.#runAccountChange(async () => {
      const info = await this.#bridge.invoke('accounts:switch', { accountId });
      this.#app.setInfo(info);
      this.notice =
        info.mode === 'paper' ? 'Now paper trading.' : `Now trading as ${info.accountLabel}.`;
      await this.load();
      await this.#app.refresh();
    });
  }

  async #runAccountChange(task: () => Promise<void>): Promise<boolean> {
    this.busy = true;
    this.reads.error = null;
    this.notice = null;
    try {
      await task();
      return true;
    } catch (err) {
      this.reads.error = messageOf(err);
      return false;
    } finally {
      this.busy = false;
    }
  }
}
