import { describe, expect, test } from 'vitest';
import type { ExportProgress, ExportStarted } from '../../../src/shared/ipc/contract.js';
import {
  ExportsState,
  type ExportTarget,
} from '../../../src/renderer/src/lib/state/exports.svelte.js';
import { deferred, FakeBridge, settle } from '../fake-bridge.js';
import { NOW } from '../rows.js';

const SETTLEMENTS: ExportTarget = {
  kind: 'settlements',
  filter: { type: 'CLOSED', from: NOW - 86_400_000 },
  about: 'Closed, last day',
};

function started(over: Partial<NonNullable<ExportStarted['export']>> = {}): ExportStarted {
  return {
    export: {
      exportId: 'exp-00000001',
      total: 1_000_000,
      fileName: 'betdesk-settlements-2027-01-15.csv',
      download: null,
      file: '/home/me/betdesk-settlements-2027-01-15.csv',
      ...over,
    },
  };
}

function progress(over: Partial<ExportProgress> = {}): ExportProgress {
  return {
    exportId: 'exp-00000001',
    kind: 'settlements',
    state: 'running',
    rows: 250_000,
    total: 1_000_000,
    fileName: 'betdesk-settlements-2027-01-15.csv',
    message: null,
    ...over,
  };
}

function setup(answer: ExportStarted | (() => Promise<ExportStarted>) = started()) {
  const bridge = new FakeBridge();
  bridge.answer('export:start', answer);
  bridge.answer('export:cancel', { canceled: true });
  const downloads: [string, string][] = [];
  const exports = new ExportsState(bridge, (path, name) => downloads.push([path, name]));
  exports.start();
  return { bridge, exports, downloads };
}

