/**
 * `npm run serve` as a user runs it: a real process with the composition root's services (the
 * sandbox exchange in paper mode), one line on stdout, a clean stop on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ExportStarted } from '../../../src/shared/ipc/contract.js';

it('prints exactly one listening line, serves the page with its token, and stops on SIGTERM', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'betdesk-serve-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main/host/serve.ts', '--port', '0', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    await expect.poll(() => lines.length, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);

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

    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(lines).toHaveLength(1);
    expect(stderr).not.toMatch(/error/i);
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
