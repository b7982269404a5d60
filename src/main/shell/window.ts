/**
 * The one window and the rules every web contents follows: no Node, sandboxed, isolated; no
 * navigation away from the app, no new windows, no webviews; https links open in the user's
 * browser and nothing else leaves the app.
 */
import type {
  BrowserWindowConstructorOptions,
  HandlerDetails,
  WebContents,
  WindowOpenHandlerResponse,
} from 'electron';

export function mainWindowOptions(
  preload: string,
  icon?: unknown,
): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Betdesk',
    backgroundColor: '#14161a',
    ...(icon ? { icon: icon as BrowserWindowConstructorOptions['icon'] } : {}),
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** Only https addresses may leave the app, and only to the user's browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.hostname !== '' && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

export type OpenExternal = (url: string) => Promise<void>;

/** The page never opens a window; an https link goes to the user's browser instead. */
export function windowOpenHandler(
  openExternal: OpenExternal,
): (details: HandlerDetails) => WindowOpenHandlerResponse {
  return ({ url }) => {
    if (isSafeExternalUrl(url)) {
      openExternal(url).catch((err: unknown) => {
        console.error('Betdesk: could not open a link in the browser:', String(err));
      });
    }
    return { action: 'deny' };
  };
}

/** Applied to every web contents the app creates, as Electron's security checklist asks. */
export function hardenWebContents(contents: WebContents, openExternal: OpenExternal): void {
  const block = (event: { preventDefault(): void }) => event.preventDefault();
  // The renderer is a single page: any navigation is an attack or a mistake.
  contents.on('will-navigate', block);
  contents.on('will-redirect', block);
  contents.on('will-attach-webview', block);
  contents.setWindowOpenHandler(windowOpenHandler(openExternal));
}
