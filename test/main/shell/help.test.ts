import type { NotificationConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { LogsFolderOpened } from '../../../src/shared/ipc/contract.js';
import { aboutPanelOptions, helpActions } from '../../../src/main/shell/help.js';
import { DIAGNOSTICS_COPIED, showNotice, trayNotice } from '../../../src/main/shell/notices.js';
import type { NotificationParts } from '../../../src/main/shell/notifications.js';
import { clipboard, Notification, resetFakeElectron } from './fake-electron.js';

function help(opened: LogsFolderOpened | Error, diagnostics: { text: string } | Error) {
  resetFakeElectron();
  const notices: NotificationConstructorOptions[] = [];
  const failures: { title: string; message: string }[] = [];
  const answer = <T>(value: T | Error) =>
    value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
  const actions = helpActions({
    support: {
      'logs:open': () => answer(opened),
      'support:diagnostics': () =>
        answer(diagnostics).then((d) => ({ ...d, bytes: d.text.length, errors: 0 })),
    },
    clipboard,
    notify: (options) => notices.push(options),
    fail: (title, message) => failures.push({ title, message }),
  });
  return { actions, notices, failures };
}

const opened: LogsFolderOpened = {
  path: '/home/me/.local/state/betdesk/logs',
  opened: true,
  error: null,
};

describe('Help > Copy diagnostics', () => {
  it('puts the diagnostics text on the clipboard and says so', async () => {
    const { actions, notices, failures } = help(opened, { text: 'Betdesk 0.1.0\nsync: idle' });
    await actions.copyDiagnostics();
    expect(clipboard.text).toBe('Betdesk 0.1.0\nsync: idle');
    expect(notices).toEqual([DIAGNOSTICS_COPIED]);
    expect(failures).toEqual([]);
  });

  it('says so in an error box when they cannot be collected, and copies nothing', async () => {
    const { actions, notices, failures } = help(opened, new Error('The store is closed.'));
    await actions.copyDiagnostics();
    expect(clipboard.text).toBe('');
    expect(notices).toEqual([]);
    expect(failures).toEqual([
      { title: 'Betdesk could not collect its diagnostics', message: 'The store is closed.' },
    ]);
  });
});

describe('Help > Open logs folder', () => {
  it('says nothing when the folder opened', async () => {
    const { actions, failures } = help(opened, { text: '' });
    await actions.openLogsFolder();
    expect(failures).toEqual([]);
  });

  it('says why not, and where the logs are, when it did not open', async () => {
    const { actions, failures } = help(
      { ...opened, opened: false, error: 'No file manager was found.' },
      { text: '' },
    );
    await actions.openLogsFolder();
    expect(failures).toEqual([
      {
        title: 'Betdesk could not open its logs folder',
        message: 'No file manager was found. The logs are in /home/me/.local/state/betdesk/logs.',
      },
    ]);
  });

  it('says when no log file is kept, and when the service failed', async () => {
    const none = help({ path: null, opened: false, error: null }, { text: '' });
    await none.actions.openLogsFolder();
    expect(none.failures[0]?.message).toBe('Betdesk keeps no log file in this run.');
    const broken = help(new Error('Services stopped.'), { text: '' });
    await broken.actions.openLogsFolder();
    expect(broken.failures[0]?.message).toBe('Services stopped.');
  });
});

describe('the About panel', () => {
  const versions = { app: '0.1.0', node: '22.20.0', electron: '45.5.0', chrome: '142.0.7444.52' };
  const runtime = 'Electron 45.5.0, Chrome 142.0.7444.52, Node 22.20.0';

  it('shows the app version and the runtime versions where each OS shows them', () => {
    expect(aboutPanelOptions(versions, 'darwin', '/i.png')).toMatchObject({
      applicationName: 'Betdesk',
      applicationVersion: '0.1.0',
      version: runtime,
    });
    expect(aboutPanelOptions(versions, 'win32', '/i.png')).toMatchObject({
      applicationVersion: '0.1.0',
      credits: runtime,
      iconPath: '/i.png',
    });
    expect(aboutPanelOptions(versions, 'linux', '/i.png')).toMatchObject({
      applicationVersion: `0.1.0 (${runtime})`,
      iconPath: '/i.png',
    });
  });
});

describe('the shell’s notices', () => {
  it('say where Betdesk went when its window closed, in the words of each desktop', () => {
    expect(trayNotice('linux').body).toBe(
      'Betdesk is still running in the tray; it keeps watching your positions. Quit from the tray menu or File > Quit.',
    );
    expect(trayNotice('darwin').body).toContain('Betdesk > Quit Betdesk');
  });

  it('show only where the desktop has notifications', () => {
    const parts = { Notification } as unknown as NotificationParts;
    resetFakeElectron();
    showNotice(parts, trayNotice('linux'));
    Notification.supported = false;
    showNotice(parts, DIAGNOSTICS_COPIED);
    expect(Notification.shown.map((n) => n.options.title)).toEqual(['Betdesk is still running']);
  });
});
