/**
 * The Help menu's actions and the About panel: the logs folder opened in the file manager, the
 * diagnostics (versions, settings without secrets, sync state, last errors) put on the clipboard,
 * and the versions of the app and of Electron, Chrome and Node.
 */
import type { AboutPanelOptionsOptions, Clipboard, NotificationConstructorOptions } from 'electron';
import type { AppInfo } from '../../shared/ipc/contract.js';
import type { IpcHandlers } from '../ipc/handler.js';
import { DIAGNOSTICS_COPIED } from './notices.js';

export interface HelpParts {
  support: Pick<IpcHandlers, 'logs:open' | 'support:diagnostics'>;
  clipboard: Pick<Clipboard, 'writeText'>;
  notify(options: NotificationConstructorOptions): void;
  /** Tells the user an action failed (an error box): a title and a sentence. */
  fail(title: string, message: string): void;
}

export interface HelpActions {
  openLogsFolder(): Promise<void>;
  copyDiagnostics(): Promise<void>;
}

export function helpActions(parts: HelpParts): HelpActions {
  return {
    async openLogsFolder() {
      const title = 'Betdesk could not open its logs folder';
      try {
        const { opened, path, error } = await parts.support['logs:open']({});
        if (opened) return;
        // Where the folder is, so the user can still find it by hand.
        const where = path ? `The logs are in ${path}.` : 'Betdesk keeps no log file in this run.';
        parts.fail(title, error ? `${error} ${where}` : where);
      } catch (err) {
        parts.fail(title, messageOf(err));
      }
    },
    async copyDiagnostics() {
      try {
        const { text } = await parts.support['support:diagnostics']({});
        await parts.clipboard.writeText(text);
        parts.notify(DIAGNOSTICS_COPIED);
      } catch (err) {
        parts.fail('Betdesk could not collect its diagnostics', messageOf(err));
      }
    },
  };
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * What the About panel shows. Each OS shows different fields: macOS `version` after the app's
 * version, Windows `credits`, and Linux only the app's version, so the runtime versions go where
 * each one shows them.
 */
export function aboutPanelOptions(
  versions: AppInfo['versions'],
  platform: NodeJS.Platform,
  iconPath: string,
): AboutPanelOptionsOptions {
  const runtime = [
    `Electron ${versions.electron ?? '-'}`,
    `Chrome ${versions.chrome ?? '-'}`,
    `Node ${versions.node}`,
  ].join(', ');
  const common = { applicationName: 'Betdesk', copyright: 'Copyright © 2026 Betdesk' };
  if (platform === 'darwin')
    return { ...common, applicationVersion: versions.app, version: runtime };
  if (platform === 'win32') {
    return { ...common, applicationVersion: versions.app, credits: runtime, iconPath };
  }
  return { ...common, applicationVersion: `${versions.app} (${runtime})`, iconPath };
}
