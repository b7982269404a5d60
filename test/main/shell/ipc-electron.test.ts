import { describe, expect, it } from 'vitest';
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import {
  ElectronIpcTransport,
  isTrustedSender,
  isTrustedSenderUrl,
  rendererLocation,
  type AppLocation,
} from '../../../src/main/shell/ipc-electron.js';
import { FakeIpcMain, FakeWebContents } from './fake-electron.js';

const built: AppLocation = { pageUrl: 'app://betdesk/index.html' };
const dev: AppLocation = { ...built, devUrl: 'http://localhost:5173/' };

function eventFrom(url: string, parent: unknown = null): IpcMainInvokeEvent {
  return { senderFrame: { url, parent } } as unknown as IpcMainInvokeEvent;
}

describe('where the page comes from', () => {
  it('is the built page on app://, plus the dev server electron-vite names in development', () => {
    expect(rendererLocation(false, {})).toEqual(built);
    expect(rendererLocation(false, { ELECTRON_RENDERER_URL: dev.devUrl })).toEqual(dev);
  });

  it('is the built page only in a packaged app, whatever the environment says', () => {
    expect(rendererLocation(true, { ELECTRON_RENDERER_URL: dev.devUrl })).toEqual(built);
  });
});

describe('the sender check', () => {
  it('trusts only our own built page on app://betdesk', () => {
    expect(isTrustedSenderUrl('app://betdesk/index.html', built)).toBe(true);
    expect(isTrustedSenderUrl('app://betdesk/index.html#x', built)).toBe(true);
    expect(isTrustedSenderUrl('app://betdesk/other.html', built)).toBe(false);
    expect(isTrustedSenderUrl('app://evil/index.html', built)).toBe(false);
    expect(isTrustedSenderUrl('app://betdesk.evil/index.html', built)).toBe(false);
  });

  it('no longer trusts file:// pages, not even the built file', () => {
    expect(isTrustedSenderUrl('file:///opt/betdesk/out/renderer/index.html', built)).toBe(false);
    expect(isTrustedSenderUrl('file:///tmp/evil.html', built)).toBe(false);
  });

  it('trusts no other page', () => {
    expect(isTrustedSenderUrl('https://evil.example/', built)).toBe(false);
    expect(isTrustedSenderUrl('https://betdesk/index.html', built)).toBe(false);
    expect(isTrustedSenderUrl('http://localhost:5173/', built)).toBe(false);
    expect(isTrustedSenderUrl('', built)).toBe(false);
  });

  it('trusts the dev server only by its exact origin, and only in development', () => {
    expect(isTrustedSenderUrl('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isTrustedSenderUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isTrustedSenderUrl('http://localhost.evil.example:5173/', dev)).toBe(false);
  });

  it('refuses sub-frames and vanished frames', () => {
    expect(isTrustedSender(eventFrom(built.pageUrl), built)).toBe(true);
    expect(isTrustedSender(eventFrom(built.pageUrl, { url: built.pageUrl }), built)).toBe(false);
    expect(isTrustedSender({ senderFrame: null } as unknown as IpcMainInvokeEvent, built)).toBe(
      false,
    );
  });
});

describe('the Electron transport', () => {
  function setup() {
    const ipcMain = new FakeIpcMain();
    const contents = [new FakeWebContents(), new FakeWebContents()];
    const logs: string[] = [];
    const transport = new ElectronIpcTransport(
      ipcMain as unknown as IpcMain,
      built,
      () => contents as unknown as WebContents[],
      (m) => logs.push(m),
    );
    return { ipcMain, contents, logs, transport };
  }

  it('hands a call from our page to the handler', async () => {
    const { ipcMain, transport } = setup();
    const seen: unknown[] = [];
    transport.handle('app:info', (input) => {
      seen.push(input);
      return Promise.resolve({ ok: true, value: 'info' });
    });
    const answer = await ipcMain.handlers.get('app:info')?.(eventFrom(built.pageUrl), {});
    expect(answer).toEqual({ ok: true, value: 'info' });
    expect(seen).toEqual([{}]);
  });

  it('refuses a call from any other frame before the handler runs', async () => {
    const { ipcMain, transport, logs } = setup();
    let ran = false;
    transport.handle('accounts:list', () => {
      ran = true;
      return Promise.resolve({ ok: true, value: null });
    });
    const call = ipcMain.handlers.get('accounts:list');
    await expect(Promise.resolve(call?.(eventFrom('https://evil.example/'), {}))).rejects.toThrow(
      /not Betdesk's own page/,
    );
    expect(ran).toBe(false);
    expect(logs).toEqual(['refused accounts:list from an untrusted frame']);
  });

  it('stops answering a channel once undone', () => {
    const { ipcMain, transport } = setup();
    const stop = transport.handle('status:get', () => Promise.resolve({ ok: true, value: 1 }));
    expect(ipcMain.handlers.has('status:get')).toBe(true);
    stop();
    expect(ipcMain.handlers.has('status:get')).toBe(false);
  });

  it('pushes events to every live window and skips closed ones', () => {
    const { contents, transport } = setup();
    contents[1]!.destroyed = true;
    transport.broadcast('positions:changed', { accountId: null, at: 1 });
    expect(contents[0]!.sent).toEqual([
      { channel: 'positions:changed', payload: { accountId: null, at: 1 } },
    ]);
    expect(contents[1]!.sent).toEqual([]);
  });
});
