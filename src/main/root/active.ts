/**
 * The active account: whose session runs now, and the only transitions between sessions. A
 * switch stops the old session before the next one opens; switches run one after another;
 * stop() ends the last one. The active account is remembered in the store's settings (none:
 * paper), so a restart on the same data directory opens it again.
 */
import type { Store } from '../store/index.js';
import { Refusal } from '../refusal.js';
import { ACTIVE_ACCOUNT } from './remembered.js';
import type { AccountSession } from './session.js';

export { rememberedAccount } from './remembered.js';

export interface ActiveAccountOptions {
  store: Store;
  /** Opens the session of a live account, or paper's for null. */
  open: (accountId: number | null) => Promise<AccountSession>;
  /** Connects a session to the bridge before it starts; returns how to disconnect it. */
  attach: (session: AccountSession) => () => void;
  /** Tells the bridge the active account changed, once its session runs. */
  announce: (session: AccountSession) => void;
}

export class ActiveAccount {
  readonly #opts: ActiveAccountOptions;
  #session: AccountSession | undefined;
  #detach: (() => void) | undefined;
  #syncPaused = false;
  /** The switch under way, or the last one; it settles either way. */
  #switching: Promise<unknown> = Promise.resolve();
  /** Why the last switch left no session. */
  #failure: unknown;
  #stopping: Promise<void> | undefined;

  constructor(opts: ActiveAccountOptions) {
    this.#opts = opts;
  }

  /** The running session; undefined while switching, after a failed switch, or once stopped. */
  get session(): AccountSession | undefined {
    return this.#session;
  }

  /** Resolves once no switch is under way (whether it succeeded or not). */
  async settled(): Promise<void> {
    await this.#switching;
  }

  /** The session, after the switch under way; refused in words when there is none. */
  async started(): Promise<AccountSession> {
    await this.#switching;
    if (this.#session) return this.#session;
    if (this.#failure instanceof Refusal) throw this.#failure;
    const why = reasonOf(this.#failure ?? 'Betdesk is switching accounts');
    throw new Refusal('not-ready', `The exchange session could not start: ${why}.`);
  }

  /** Makes `accountId` (null: paper) the active account: stops the old session, starts its. */
  switchTo(accountId: number | null): Promise<AccountSession> {
    const run = this.#switching.then(async () => {
      if (this.#stopping) throw new Refusal('not-ready', 'Betdesk is stopping.');
      await this.#close();
      const next = await this.#opts.open(accountId);
      const { settings } = this.#opts.store;
      if (next.isPaper) settings.delete(ACTIVE_ACCOUNT);
      else settings.set(ACTIVE_ACCOUNT, String(next.accountId));
      this.#session = next;
      this.#detach = this.#opts.attach(next);
      next.start(this.#syncPaused);
      this.#opts.announce(next);
      return next;
    });
    this.#switching = run.then(
      () => (this.#failure = undefined),
      (err: unknown) => (this.#failure = err),
    );
    return run;
  }

  /** Pauses syncing, for this session and the ones switched to after it. */
  async pauseSync(): Promise<AccountSession> {
    this.#syncPaused = true;
    const session = await this.started();
    session.engine.pause();
    return session;
  }

  async resumeSync(): Promise<AccountSession> {
    this.#syncPaused = false;
    const session = await this.started();
    session.engine.resume();
    return session;
  }

  /** Waits for the switch under way, then stops the session; no switch runs after it. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      await this.#switching;
      await this.#close();
    })();
    return this.#stopping;
  }

  async #close(): Promise<void> {
    this.#detach?.();
    this.#detach = undefined;
    const old = this.#session;
    this.#session = undefined;
    await old?.stop();
  }
}

/** An error as the end of a sentence. */
export function reasonOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/[.\s]+$/, '');
}
