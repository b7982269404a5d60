/**
 * A stand-in for the `electron` module (vi.mock('electron')): just enough of app (lock, login
 * items, badge, About panel), BrowserWindow, ipcMain, Menu, Tray, Notification, nativeImage,
 * protocol, session, shell, clipboard and dialog (error boxes, save dialogs) to run the shell
 * under Node and record what it asked of Electron.
 */
import { EventEmitter } from 'node:events';

type Listener = (...args: unknown[]) => void;

export class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Emits like Electron: returns whether a listener called preventDefault. */
  navigate(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

export class BrowserWindow extends EventEmitter {
  static all: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.all;
  }
  readonly webContents = new FakeWebContents();
  loaded: { file?: string; url?: string } = {};
  visible = false;
  hidden = 0;
  destroyed = false;
  /** Whether the default session refused permissions already when this window was made. */
  readonly permissionsDenied: boolean;
  constructor(readonly options: Record<string, unknown>) {
    super();
    this.permissionsDenied = fake.session.defaultSession.permissionRequest !== null;
    BrowserWindow.all.push(this);
    fake.app.emit('web-contents-created', {}, this.webContents);
  }
  loadFile(file: string): Promise<void> {
    this.loaded = { file };
    return Promise.resolve();
  }
  /** Pages load at once unless a test holds them (it then emits 'did-finish-load' itself). */
  static holdLoads = false;
  loadURL(url: string): Promise<void> {
    this.loaded = { url };
    if (!BrowserWindow.holdLoads) {
      queueMicrotask(() => {
        if (!this.destroyed) this.webContents.emit('did-finish-load');
      });
    }
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
    this.hidden += 1;
  }
  focused = 0;
  minimized = false;
  /** Every overlay it was given: the image (null clears) and its description. */
  overlays: { image: unknown; description: string }[] = [];
  setOverlayIcon(image: unknown, description: string): void {
    this.overlays.push({ image, description });
  }
  focus(): void {
    this.focused += 1;
  }
  minimize(): void {
    this.minimized = true;
  }
  restore(): void {
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Goes away for good, as when its renderer is gone: Electron then emits 'closed'. */
  destroy(): void {
    this.destroyed = true;
    this.emit('closed');
  }
  /** Closes like a user would: returns whether the shell kept the window. */
  userClose(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    return prevented;
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  lockGranted = true;
  /** What the instance handed over with its lock request. */
  handedOver: unknown = undefined;
  ready = false;
  quitCalls = 0;
  exitCode: number | null = null;
  logsPath: string | null = null;
  aboutOptions: Record<string, unknown> | null = null;
  aboutShown = 0;
  badgeCounts: number[] = [];
  loginItems: Record<string, unknown>[] = [];
  wasOpenedAtLogin = false;
  requestSingleInstanceLock(additionalData?: unknown): boolean {
    this.handedOver = additionalData;
    return this.lockGranted;
  }
  whenReady(): Promise<void> {
    this.ready = true;
    return Promise.resolve();
  }
  setAppLogsPath(path: string): void {
    this.logsPath = path;
  }
  setAboutPanelOptions(options: Record<string, unknown>): void {
    this.aboutOptions = options;
  }
  showAboutPanel(): void {
    this.aboutShown += 1;
  }
  setBadgeCount(count: number): boolean {
    this.badgeCounts.push(count);
    return true;
  }
  setLoginItemSettings(settings: Record<string, unknown>): void {
    this.loginItems.push(settings);
  }
  getLoginItemSettings(): { openAtLogin: boolean; wasOpenedAtLogin: boolean } {
    const last = this.loginItems[this.loginItems.length - 1];
    return { openAtLogin: last?.['openAtLogin'] === true, wasOpenedAtLogin: this.wasOpenedAtLogin };
  }
  getPath(name: string): string {
    return `/tmp/betdesk-fake/${name}`;
  }
  getAppPath(): string {
    return '/tmp/betdesk-fake/app';
  }
  getVersion(): string {
    return '0.1.0';
  }
  quit(): void {
    this.quitCalls += 1;
    // Electron emits before-quit; a listener may cancel.
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.emit('will-quit');
  }
  exit(code: number): void {
    this.exitCode = code;
  }
}

export class FakeIpcMain {
  handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}

export interface MenuTemplateItem {
  label?: string;
  role?: string;
  type?: string;
  accelerator?: string;
  registerAccelerator?: boolean;
  click?: () => void;
  submenu?: MenuTemplateItem[];
}

export const Menu = {
  applicationMenu: null as { template: MenuTemplateItem[] } | null,
  buildFromTemplate(template: MenuTemplateItem[]): { template: MenuTemplateItem[] } {
    return { template };
  },
  setApplicationMenu(menu: { template: MenuTemplateItem[] }): void {
    Menu.applicationMenu = menu;
  },
};

export class Tray extends EventEmitter {
  static all: Tray[] = [];
  /** As on a desktop without a tray: the constructor throws. */
  static unavailable = false;
  tooltip = '';
  menu: { template: MenuTemplateItem[] } | null = null;
  destroyed = false;
  /** Every image it showed, the first given to the constructor. */
  images: unknown[];
  constructor(image: unknown) {
    super();
    if (Tray.unavailable) throw new Error('This desktop has no tray.');
    this.images = [image];
    Tray.all.push(this);
  }
  get image(): unknown {
    return this.images[this.images.length - 1];
  }
  setImage(image: unknown): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.images.push(image);
  }
  setToolTip(text: string): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.tooltip = text;
  }
  setContextMenu(menu: { template: MenuTemplateItem[] }): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export class Notification extends EventEmitter {
  static shown: Notification[] = [];
  static supported = true;
  static isSupported(): boolean {
    return Notification.supported;
  }
  constructor(readonly options: { title?: string; body?: string; urgency?: string }) {
    super();
  }
  show(): void {
    Notification.shown.push(this);
  }
}

/** An image as the shell made it: from a file or a data URL. Compares equal to `{ path }` or
 *  `{ dataUrl }` (toEqual skips the prototype's methods). */
export class FakeImage {
  // A private field, not a property: toEqual sees only `path` or `dataUrl`.
  readonly #empty: boolean;
  constructor(fields: { path: string } | { dataUrl: string }, empty = false) {
    Object.assign(this, fields);
    this.#empty = empty;
  }
  isEmpty(): boolean {
    return this.#empty;
  }
}

export const nativeImage = {
  /** Paths whose file is missing: createFromPath answers an empty image for them. */
  missing: new Set<string>(),
  createFromDataURL: (url: string) => new FakeImage({ dataUrl: url }),
  createFromPath: (path: string) => new FakeImage({ path }, nativeImage.missing.has(path)),
};

type ProtocolHandler = (request: Request) => Promise<Response> | Response;

export const protocol = {
  privileged: [] as {
    scheme: string;
    privileges?: Record<string, boolean>;
    beforeReady: boolean;
  }[],
  handlers: new Map<string, ProtocolHandler>(),
  registerSchemesAsPrivileged(
    schemes: { scheme: string; privileges?: Record<string, boolean> }[],
  ): void {
    for (const s of schemes) protocol.privileged.push({ ...s, beforeReady: !fake.app.ready });
  },
  handle(scheme: string, handler: ProtocolHandler): void {
    if (!fake.app.ready) throw new Error('protocol.handle before ready');
    protocol.handlers.set(scheme, handler);
  },
};

export const clipboard = {
  text: '',
  writeText(text: string): Promise<void> {
    clipboard.text = text;
    return Promise.resolve();
  },
};

class FakeSession {
  headersListener:
    | ((
        details: { responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
      ) => void)
    | null = null;
  permissionRequest: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | null =
    null;
  permissionCheck: (() => boolean) | null = null;
  webRequest = {
    onHeadersReceived: (listener: NonNullable<FakeSession['headersListener']>) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: NonNullable<FakeSession['permissionRequest']>): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: () => boolean): void {
    this.permissionCheck = handler;
  }
}

export const shell = {
  opened: [] as string[],
  openedPaths: [] as string[],
  openExternal(url: string): Promise<void> {
    shell.opened.push(url);
    return Promise.resolve();
  },
  /** Resolves '' as Electron does when the folder opened. */
  openPath(path: string): Promise<string> {
    shell.openedPaths.push(path);
    return Promise.resolve('');
  },
};

export interface SaveDialogCall {
  /** The window it was attached to, if any. */
  parent: unknown;
  options: { title?: string; defaultPath?: string; filters?: unknown; properties?: string[] };
}

export const dialog = {
  errors: [] as { title: string; content: string }[],
  saves: [] as SaveDialogCall[],
  /** What the next save dialog answers: a path, or null as when the user closes it. */
  nextSave: null as string | null,
  showErrorBox(title: string, content: string): void {
    dialog.errors.push({ title, content });
  },
  showSaveDialog(
    ...args: [SaveDialogCall['options']] | [unknown, SaveDialogCall['options']]
  ): Promise<{ canceled: boolean; filePath: string }> {
    const [parent, options] = args.length === 2 ? args : [null, args[0]];
    dialog.saves.push({ parent, options });
    const path = dialog.nextSave;
    return Promise.resolve(
      path === null ? { canceled: true, filePath: '' } : { canceled: false, filePath: path },
    );
  },
};

const fake = {
  app: new FakeApp(),
  ipcMain: new FakeIpcMain(),
  session: { defaultSession: new FakeSession() },
};

export const app = fake.app;
export const ipcMain = fake.ipcMain;
export const session = fake.session;
export { FakeSession };

/** Puts every fake back as new, between tests. */
export function resetFakeElectron(): void {
  fake.app.removeAllListeners();
  fake.app.isPackaged = false;
  fake.app.lockGranted = true;
  fake.app.handedOver = undefined;
  fake.app.ready = false;
  fake.app.quitCalls = 0;
  fake.app.exitCode = null;
  fake.app.logsPath = null;
  fake.app.aboutOptions = null;
  fake.app.aboutShown = 0;
  fake.app.badgeCounts = [];
  fake.app.loginItems = [];
  fake.app.wasOpenedAtLogin = false;
  nativeImage.missing.clear();
  protocol.privileged = [];
  protocol.handlers.clear();
  clipboard.text = '';
  shell.openedPaths = [];
  fake.ipcMain.handlers.clear();
  fake.session.defaultSession = new FakeSession();
  BrowserWindow.all = [];
  BrowserWindow.holdLoads = false;
  Tray.all = [];
  Tray.unavailable = false;
  Notification.shown = [];
  Notification.supported = true;
  Menu.applicationMenu = null;
  shell.opened = [];
  dialog.errors = [];
  dialog.saves = [];
  dialog.nextSave = null;
}

export type { Listener };
