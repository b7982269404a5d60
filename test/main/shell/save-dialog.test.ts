/**
 * The shell's save dialog as the export destination: what it asks Electron, and an export from
 * the app's export service written where the user chose (electron mocked as the shell tests do).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { exportFeature } from '../../../src/main/export/feature.js';
import { exportSettlementsCsv } from '../../../src/main/export/index.js';
import { exportFileChooser } from '../../../src/main/shell/save-dialog.js';
import type { Store } from '../../../src/main/store/index.js';
import type { ExportProgress } from '../../../src/shared/ipc/contract.js';
import { fill, ProgressLog, sessionOf, sink } from '../export/support.js';
import { storeAndDirEachTest } from '../store/support.js';
import * as electron from './fake-electron.js';

let store: Store;
let accountId: number;
let dir: string;
beforeEach(() => electron.resetFakeElectron());
storeAndDirEachTest((t) => ({ store, accountId, dir } = t));

const folder = () => '/home/me/Downloads';

describe('the save dialog for exports', () => {
  it('opens in Downloads under the default name, asks before overwriting, and says CSV', async () => {
    const win = new electron.BrowserWindow({});
    const choose = exportFileChooser({
      dialog: electron.dialog,
      folder,
      parent: () => win as never,
    });
    electron.dialog.nextSave = '/home/me/Downloads/mine.csv';
    expect(await choose('betdesk-orders-2025-01-31.csv')).toBe('/home/me/Downloads/mine.csv');
    expect(electron.dialog.saves).toEqual([
      {
        parent: win,
        options: {
          title: 'Export CSV',
          buttonLabel: 'Export',
          defaultPath: '/home/me/Downloads/betdesk-orders-2025-01-31.csv',
          filters: [{ name: 'CSV (comma-separated values)', extensions: ['csv'] }],
          properties: ['createDirectory', 'showOverwriteConfirmation'],
        },
      },
    ]);
  });

  it('opens on its own when there is no window, and answers null when closed', async () => {
    const gone = new electron.BrowserWindow({});
    gone.destroy();
    for (const parent of [null, gone]) {
      const choose = exportFileChooser({
        dialog: electron.dialog,
        folder,
        parent: () => parent as never,
      });
      expect(await choose('x.csv')).toBeNull();
    }
    expect(electron.dialog.saves.map((s) => s.parent)).toEqual([null, null]);
  });

  it('lets the desktop app export to the file the user chose', async () => {
    fill(store, accountId, 1500);
    const file = path.join(dir, 'from the dialog.csv');
    electron.dialog.nextSave = file;
    const log = new ProgressLog();
    const exports = exportFeature({
      store,
      started: sessionOf(accountId),
      emit: (_event, payload) => log.emit(payload as ExportProgress),
      destination: {
        kind: 'file',
        chooseFile: exportFileChooser({ dialog: electron.dialog, folder, parent: () => null }),
      },
    });
    const { export: started } = await exports['export:start']({
      kind: 'settlements',
      filter: { team: 'LIV' },
      options: { bom: false, formulaGuard: true },
    });
    expect(started).toMatchObject({ file, fileName: 'from the dialog.csv', download: null });
    expect(await log.final(started!.exportId)).toMatchObject({ state: 'done', rows: 300 });
    const same = sink();
    await exportSettlementsCsv(store, same.stream, { accountId, team: 'LIV' });
    expect(fs.readFileSync(file).equals(same.bytes())).toBe(true);
  });
});
