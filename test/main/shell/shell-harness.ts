/**
 * Starts the whole shell on the fake electron, with in-memory services, a log and an autostart
 * folder in a temp directory, on the platform and with the arguments a test asks for. A test
 * file using it must first `vi.mock('electron', () => import('./fake-electron.js'))`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AlertsSummary } from '../../../src/shared/ipc/contract.js';
import type { ServicesOptions } from '../../../src/main/root/services.js';
import { runShell, type RunningShell, type ShellHost } from '../../../src/main/shell/app.js';
import { iconFiles } from '../../../src/main/shell/icon.js';
import { tempDir } from '../../harness/temp.js';
import { memoryServices, type MemoryServices } from '../ipc/memory-services.js';
import { alertsSummary } from './alert-samples.js';
import * as electron from './fake-electron.js';

export const ICONS = iconFiles('/opt/betdesk');
export const NORMAL_ICON = { path: ICONS.tray };
export const WARNING_ICON = { path: ICONS.trayWarning };

export interface StartOptions {
  summary?: Promise<AlertsSummary>;
  platform?: NodeJS.Platform;
  argv?: string[];
  /** Added to process.env (ELECTRON_RENDERER_URL is read from there). */
  env?: Record<string, string | undefined>;
  /** Changes the services before the shell gets them. */
  services?: (services: MemoryServices) => void;
  /** Runs while the services are being created (after ready, before the shell is up). */
  whileStarting?: () => void;
}

export interface Started {
  services: MemoryServices;
  options: ServicesOptions[];
  running: RunningShell | null;
  /** The temp folder: logs/, config/, data/ and state/ (the XDG folders), renderer/ (with index.html). */
  dir: string;
}

const cleanups: (() => Promise<void>)[] = [];

export const PAGE = 'app://betdesk/index.html';
export const PAGE_HTML = '<!doctype html><title>Betdesk</title>';

/** Paths as the packaged app would have them, the renderer and the logs in `dir`. */
export function shellPaths(dir: string) {
  mkdirSync(join(dir, 'renderer'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), PAGE_HTML);
  return {
    preload: '/opt/betdesk/out/preload/index.cjs',
    rendererDir: join(dir, 'renderer'),
    nativeBinding: '/nonexistent/better_sqlite3.node',
    logsDir: join(dir, 'logs'),
    icons: ICONS,
  };
}

export async function start(opts: StartOptions = {}): Promise<Started> {
  const temp = tempDir('betdesk-shell-');
  const services = memoryServices();
  // The alert centre as far as the shell uses it: the summary, answered when `summary` settles.
  const summary = opts.summary ?? Promise.resolve(alertsSummary());
  services.alertsSummary = () => summary;
  opts.services?.(services);
  const options: ServicesOptions[] = [];
  const host: ShellHost = {
    platform: opts.platform ?? 'linux',
    argv: opts.argv ?? ['/opt/betdesk/betdesk'],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(temp.dir, 'config'),
      XDG_DATA_HOME: join(temp.dir, 'data'),
      XDG_STATE_HOME: join(temp.dir, 'state'),
      ...opts.env,
    },
  };
  const running = await runShell(
    async (o) => {
      options.push(o);
      opts.whileStarting?.();
      return Promise.resolve(services);
    },
    shellPaths(temp.dir),
    host,
  );
  cleanups.push(async () => {
    await running?.quit();
    temp.cleanup();
  });
  return { services, options, running, dir: temp.dir };
}

/** Quits every shell started and removes its folder: call in afterEach. */
export async function stopShells(): Promise<void> {
  for (const cleanup of cleanups.splice(0)) await cleanup();
}

export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** What the shell asked the renderer of `win` to show. */
export function showRequests(win: electron.BrowserWindow): unknown[] {
  return win.webContents.sent.filter((m) => m.channel === 'app:show').map((m) => m.payload);
}

/** The item `label` of the app menu's top-level menu `menu`. */
export function menuItem(menu: string, label: string) {
  const top = electron.Menu.applicationMenu?.template.find((m) => m.label === menu);
  return top?.submenu?.find((i) => i.label === label);
}

/** Every role in the application menu, submenus included. */
export function menuRoles(items = electron.Menu.applicationMenu?.template ?? []): string[] {
  return items.flatMap((i) => [...(i.role ? [i.role] : []), ...menuRoles(i.submenu ?? [])]);
}

/** Calls `channel` as the page at `url` would (the top frame); resolves to the handler's answer. */
export async function callFrom(
  url: string,
  channel: string,
  input: unknown = {},
): Promise<unknown> {
  const handler = electron.ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve(handler({ senderFrame: { url, parent: null } }, input));
}

/** The labels (or separators) of the tray's menu. */
export function trayLabels(tray: electron.Tray): string[] {
  return tray.menu?.template.map((i) => i.label ?? i.type ?? '?') ?? [];
}
