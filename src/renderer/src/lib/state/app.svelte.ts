/** The app as a whole: mode, status, connection, and which screen shows. */
import type { AppInfo, AppStatus } from '../../../../shared/ipc/contract.js';
import { bridge, messageOf } from '../bridge.js';

export type Screen = 'markets' | 'accounts';

class AppState {
  info = $state<AppInfo | null>(null);
  status = $state<AppStatus | null>(null);
  screen = $state<Screen>('markets');
  /** False while the browser host's background service does not answer. */
  connected = $state(true);
  error = $state<string | null>(null);
  private modeListeners = new Set<() => void>();

  get online(): boolean {
    return this.connected && (this.status?.online ?? true);
  }

  async start(): Promise<void> {
    bridge.on('sync:status', (status) => {
      this.status = status;
    });
    bridge.on('app:changed', (info) => {
      this.setInfo(info);
    });
    bridge.onConnection((connected) => {
      this.connected = connected;
      if (connected) void this.refresh();
    });
    await this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      const [info, status] = await Promise.all([
        bridge.invoke('app:info', {}),
        bridge.invoke('status:get', {}),
      ]);
      this.setInfo(info);
      this.status = status;
      this.error = null;
    } catch (err) {
      this.error = messageOf(err);
    }
  }

  /** Runs `listener` whenever the active account (paper or live) changes. */
  onModeChange(listener: () => void): () => void {
    this.modeListeners.add(listener);
    return () => this.modeListeners.delete(listener);
  }

  setInfo(info: AppInfo): void {
    const changed =
      this.info !== null &&
      (this.info.mode !== info.mode || this.info.activeAccountId !== info.activeAccountId);
    this.info = info;
    if (changed) for (const l of this.modeListeners) l();
  }

  /** Pauses background sync, or resumes it when paused. */
  async toggleSync(): Promise<void> {
    try {
      const paused = this.status?.sync.state === 'paused';
      this.status = await bridge.invoke(paused ? 'sync:resume' : 'sync:pause', {});
      this.error = null;
    } catch (err) {
      this.error = messageOf(err);
    }
  }

  navigate(screen: Screen): void {
    this.screen = screen;
  }
}

export const appState = new AppState();
