/**
 * The tray icon, for every watched account: a menu to open the window, see the positions near
 * their knockout (in any account), pause or
 * resume sync, pause or resume the guardians (docs/guardians.md), and quit; a tooltip that says
 * how sync is doing, that the guardians are paused while they are, and how many positions are
 * near their knockout; a warning variant of the icon while an unread near or knocked-out alert
 * waits.
 */
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { AlertsSummary, AppStatus } from '../../shared/ipc/contract.js';

export interface TrayActions {
  open(): void;
  /** Opens the window on the Positions screen. */
  showPositions(): void;
  pauseSync(): void;
  resumeSync(): void;
  /** Holds every guardian of every account (guards:pause). */
  pauseGuards(): void;
  resumeGuards(): void;
  quit(): void;
}

export function trayMenuTemplate(
  status: AppStatus | null,
  alerts: AlertsSummary | null,
  actions: TrayActions,
  guardsPaused = false,
): MenuItemConstructorOptions[] {
  const paused = status?.sync.state === 'paused';
  const near = everyAccount(alerts).nearKnockout;
  return [
    { label: 'Open Betdesk', click: () => actions.open() },
    // Only while there is something to see: an item saying "0" would be noise.
    ...(near > 0 ? [{ label: nearItemLabel(near), click: () => actions.showPositions() }] : []),
    { type: 'separator' },
    paused
      ? { label: 'Resume sync', click: () => actions.resumeSync() }
      : { label: 'Pause sync', click: () => actions.pauseSync() },
    guardsPaused
      ? { label: 'Resume guardians', click: () => actions.resumeGuards() }
      : { label: 'Pause guardians', click: () => actions.pauseGuards() },
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
  guardsPaused = false,
): string {
  const all = everyAccount(alerts);
  const near = nearWords(all.nearKnockout, all.nearIn);
  return [syncWords(status, now), guardsPaused ? 'Guardians paused' : '', near]
    .filter((part) => part !== '')
    .join('. ');
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

function nearItemLabel(count: number): string {
  return count === 1 ? '1 position near knockout' : `${count} positions near knockout`;
}

/** With more than one account watched, the accounts they are in. */
function nearWords(count: number, accounts: readonly string[]): string {
  if (count <= 0) return '';
  const where = accounts.length > 0 ? ` (${accounts.join(', ')})` : '';
  return count === 1
    ? `1 position near its knockout${where}`
    : `${count} positions near their knockout${where}`;
}

/**
 * The counts of every watched account added up (the tray, the badge and the warning icon cover
 * them all); `nearIn` names the accounts with positions near their knockout when more than one
 * account is watched.
 */
export function everyAccount(alerts: AlertsSummary | null): {
  unread: number;
  unreadDanger: number;
  nearKnockout: number;
  nearIn: string[];
} {
  const all = alerts?.everyAccount ?? [];
  const sum = (pick: (a: AlertsSummary['everyAccount'][number]) => number) =>
    all.reduce((n, a) => n + pick(a), 0);
  return {
    unread: sum((a) => a.unread),
    unreadDanger: sum((a) => a.unreadDanger),
    nearKnockout: sum((a) => a.nearKnockout),
    nearIn: all.length > 1 ? all.filter((a) => a.nearKnockout > 0).map((a) => a.account) : [],
  };
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
  private guardsPaused = false;
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
    this.setToolTip();
    this.setMenu();
  }

  /** Follows the guardians' pause (guards:changed): the tooltip and the pause or resume item. */
  updateGuards(paused: boolean): void {
    if (this.destroyed || paused === this.guardsPaused) return;
    this.guardsPaused = paused;
    this.setToolTip();
    this.setMenu();
  }

  /** Follows the alerts: positions near their knockout in the tooltip and the menu, the warning
   *  icon. */
  updateAlerts(alerts: AlertsSummary): void {
    if (this.destroyed) return;
    const all = everyAccount(alerts);
    const nearChanged = all.nearKnockout !== everyAccount(this.alerts).nearKnockout;
    this.alerts = alerts;
    this.setToolTip();
    if (nearChanged) this.setMenu();
    const warning = all.unreadDanger > 0;
    if (warning !== this.warning) {
      this.warning = warning;
      this.tray.setImage(warning ? this.icons.warning : this.icons.normal);
    }
  }

  private setToolTip(): void {
    this.tray.setToolTip(trayTooltip(this.status, this.alerts, new Date(), this.guardsPaused));
  }

  private setMenu(): void {
    const template = trayMenuTemplate(this.status, this.alerts, this.actions, this.guardsPaused);
    this.tray.setContextMenu(this.parts.Menu.buildFromTemplate(template));
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
