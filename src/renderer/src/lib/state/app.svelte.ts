/** The app as a whole: mode, whether trading is allowed, sync status and connection. */
import type { AppInfo, AppStatus, StoreNotice } from '../../../../shared/ipc/contract.js';
import { messageOf, type Bridge } from '../bridge.js';
import { Listeners } from '../listeners.js';

export class AppState {
  // Set through `setInfo` alone: a change of account tells the mode-change listeners.
  #info = $state.raw<AppInfo | null>(null);
  status = $state.raw<AppStatus | null>(null);
  /** False while the browser host's background service does not answer. */
  connected = $state(true);
  /** Why the last call to main failed, in words; null once one succeeds. */
  error = $state<string | null>(null);
  /** The exchange can be reached (and, in the browser host, Betdesk's own service answers). */
  readonly online: boolean = $derived(this.connected && (this.status?.online ?? true));
  readonly #modeChanged = new Listeners();
  readonly #reconnected = new Listeners();
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get info(): AppInfo | null {
    return this.#info;
  }

  /**
   * Why what was last synced (prices, positions) may be out of date: the exchange or Betdesk's
   * service cannot be reached ('offline'), the last sync failed ('failed': e.g. the account's
   * address answers but is not an exchange), or sync is paused; null while it keeps up.
   */
  readonly syncBehind: 'offline' | 'failed' | 'paused' | null = $derived.by(() => {
    if (!this.online) return 'offline';
    const state = this.status?.sync.state;
    if (state === 'error') return 'failed';
    if (state === 'paused') return 'paused';
    return null;
  });

  readonly paper: boolean = $derived(this.#info?.mode === 'paper');

  /** False while the info is unknown too: nothing is placed before we know the account. */
  readonly canTrade: boolean = $derived(this.#info?.canTrade ?? false);

  /**
   * Subscribes to main's pushes and reads the first state; returns the function that stops.
   * The first connection is not a reconnect: the first reads wait for it (the bridge holds
   * calls made before it), so nothing is read twice at start.
   */
  start(): () => void {
    const stops = [
      this.#bridge.on('sync:status', (status) => {
        this.status = status;
      }),
      this.#bridge.on('app:changed', (info) => this.setInfo(info)),
      this.#bridge.onConnection((connected) => {
        const reconnected = connected && !this.connected;
        this.connected = connected;
        if (!reconnected) return;
        void this.refresh();
        this.#reconnected.call();
      }),
    ];
    void this.refresh();
    return () => stops.forEach((stop) => stop());
  }

  async refresh(): Promise<void> {
    try {
      const [info, status] = await Promise.all([
        this.#bridge.invoke('app:info', {}),
        this.#bridge.invoke('status:get', {}),
      ]);
      this.setInfo(info);
      this.status = status;
      this.error = null;
    } catch (err) {
      this.error = messageOf(err);
    }
  }

  /**
   * Runs `listener` when Betdesk's own service answers again after it was away (the browser
   * host restarted, or the socket dropped): pushes may have been missed meanwhile.
   */
  onReconnect(listener: () => void): () => void {
    return this.#reconnected.add(listener);
  }

  /** Runs `listener` whenever the active account (paper or live) changes. */
  onModeChange(listener: () => void): () => void {
    return this.#modeChanged.add(listener);
  }

  setInfo(info: AppInfo): void {
    const changed =
      this.#info !== null &&
      (this.#info.mode !== info.mode || this.#info.activeAccountId !== info.activeAccountId);
    this.#info = info;
    if (changed) this.#modeChanged.call();
  }

  /** What Betdesk did to its local store on its own, until acknowledged (the banner). */
  readonly storeNotice: StoreNotice | null = $derived(this.#info?.storeNotice ?? null);

  /** The user read the store notice: main forgets it and answers with the next, if any. */
  async acknowledgeStoreNotice(): Promise<void> {
    const notice = this.storeNotice;
    if (notice === null) return;
    try {
      this.setInfo(await this.#bridge.invoke('store:acknowledge', { at: notice.at }));
      this.error = null;
    } catch (err) {
      this.error = messageOf(err);
    }
  }

  /** Pauses background sync, or resumes it when paused. */
  async toggleSync(): Promise<void> {
    try {
      const paused = this.status?.sync.state === 'paused';
      this.status = await this.#bridge.invoke(paused ? 'sync:resume' : 'sync:pause', {});
      this.error = null;
    } catch (err) {
      this.error = messageOf(err);
    }
  }
}
