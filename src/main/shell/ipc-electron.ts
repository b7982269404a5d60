/**
 * The IPC transport over Electron's ipcMain. Like VS Code's validatedIpcMain, every call is
 * answered only when it comes from the top frame of our own page (app://betdesk/index.html, or
 * the dev server's origin in development); anything else, file:// included, is refused before a
 * handler runs.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { IpcChannel, IpcEvent } from '../../shared/ipc/contract.js';
import type { IpcTransport, RawHandler } from '../ipc/transport.js';
import { APP_PAGE_URL } from './protocol.js';

export interface AppLocation {
  /** The built renderer's page on the app:// scheme. */
  pageUrl: string;
  /** The electron-vite dev server's URL, in development only. */
  devUrl?: string;
}

/**
 * Where the window's page comes from: the built renderer on app://, plus, in development only,
 * the dev server electron-vite names in ELECTRON_RENDERER_URL. A packaged app ignores that
 * variable: whoever can set it could otherwise give Betdesk's bridge a page of their own.
 */
export function rendererLocation(
  packaged: boolean,
  env: Record<string, string | undefined>,
): AppLocation {
  const devUrl = packaged ? undefined : env['ELECTRON_RENDERER_URL'];
  return { pageUrl: APP_PAGE_URL, ...(devUrl ? { devUrl } : {}) };
}

export function isTrustedSenderUrl(url: string, location: AppLocation): boolean {
  let sender: URL;
  try {
    sender = new URL(url);
  } catch {
    return false;
  }
  const ours = new URL(location.pageUrl);
  if (sender.protocol === ours.protocol) {
    return sender.host === ours.host && sender.pathname === ours.pathname;
  }
  if (location.devUrl) {
    const dev = new URL(location.devUrl);
    return (
      (sender.protocol === 'http:' || sender.protocol === 'https:') && sender.origin === dev.origin
    );
  }
  return false;
}

export function isTrustedSender(event: IpcMainInvokeEvent, location: AppLocation): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return isTrustedSenderUrl(frame.url, location);
}

export class ElectronIpcTransport implements IpcTransport {
  constructor(
    private readonly ipcMain: IpcMain,
    private readonly location: AppLocation,
    private readonly targets: () => WebContents[],
    private readonly log: (message: string) => void = (m) => console.error(`Betdesk: ${m}`),
  ) {}

  handle(channel: IpcChannel, handler: RawHandler): () => void {
    this.ipcMain.handle(channel, async (event, input: unknown) => {
      if (!isTrustedSender(event, this.location)) {
        this.log(`refused ${channel} from an untrusted frame`);
        throw new Error(`Betdesk refused ${channel}: the caller is not Betdesk's own page.`);
      }
      return handler(input);
    });
    return () => this.ipcMain.removeHandler(channel);
  }

  broadcast(event: IpcEvent, payload: unknown): void {
    for (const contents of this.targets()) {
      if (!contents.isDestroyed()) contents.send(event, payload);
    }
  }
}
