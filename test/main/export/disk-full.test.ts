/**
 * A full disk during an export (issue 9, "A store that survives accidents"): the export stops
 * with a sentence that says how far it got, its partial file is removed, and the store it read
 * still opens and passes its integrity check. The CLI's export runs in a child process with a
 * file-size limit (test/harness/file-size-limit.ts). The app's exports run the same code (csv.ts) and show the
 * same sentence on the progress bar (jobs.ts), checked the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureMessage } from '../../../src/main/export/index.js';
import { openStore } from '../../../src/main/store/index.js';
import type { ExportProgress } from '../../../src/shared/ipc/contract.js';
import { spawnWithFileSizeLimit, tsxScript } from '../../harness/file-size-limit.js';
import { spawnProgram } from '../../harness/processes.js';
import { bundle, type Runnable } from '../trading/bundle.js';
import { tempStore } from '../store/support.js';
import { fill } from './support.js';

const SETTLEMENTS = 20_000;
/** About 8,000 rows of CSV: the export cannot finish under it. */
const LIMIT_BYTES = 1024 * 1024;

let cli: Runnable;
let file: string;
let dir: string;
let done = () => {};

beforeAll(async () => {
  cli = await bundle('src/main/cli/index.ts', 'betdesk-cli');
  const t = tempStore();
  fill(t.store, t.accountId, SETTLEMENTS);
  t.store.close();
  ({ file } = t);
  dir = path.dirname(file);
  done = t.done;
});

afterAll(() => {
  done();
  cli.remove();
});

/** `betdesk export settlements --out <out>` in a child, under a file-size limit if given. */
async function exportInChild(out: string, limitBytes?: number) {
  const args = [...cli.args, 'export', 'settlements', '--db', file, '--out', out];
  const program =
    limitBytes === undefined
      ? spawnProgram(cli.file, args, { env: childEnv() })
      : spawnWithFileSizeLimit(limitBytes, cli.file, args, { env: childEnv() });
  const exit = await program.exited;
  return { code: exit.code, stdout: program.stdout(), stderr: program.stderr() };
}

function childEnv(): NodeJS.ProcessEnv {
  return {
    XDG_DATA_HOME: path.join(dir, 'data'),
    BETDESK_KEYCHAIN_SERVICE: 'Betdesk-test-unused',
  };
}

describe('a full disk during an export', () => {
  it('stops with how far it got, leaves no partial file, and the store still opens', async () => {
    const out = path.join(dir, 'settlements.csv');
    const before = fs.readdirSync(dir).sort();

    const r = await exportInChild(out, LIMIT_BYTES);

    expect(r.code).toBe(1);
    // The CLI's daily backup met the same limit first: said, and the export went on.
    const [backup, ...rest] = r.stderr.split(/(?<=\n)/);
    expect(backup).toBe(
      'The daily backup of the store could not be made: the disk is full. The store itself is ' +
        'unchanged; the next command tries again once there is room.\n',
    );
    const said =
      /^The disk is full: the export stopped after (\d+) rows and the partial file was removed\.\n$/.exec(
        rest.join(''),
      );
    expect(said, r.stderr).not.toBeNull();
    const rows = Number(said![1]);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(SETTLEMENTS);
    // Neither the CSV nor its temporary file is left; nothing else was made beside the store.
    // (The backups folder is the CLI's own; the failed backup left no file in it.)
    const made = fs.readdirSync(dir).filter((f) => !before.includes(f));
    expect(made.filter((f) => f !== 'data' && f !== 'backups')).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'backups')).filter((f) => f.endsWith('.partial'))).toEqual(
      [],
    );

    const store = openStore(file);
    try {
      expect(store.db.pragma('quick_check', { simple: true })).toBe('ok');
    } finally {
      store.close();
    }

    // With room again, the same export writes every row.
    const again = await exportInChild(out);
    expect(again.code, again.stderr).toBe(0);
    const lines = fs.readFileSync(out, 'utf8').split('\r\n');
    expect(lines.length).toBe(1 + SETTLEMENTS + 1); // the header, the rows, the last CRLF
  });

  it('says the same on the app’s progress bar, and leaves no partial file', async () => {
    const out = path.join(dir, 'from-the-app.csv');
    const before = fs.readdirSync(dir).sort();
    const child = spawnWithFileSizeLimit(
      LIMIT_BYTES,
      ...tsxScript('test/main/export/fixtures/export-child.ts', file, out),
    );
    const exit = await child.exited;
    expect(exit.code, child.stderr()).toBe(0);

    const last = JSON.parse(child.stdout()) as ExportProgress;
    expect(last).toMatchObject({ state: 'failed', kind: 'settlements', total: SETTLEMENTS });
    expect(last.message).toBe(
      `The disk is full: the export stopped after ${last.rows} rows and the partial file was removed.`,
    );
    expect(last.rows).toBeGreaterThan(0);
    // (The backups folder is the CLI's own; the failed backup left no file in it.)
    const made = fs.readdirSync(dir).filter((f) => !before.includes(f));
    expect(made.filter((f) => f !== 'data' && f !== 'backups')).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'backups')).filter((f) => f.endsWith('.partial'))).toEqual(
      [],
    );
  });

  it('says a full disk met before any row was written in words too', () => {
    const bare = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    expect(failureMessage(bare)).toBe('The disk is full; nothing was saved.');
  });
});
