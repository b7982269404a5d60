/**
 * Every account's session, and the one on screen. Each account (paper, once used, and every
 * exchange account) has a session that runs from the start (or from its adding) until it is
 * removed or the app stops: its sync, knockout watch, alert centre and guardian work whether or
 * not it is on screen (docs/desk.md, "Every account watched"). Which account the screens show is
 * a view choice: switching opens the session if it is not running yet (its first time), then
 * moves the bridge's view to it; it never stops one. Switches run one after another. The account
 * on screen is remembered in the store's settings (none: paper), so a restart opens it first.
 */
import type { Store } from '../store/index.js';
import { Refusal } from '../refusal.js';
import { ACTIVE_ACCOUNT } from './remembered.js';
import type { AccountSession } from './session.js';

export { rememberedAccount } from './remembered.js';

/** An account as the sessions know it: its store id, or null for paper. */
export type AccountKey = number | null;

export interface ActiveAccountOptions {
  store: Store;
  /** Builds the session of a live account, or paper's for null (not started). */
  open: (key: AccountKey) => Promise<AccountSession>;
  /** Connects the session on screen to the bridge; returns how to disconnect it. */
  attach: (session: AccountSession) => () => void;
  /** Tells the bridge the account on screen changed. */
  announce: (session: AccountSession) => void;
}

export class ActiveAccount {
  readonly #opts: ActiveAccountOptions;
  /** Every session opened (or opening), by account; a failed opening is dropped. */
  readonly #opening = new Map<AccountKey, Promise<AccountSession>>();
  /** The sessions running, in the order they started. */
  readonly #running = new Map<AccountKey, AccountSession>();
  #session: AccountSession | undefined;
  #detach: (() => void) | undefined;
  #syncPaused = false;
  /** How many sessions were started since this was made: a switch never adds one twice. */
  #starts = 0;
  /** The switch under way, or the last one; it settles either way. */
  #switching: Promise<unknown> = Promise.resolve();
  /** Why the last switch left no session. */
  #failure: unknown;
  #stopping: Promise<void> | undefined;

  constructor(opts: ActiveAccountOptions) {
    this.#opts = opts;
  }

  /** The session on screen; undefined before the first switch, after a failed one, or stopped. */
  get session(): AccountSession | undefined {
    return this.#session;
  }

  /** Every running session, the one on screen among them. */
  get running(): AccountSession[] {
    return [...this.#running.values()];
  }

  /** Sessions started so far (each account's once, unless it was removed and added again). */
  get starts(): number {
    return this.#starts;
  }

  /** Resolves once no switch is under way (whether it succeeded or not). */
  async settled(): Promise<void> {
    await this.#switching;
  }

  /** The session on screen, after the switch under way; refused in words when there is none. */
  async started(): Promise<AccountSession> {
    await this.#switching;
    if (this.#session) return this.#session;
    if (this.#failure instanceof Refusal) throw this.#failure;
    const why = reasonOf(this.#failure ?? 'Betdesk is switching accounts');
    throw new Refusal('not-ready', `The exchange session could not start: ${why}.`);
  }

  /** Shows `key`'s account (null: paper): starts its session the first time, stops none. */
  switchTo(key: AccountKey): Promise<AccountSession> {
    const run = this.#switching.then(async () => {
      if (this.#stopping) throw new Refusal('not-ready', 'Betdesk is stopping.');
      const next = await this.watch(key);
      if (next === this.#session) return next;
      const { settings } = this.#opts.store;
      if (next.isPaper) settings.delete(ACTIVE_ACCOUNT);
      else settings.set(ACTIVE_ACCOUNT, String(next.accountId));
      this.#detach?.();
      this.#session = next;
      this.#detach = this.#opts.attach(next);
      this.#opts.announce(next);
      return next;
    });
    this.#switching = run.then(
      () => (this.#failure = undefined),
      (err: unknown) => (this.#failure = err),
    );
    return run;
  }

  /** Starts `key`'s session unless it runs already; the one running otherwise. */
  watch(key: AccountKey): Promise<AccountSession> {
    let opening = this.#opening.get(key);
    if (!opening) {
      opening = this.#start(key);
      this.#opening.set(key, opening);
      // A session that could not open is tried again by the next switch to it.
      opening.catch(() => {
        if (this.#opening.get(key) === opening) this.#opening.delete(key);
      });
    }
    return opening;
  }

  /** Starts every account's session not running yet, one after another; `failed` hears each. */
  async watchAll(
    keys: readonly AccountKey[],
    failed: (key: AccountKey, err: unknown) => void,
  ): Promise<void> {
    for (const key of keys) {
      if (this.#stopping) return;
      await this.watch(key).catch((err: unknown) => failed(key, err));
    }
  }

  /** Stops `key`'s session (an account being removed); the account on screen is refused. */
  async unwatch(key: AccountKey): Promise<void> {
    await this.#switching;
    const opening = this.#opening.get(key);
    if (!opening) return;
    const session = await opening.catch(() => undefined);
    if (session && session === this.#session) {
      throw new Refusal('conflict', 'Switch to another account before removing this one.');
    }
    this.#opening.delete(key);
    this.#running.delete(key);
    await session?.stop();
  }

  async #start(key: AccountKey): Promise<AccountSession> {
    const session = await this.#opts.open(key);
    if (this.#stopping) {
      await session.stop();
      throw new Refusal('not-ready', 'Betdesk is stopping.');
    }
    this.#running.set(key, session);
    this.#starts += 1;
    session.start(this.#syncPaused);
    return session;
  }

  /** Pauses syncing of every account, and of those started after it. */
  async pauseSync(): Promise<AccountSession> {
    this.#syncPaused = true;
    for (const s of this.#running.values()) s.engine.pause();
    return this.started();
  }

  async resumeSync(): Promise<AccountSession> {
    this.#syncPaused = false;
    for (const s of this.#running.values()) s.engine.resume();
    return this.started();
  }

  /** Waits for the switch under way, then stops every session; none starts after it. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      await this.#switching;
      this.#detach?.();
      this.#detach = undefined;
      this.#session = undefined;
      const opening = [...this.#opening.values()];
      this.#opening.clear();
      const sessions = await Promise.all(opening.map((o) => o.catch(() => undefined)));
      this.#running.clear();
      const stopping = sessions.filter((s) => s !== undefined).map((s) => s.stop());
      await Promise.all(stopping);
    })();
    return this.#stopping;
  }
}

/** The key of a session's account: null for paper. */
export function keyOf(session: AccountSession): AccountKey {
  return session.isPaper ? null : session.accountId;
}

/** An error as the end of a sentence. */
export function reasonOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/[.\s]+$/, '');
}
