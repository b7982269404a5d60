/**
 * The unread alerts count on the dock or taskbar, where the OS has a place for it: the macOS
 * dock badge and Unity-style Linux launchers (`app.setBadgeCount`), a red dot over the Windows
 * taskbar button (`setOverlayIcon`, with the count in its description for screen readers).
 * Nothing shows at 0.
 */
import type { App, BrowserWindow, NativeImage } from 'electron';

type OverlayWindow = Pick<BrowserWindow, 'setOverlayIcon' | 'isDestroyed'>;

export interface BadgeParts {
  app: Pick<App, 'setBadgeCount'>;
  /** The window whose taskbar button carries the Windows overlay, if one is open. */
  window: () => OverlayWindow | null;
  /** The Windows overlay: a small red dot. */
  overlay: NativeImage;
  platform: NodeJS.Platform;
}

export function unreadWords(count: number): string {
  return count === 1 ? '1 unread alert' : `${count} unread alerts`;
}

export class UnreadBadge {
  private count = 0;

  constructor(private readonly parts: BadgeParts) {}

  /** Shows `count` (0 clears it). */
  set(count: number): void {
    this.count = count;
    this.show();
  }

  /** Shows the count again, on `win` when given: a window made anew has no overlay yet. */
  show(win: OverlayWindow | null = this.parts.window()): void {
    const { app, platform } = this.parts;
    if (platform !== 'win32') {
      // False where the desktop has no badge (most Linux docks): nothing else to do there.
      app.setBadgeCount(this.count);
      return;
    }
    if (!win || win.isDestroyed()) return;
    if (this.count > 0) win.setOverlayIcon(this.parts.overlay, unreadWords(this.count));
    else win.setOverlayIcon(null, '');
  }

  /** What it shows now. */
  current(): number {
    return this.count;
  }
}
