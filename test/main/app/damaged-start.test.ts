/**
 * The front ends on a damaged store, as users start them: the browser host (`serve.ts`, a real
 * process) and the CLI start, say what they did on stderr, and the host's bridge carries the
 * notice for the banner. Before this, both stopped with "file is not a database".
 */
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { STORE_FILE } from '../../../src/main/data/store-file.js';
import { backupStore } from '../../../src/main/store/backup.js';
import type { AppInfo } from '../../../src/shared/ipc/contract.js';
import { runCliFromSource, spawnProgram, untilListening } from '../../harness/processes.js';
import { tempDir } from '../../harness/temp.js';
import { overwritePages, seedStore, writeGarbage } from '../store/damage.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A folder with a seeded store, to be damaged by the test. */
function seededFolder(): { dir: string; file: string } {
  const t = tempDir('betdesk-damaged-');
  cleanups.push(t.cleanup);
  const file = path.join(t.dir, STORE_FILE);
  seedStore(file);
  return { dir: t.dir, file };
}

/** One bridge call over the host's socket. */
async function invoke<T>(url: string, channel: string): Promise<T> {
  const origin = new URL(url).origin;
  const token = new URL(url).searchParams.get('token')!;
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ipc?token=${token}`, { origin });
  try {
    await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject));
    const answer = new Promise<{ ok: boolean; value: T }>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as { type: string; result?: never };
        if (m.type === 'result') resolve(m.result!);
      });
      ws.on('error', reject);
    });
    ws.send(JSON.stringify({ type: 'invoke', id: 1, channel, input: {} }));
    const result = await answer;
    expect(result.ok).toBe(true);
    return result.value;
  } finally {
    ws.close();
  }
}

it('the browser host starts on a damaged store and says what it did', async () => {
  const { dir, file } = seededFolder();
  await backupStore(file, path.join(dir, 'backups'));
  overwritePages(file, 2, 8);
  const program = spawnProgram(process.execPath, [
    '--import',
    'tsx',
    'src/main/host/serve.ts',
    '--port',
    '0',
    '--data-dir',
    dir,
    '--logs-dir',
    path.join(dir, 'logs'),
  ]);
  try {
    const { url } = await untilListening(program, 'the browser host');
    const info = await invoke<AppInfo>(url, 'app:info');
    expect(info.storeNotice).toMatchObject({ kind: 'recovered' });
    expect(info.storeNotice!.message).toMatch(
      /^Betdesk found its local store damaged and moved it to .*betdesk\.sqlite\.corrupt-.*; your accounts, settings, alerts and unfinished orders came back from the backup of \d+ \w{3} \d{2}:\d{2}; orders and history are being read again from the exchange\.$/,
    );
    expect(program.stderr()).toContain(info.storeNotice!.message);
    expect(program.stderr()).not.toMatch(/file is not a database|malformed/);
    expect((await program.stop()).code).toBe(0);
  } finally {
    program.signal('SIGKILL');
  }
}, 90_000);

it('the CLI opens a damaged store, prints the same sentence on stderr, and goes on', async () => {
  const { file } = seededFolder();
  writeGarbage(file);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BETDESK_')) env[k] = v;
  const run = await runCliFromSource(['accounts', 'list', '--db', file], env);
  expect(run.stderr).toMatch(
    /^Betdesk found its local store damaged and moved it to .*betdesk\.sqlite\.corrupt-[^;]+; there was no backup to bring back your accounts, settings and alerts, so add your accounts again;/m,
  );
  expect(run.stderr).toMatch(/No accounts yet/);
  expect(run.code).toBe(0);
}, 60_000);
