/** The renderer's thin wrappers over browser APIs: downloads, notifications, the clipboard. */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { isAboutPosition } from '../../../src/renderer/src/lib/alert-kinds.js';
import { copyText } from '../../../src/renderer/src/lib/clipboard.js';
import { startDownload } from '../../../src/renderer/src/lib/download.js';
import { webNotifications } from '../../../src/renderer/src/lib/web-notifications.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('downloads in the browser host', () => {
  test('follow a hidden <a download> to the path, which leaves the page afterwards', () => {
    const body: FakeAnchor[] = [];
    class FakeAnchor {
      href = '';
      download = '';
      rel = '';
      hidden = false;
      clicked = false;
      click(): void {
        this.clicked = body.includes(this);
      }
      remove(): void {
        body.splice(body.indexOf(this), 1);
      }
    }
    const made: FakeAnchor[] = [];
    vi.stubGlobal('document', {
      createElement: () => {
        const a = new FakeAnchor();
        made.push(a);
        return a;
      },
      body: { append: (a: FakeAnchor) => body.push(a) },
    });
    startDownload('/download/exp-1', 'betdesk-orders.csv');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      href: '/download/exp-1',
      download: 'betdesk-orders.csv',
      rel: 'noopener',
      hidden: true,
      clicked: true,
    });
    expect(body).toEqual([]);
  });
});

describe('desktop notifications in the browser host', () => {
  test('are unsupported where the browser has none, and show nothing', async () => {
    vi.stubGlobal('Notification', undefined);
    const port = webNotifications();
    expect(port.permission()).toBe('unsupported');
    expect(await port.request()).toBe('unsupported');
    port.show({ title: 't', body: 'b', tag: 'x' }, () => {});
  });

  test('show only once permitted, and a click focuses the app and runs the action', async () => {
    const shown: FakeNotification[] = [];
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission = vi.fn(() => {
        FakeNotification.permission = 'granted';
        return Promise.resolve<NotificationPermission>('granted');
      });
      onclick: (() => void) | null = null;
      closed = false;
      constructor(
        readonly title: string,
        readonly options: { body: string; tag: string },
      ) {
        shown.push(this);
      }
      close(): void {
        this.closed = true;
      }
    }
    const focus = vi.fn();
    vi.stubGlobal('Notification', FakeNotification);
    vi.stubGlobal('window', { focus });
    const port = webNotifications();
    const clicks: string[] = [];
    port.show({ title: 'Knocked out', body: 'ARS', tag: 'a-1' }, () => clicks.push('a-1'));
    expect(shown).toHaveLength(0);
    expect(await port.request()).toBe('granted');
    expect(port.permission()).toBe('granted');
    port.show({ title: 'Knocked out', body: 'ARS', tag: 'a-1' }, () => clicks.push('a-1'));
    expect(shown.map((n) => [n.title, n.options])).toEqual([
      ['Knocked out', { body: 'ARS', tag: 'a-1' }],
    ]);
    shown[0]?.onclick?.();
    expect(focus).toHaveBeenCalledOnce();
    expect(clicks).toEqual(['a-1']);
    expect(shown[0]?.closed).toBe(true);
  });
});

describe('alert kinds', () => {
  test('every kind but a rejection is about a position', () => {
    expect(isAboutPosition('near')).toBe(true);
    expect(isAboutPosition('knocked_out')).toBe(true);
    expect(isAboutPosition('filled')).toBe(true);
    expect(isAboutPosition('rejected')).toBe(false);
  });
});

describe('copying to the clipboard', () => {
  test('says whether the browser took the text', async () => {
    const written: string[] = [];
    vi.stubGlobal('navigator', {
      clipboard: { writeText: (t: string) => (written.push(t), Promise.resolve()) },
    });
    expect(await copyText('0xabc')).toBe(true);
    expect(written).toEqual(['0xabc']);
    vi.stubGlobal('navigator', {
      clipboard: { writeText: () => Promise.reject(new Error('NotAllowedError')) },
    });
    expect(await copyText('0xdef')).toBe(false);
  });
});
