/**
 * The tray icon: a menu to open the window, pause or resume sync, and quit; a tooltip that says
 * how sync is doing.
 */
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { AppStatus } from '../../shared/ipc/contract.js';

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

export function trayTooltip(status: AppStatus | null, now: Date = new Date()): string {
  if (!status) return 'Betdesk: starting';
  const mode = status.mode === 'paper' ? 'paper' : 'live';
  const last = status.sync.lastSyncAt
    ? `, last sync ${formatClock(new Date(status.sync.lastSyncAt), now)}`
    : '';
  const offline = status.online ? '' : ', exchange unreachable';
  return `Betdesk (${mode}): sync ${STATE_WORDS[status.sync.state]}${last}${offline}`;
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

export class BetdeskTray {
  private readonly tray: Tray;
  private status: AppStatus | null = null;

  constructor(
    private readonly parts: TrayParts,
    icon: NativeImage,
    private readonly actions: TrayActions,
  ) {
    this.tray = new parts.Tray(icon);
    this.tray.on('click', () => actions.open());
    this.update(null);
  }

  update(status: AppStatus | null): void {
    this.status = status;
    this.tray.setToolTip(trayTooltip(status));
    this.tray.setContextMenu(
      this.parts.Menu.buildFromTemplate(trayMenuTemplate(status, this.actions)),
    );
  }

  current(): AppStatus | null {
    return this.status;
  }

  destroy(): void {
    this.tray.destroy();
  }
}
