/**
 * `npm run serve` as a user runs it: a real process with the composition root's services (the
 * sandbox exchange in paper mode), one line on stdout, a clean stop on SIGTERM.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { STORE_FILE } from '../../../src/main/data/store-file.js';
import type { ExportStarted } from '../../../src/shared/ipc/contract.js';
import { spawnProgram, untilListening } from '../../harness/processes.js';
import { tempDir } from '../../harness/temp.js';

/** `serve.ts` on `dataDir`, a free port. */
function serve(dataDir: string) {
  const args = ['--import', 'tsx', 'src/main/host/serve.ts', '--port', '0', '--data-dir', dataDir];
  return spawnProgram(process.execPath, [...args, '--logs-dir', join(dataDir, 'logs')]);
}

it('prints exactly one listening line, serves the page with its token, and stops on SIGTERM', async () => {
  const dataDir = tempDir('betdesk-serve-');
  const program = serve(dataDir.dir);
  try {
    await untilListening(program, 'the browser host');
    const lines = program
      .stdout()
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    const msg = JSON.parse(lines[0]!) as { event: string; url: string };
    expect(Object.keys(msg)).toEqual(['event', 'url']);
    expect(msg.event).toBe('listening');
    expect(msg.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);

    const page = await fetch(msg.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
    expect((await fetch(msg.url.replace(/\?token=.*/, ''))).status).toBe(403);

    // Export CSV… as the page does it: export:start over the bridge, then the download.
    const origin = new URL(msg.url).origin;
    const token = new URL(msg.url).searchParams.get('token')!;
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/ipc?token=${token}`, { origin });
    const answer = new Promise<{ ok: boolean; value?: ExportStarted }>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as { type: string; result?: never };
        if (m.type === 'result') resolve(m.result!);
      });
      ws.on('error', reject);
    });
    await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject));
    ws.send(
      JSON.stringify({
        type: 'invoke',
        id: 1,
        channel: 'export:start',
        input: { kind: 'settlements', filter: {}, options: { bom: false, formulaGuard: true } },
      }),
    );
    const started = await answer;
    expect(started.ok).toBe(true);
    const download = started.value!.export!.download!;
    expect(download).toMatch(/^\/export\/[\w-]+\.csv\?token=/);
    const csv = await fetch(`${origin}${download}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="betdesk-/);
    expect(await csv.text()).toMatch(/^timestamp,type,contract_id,/);
    ws.close();

    program.signal('SIGTERM');
    expect((await program.exited).code).toBe(0);
    expect(
      program
        .stdout()
        .split('\n')
        .filter((l) => l !== ''),
    ).toHaveLength(1);
    // The word, not a file name: a first start builds the renderer and lists its chunks, one of
    // them named after src/main's errors.ts ("out/main/chunks/errors-….js").
    expect(program.stderr()).not.toMatch(/\berror\b/i);
  } finally {
    program.signal('SIGKILL');
    dataDir.cleanup();
  }
});

it('says why and exits 1 when its services cannot start', async () => {
  const dataDir = tempDir('betdesk-serve-');
  // The store's file is a directory: the store cannot open.
  mkdirSync(join(dataDir.dir, STORE_FILE));
  const program = serve(dataDir.dir);
  try {
    expect(await program.exited).toEqual({ code: 1, signal: null });
    expect(program.stderr()).toMatch(/^betdesk serve: .+/m);
  } finally {
    program.signal('SIGKILL');
    dataDir.cleanup();
  }
});
