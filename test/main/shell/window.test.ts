import { describe, expect, it } from 'vitest';
import type { WebContents } from 'electron';
import {
  hardenWebContents,
  isSafeExternalUrl,
  mainWindowOptions,
  windowOpenHandler,
} from '../../../src/main/shell/window.js';
import { FakeWebContents } from './fake-electron.js';

function opener() {
  const opened: string[] = [];
  return { opened, open: (url: string) => (opened.push(url), Promise.resolve()) };
}

describe('the main window', () => {
  it('runs the page isolated and sandboxed, without Node', () => {
    const prefs = mainWindowOptions('/app/out/preload/index.cjs').webPreferences;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('links and navigation', () => {
  it('lets only plain https addresses leave the app', () => {
    expect(isSafeExternalUrl('https://example.com/docs')).toBe(true);
    for (const url of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com',
      'not a url',
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
  });

  it('never opens a window, and hands https links to the user’s browser', () => {
    const { opened, open } = opener();
    const handler = windowOpenHandler(open);
    expect(handler({ url: 'https://example.com/help' } as never)).toEqual({ action: 'deny' });
    expect(handler({ url: 'file:///etc/passwd' } as never)).toEqual({ action: 'deny' });
    expect(handler({ url: 'http://example.com' } as never)).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/help']);
  });

  it('blocks navigation, redirects and webviews in every web contents', () => {
    const contents = new FakeWebContents();
    const { opened, open } = opener();
    hardenWebContents(contents as unknown as WebContents, open);
    expect(contents.navigate('will-navigate', 'https://evil.example')).toBe(true);
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.navigate('will-redirect', 'https://evil.example')).toBe(true);
    expect(contents.navigate('will-attach-webview', 'https://evil.example')).toBe(true);
    expect(contents.windowOpenHandler?.({ url: 'https://example.com' })).toEqual({
      action: 'deny',
    });
    expect(opened).toEqual(['https://example.com']);
  });
});