describe('CSV export from the app', () => {
  test('sends the filter with the options: formula guard on and no BOM unless chosen', async () => {
    const { bridge, exports } = setup();
    expect(exports.formulaGuard).toBe(true);
    expect(exports.bom).toBe(false);
    exports.ask(SETTLEMENTS);
    expect(exports.asking).toEqual(SETTLEMENTS);
    exports.bom = true;
    await exports.run();
    expect(exports.asking).toBeNull();
    expect(bridge.inputs('export:start')).toEqual([
      {
        kind: 'settlements',
        filter: { type: 'CLOSED', from: NOW - 86_400_000 },
        options: { bom: true, formulaGuard: true },
      },
    ]);
  });

  test('the orders screen exports its own scope', async () => {
    const { bridge, exports } = setup();
    await exports.run({ kind: 'orders', filter: { status: 'filled', side: 'SELL' }, about: '' });
    expect(bridge.inputs('export:start')[0]).toEqual({
      kind: 'orders',
      filter: { status: 'filled', side: 'SELL' },
      options: { bom: false, formulaGuard: true },
    });
  });

  test('progress follows export:progress, rows written of total, and ends in words', async () => {
    const { bridge, exports, downloads } = setup();
    await exports.run(SETTLEMENTS);
    expect(exports.job?.state).toBe('waiting');
    expect(exports.busy).toBe(true);
    expect(downloads).toEqual([]); // the desktop app writes the file itself
    bridge.emit('export:progress', progress());
    expect(exports.job?.rows).toBe(250_000);
    expect(exports.words).toBe('Exporting settlements: 250,000 of 1,000,000 rows written.');
    bridge.emit('export:progress', progress({ state: 'done', rows: 1_000_000 }));
    expect(exports.busy).toBe(false);
    expect(exports.words).toBe(
      'Export finished: 1,000,000 rows written to /home/me/betdesk-settlements-2027-01-15.csv.',
    );
    exports.dismiss();
    expect(exports.job).toBeNull();
  });

  test('in the browser host the page follows the download path; the host streams the file', async () => {
    const path = '/export/exp-00000001.csv?token=t';
    const { bridge, exports, downloads } = setup(started({ download: path, file: null }));
    await exports.run(SETTLEMENTS);
    expect(downloads).toEqual([[path, 'betdesk-settlements-2027-01-15.csv']]);
    expect(exports.words).toContain('waiting for the browser to start the download');
    bridge.emit('export:progress', progress({ state: 'done', rows: 1_000_000 }));
    expect(exports.words).toBe(
      'Export finished: 1,000,000 rows sent to your downloads as betdesk-settlements-2027-01-15.csv.',
    );
  });

  test('closing the save dialog exports nothing and says nothing', async () => {
    const { exports } = setup({ export: null });
    await exports.run(SETTLEMENTS);
    expect(exports.job).toBeNull();
    expect(exports.error).toBeNull();
    expect(exports.busy).toBe(false);
  });

  test('Cancel stops it; a late "running" does not bring it back', async () => {
    const { bridge, exports } = setup();
    await exports.run(SETTLEMENTS);
    bridge.emit('export:progress', progress());
    await exports.cancel();
    expect(bridge.inputs('export:cancel')).toEqual([{ exportId: 'exp-00000001' }]);
    expect(exports.job?.state).toBe('canceled');
    expect(exports.words).toBe('Export canceled: no file was left behind.');
    bridge.emit('export:progress', progress({ rows: 300_000 }));
    expect(exports.job?.state).toBe('canceled');
  });

  test('a failure says why, in words', async () => {
    const { bridge, exports } = setup();
    await exports.run(SETTLEMENTS);
    bridge.emit('export:progress', progress({ state: 'failed', message: 'The disk is full.' }));
    expect(exports.words).toBe('Export failed: The disk is full. No file was left behind.');
  });

  test('progress that arrives before the answer to export:start is kept', async () => {
    const answer = deferred<ExportStarted>();
    const { bridge, exports } = setup(() => answer.promise);
    const running = exports.run(SETTLEMENTS);
    await settle();
    bridge.emit('export:progress', progress({ state: 'done', rows: 12 }));
    answer.resolve(started());
    await running;
    expect(exports.job?.state).toBe('done');
    expect(exports.job?.rows).toBe(12);
  });

  test('one export at a time: a second waits until the first has ended', async () => {
    const { bridge, exports } = setup();
    await exports.run(SETTLEMENTS);
    await exports.run(SETTLEMENTS);
    expect(bridge.inputs('export:start')).toHaveLength(1);
    bridge.emit('export:progress', progress({ state: 'done' }));
    await exports.run(SETTLEMENTS);
    expect(bridge.inputs('export:start')).toHaveLength(2);
  });

  test('an export that cannot start says why', async () => {
    const { bridge, exports } = setup();
    bridge.fail('export:start', { kind: 'invalid-input', message: 'That filter is not valid.' });
    await exports.run(SETTLEMENTS);
    expect(exports.error).toBe('That filter is not valid.');
    expect(exports.busy).toBe(false);
  });

  test('how an export ends is told once, for the screen reader', async () => {
    const { bridge, exports } = setup();
    const ended: string[] = [];
    exports.onEnd((job) => ended.push(job.state));
    await exports.run(SETTLEMENTS);
    bridge.emit('export:progress', progress());
    expect(ended).toEqual([]);
    await exports.cancel();
    bridge.emit('export:progress', progress({ state: 'canceled' }));
    expect(ended).toEqual(['canceled']);
  });
});

describe('the progress line', () => {
  test('works until the export ends, with the share of rows written while it runs', async () => {
    const { bridge, exports } = setup();
    expect(exports.tone).toBe('working');
    expect(exports.fraction).toBeNull();
    await exports.run(SETTLEMENTS);
    expect(exports.tone).toBe('working');
    expect(exports.fraction).toBeNull();
    bridge.emit('export:progress', progress());
    expect(exports.fraction).toBe(0.25);
    bridge.emit('export:progress', progress({ state: 'done', rows: 1_000_000 }));
    expect(exports.tone).toBe('ok');
    expect(exports.fraction).toBeNull();
  });

  test('a failed export is shown as failed, a canceled one as ended', async () => {
    const { bridge, exports } = setup();
    await exports.run(SETTLEMENTS);
    bridge.emit('export:progress', progress({ state: 'failed', message: 'Disk full.' }));
    expect(exports.tone).toBe('failed');
    exports.dismiss();
    await exports.run(SETTLEMENTS);
    await exports.cancel();
    expect(exports.tone).toBe('ok');
  });
});
