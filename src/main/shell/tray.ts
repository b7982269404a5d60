/**
 * The tray icon: a menu to open the window, pause or resume sync, and quit; a tooltip that says
 * how sync is doing and how many positions are near their knockout; a warning variant of the
 * icon while an unread near or knocked-out alert waits.
 */
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { AlertsSummary, AppStatus } from '../../shared/ipc/contract.js';

export interface TrayActions {
  open(): void;
  pauseSync(): void;
  resumeSync(): void;
  quit(): void;
}

export function trayMenuTemplate(
  status: AppStatus | null,
  actions: TrayActions,
): MenuItemConstructorOptions[] {
  const paused = status?.sync.state === 'paused';
  return [
    { label: 'Open Betdesk', click: () => actions.open() },
    paused
      ? { label: 'Resume sync', click: () => actions.resumeSync() }
      : { label: 'Pause sync', click: () => actions.pauseSync() },
    { type: 'separator' },
    { label: 'Quit Betdesk', click: () => actions.quit() },
  ];
}

const STATE_WORDS: Record<AppStatus['sync']['state'], string> = {
  idle: 'up to date',
  syncing: 'syncing',
  paused: 'paused',
  offline: 'offline',
  error: 'failing',
};

export function trayTooltip(
  status: AppStatus | null,
  alerts: AlertsSummary | null = null,
  now: Date = new Date(),
): string {
  const near = alerts ? nearWords(alerts.nearKnockout) : '';
  return near ? `${syncWords(status, now)}. ${near}` : syncWords(status, now);
}

function syncWords(status: AppStatus | null, now: Date): string {
  if (!status) return 'Betdesk: starting';
  const mode = status.mode === 'paper' ? 'paper' : 'live';
  const last = status.sync.lastSyncAt
    ? `, last sync ${formatClock(new Date(status.sync.lastSyncAt), now)}`
    : '';
  const offline = status.online ? '' : ', exchange unreachable';
  return `Betdesk (${mode}): sync ${STATE_WORDS[status.sync.state]}${last}${offline}`;
}

function nearWords(count: number): string {
  if (count <= 0) return '';
  return count === 1 ? '1 position near its knockout' : `${count} positions near their knockout`;
}

function formatClock(at: Date, now: Date): string {
  const sameDay = at.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(undefined, {
    ...(sameDay ? {} : { month: 'short', day: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);
}

export interface TrayParts {
  Tray: new (image: NativeImage) => Tray;
  Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): Menu };
}

export interface TrayIcons {
  normal: NativeImage;
  /** While an unread near or knocked-out alert waits. */
  warning: NativeImage;
}

export class BetdeskTray {
  private readonly tray: Tray;
  private status: AppStatus | null = null;
  private alerts: AlertsSummary | null = null;
  private warning = false;
  private destroyed = false;

  constructor(
    private readonly parts: TrayParts,
    private readonly icons: TrayIcons,
    private readonly actions: TrayActions,
  ) {
    this.tray = new parts.Tray(icons.normal);
    this.tray.on('click', () => actions.open());
    this.update(null);
  }

  /** Follows the sync status: the tooltip and the pause or resume item. */
  update(status: AppStatus | null): void {
    if (this.destroyed) return;
    this.status = status;
    this.tray.setToolTip(trayTooltip(status, this.alerts));
    this.tray.setContextMenu(
      this.parts.Menu.buildFromTemplate(trayMenuTemplate(status, this.actions)),
    );
  }

  /** Follows the alerts: positions near their knockout in the tooltip, the warning icon. */
  updateAlerts(alerts: AlertsSummary): void {
    if (this.destroyed) return;
    this.alerts = alerts;
    this.tray.setToolTip(trayTooltip(this.status, alerts));
    const warning = alerts.unreadDanger > 0;
    if (warning !== this.warning) {
      this.warning = warning;
      this.tray.setImage(warning ? this.icons.warning : this.icons.normal);
    }
  }

  current(): AppStatus | null {
    return this.status;
  }

  /** Whether the warning icon shows. */
  warns(): boolean {
    return this.warning;
  }

  /** Removes the icon; later updates (a sync call still in flight at quit) are ignored. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.tray.destroy();
  }
}
