/**
 * Where a CSV export is saved, asked with the native save dialog (attached to the window when
 * there is one), in the user's Downloads folder under the export's default name.
 */
import { join } from 'node:path';
import type { BaseWindow, Dialog, SaveDialogOptions } from 'electron';

export interface SaveDialogDeps {
  dialog: Pick<Dialog, 'showSaveDialog'>;
  /** The folder the dialog opens in (Electron's `downloads` path). */
  folder: () => string;
  /** The window to attach the dialog to, if one is open. */
  parent: () => BaseWindow | null;
}

/** The export destination's `chooseFile`: an absolute path, or null when the user closed it. */
export function exportFileChooser(
  deps: SaveDialogDeps,
): (defaultName: string) => Promise<string | null> {
  return async (defaultName) => {
    const options: SaveDialogOptions = {
      title: 'Export CSV',
      buttonLabel: 'Export',
      defaultPath: join(deps.folder(), defaultName),
      filters: [{ name: 'CSV (comma-separated values)', extensions: ['csv'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const parent = deps.parent();
    const answer =
      parent && !parent.isDestroyed()
        ? await deps.dialog.showSaveDialog(parent, options)
        : await deps.dialog.showSaveDialog(options);
    return answer.canceled || answer.filePath === '' ? null : answer.filePath;
  };
}
