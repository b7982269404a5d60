import { describe, expect, it } from 'vitest';
import { handedOverArgs, parseAppArgs } from '../../../src/main/shell/args.js';

describe("Betdesk's arguments", () => {
  it('are none for a plain start', () => {
    expect(parseAppArgs(['/opt/Betdesk/betdesk'])).toEqual({ hidden: false, screen: null });
  });

  it('say to start hidden in the tray with --hidden', () => {
    expect(parseAppArgs(['/opt/Betdesk/betdesk', '--hidden'])).toEqual({
      hidden: true,
      screen: null,
    });
  });

  it('name a screen with --screen <name> or --screen=<name>', () => {
    expect(parseAppArgs(['betdesk', '--screen', 'positions']).screen).toBe('positions');
    expect(parseAppArgs(['betdesk', '--screen=orders']).screen).toBe('orders');
    expect(parseAppArgs(['betdesk', '--hidden', '--screen=alerts'])).toEqual({
      hidden: true,
      screen: 'alerts',
    });
  });

  it('ignore a screen that does not exist, and a --screen with nothing after it', () => {
    expect(parseAppArgs(['betdesk', '--screen', 'settings']).screen).toBeNull();
    expect(parseAppArgs(['betdesk', '--screen=']).screen).toBeNull();
    expect(parseAppArgs(['betdesk', '--screen']).screen).toBeNull();
  });

  it("ignore Electron's and Chromium's switches and the app folder in development", () => {
    expect(
      parseAppArgs([
        '/usr/lib/electron/electron',
        '/home/me/betdesk',
        '--original-process-start-time=13345',
        '--enable-features=X',
        '--screen',
        'history',
        '--allow-file-access-from-files',
      ]),
    ).toEqual({ hidden: false, screen: 'history' });
    expect(parseAppArgs(['betdesk', '--hiddenness', 'hidden']).hidden).toBe(false);
  });
});

describe('what a second instance hands over', () => {
  it('is read from its hand-over, which keeps its arguments exactly', () => {
    const argv = ['betdesk', '--original-process-start-time=1'];
    expect(handedOverArgs(argv, { argv: ['betdesk', '--screen', 'orders'] })).toEqual({
      hidden: false,
      screen: 'orders',
    });
  });

  it('falls back to the event argv when there is no valid hand-over', () => {
    const argv = ['betdesk', '--screen=positions'];
    for (const data of [undefined, null, {}, { argv: 'betdesk --hidden' }, { argv: [1, 2] }]) {
      expect(handedOverArgs(argv, data).screen).toBe('positions');
    }
  });
});
