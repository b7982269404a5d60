/**
 * The Electron shell's start (docs/desktop.md): the window is made before the services are up,
 * and its page is answered through the start gate: `app:start` says where the store's opening
 * is; once the services are up every call goes to them. A hidden start makes no window early.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Services, ServicesOptions } from '../../../src/main/root/services.js';
import { memoryServices } from '../ipc/memory-services.js';
import * as electron from './fake-electron.js';
import { callFrom, PAGE, settle, shellPaths } from './shell-harness.js';

vi.mock('electron', () => import('./fake-electron.js'));

const { runShell } = await import('../../../src/main/shell/app.js');

let dir: string;
beforeEach(() => {
  electron.resetFakeElectron();
  delete process.env['ELECTRON_RENDERER_URL'];
  dir = mkdtempSync(join(tmpdir(), 'betdesk-shell-start-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The shell started with services that are up only once `up()` is called. */
async function startSlowly(argv: string[] = []) {
  let up!: () => void;
  let given: ServicesOptions | undefined;
  const services = memoryServices();
  const running = runShell(
    (options) => {
      given = options;
      return new Promise<Services>((resolve) => (up = () => resolve(services)));
    },
    shellPaths(dir),
    { platform: 'linux', argv, env: { XDG_DATA_HOME: join(dir, 'data') } },
  );
  // Until the shell has asked for its services (after ready and the log), then a turn more.
  while (given === undefined) await settle();
  await settle();
  return { running, up: () => up(), options: () => given };
}

describe('the Electron shell while its store opens', () => {
  it('makes the window first and answers app:start from the start tracker', async () => {
    const { running, up, options } = await startSlowly();
    expect(electron.BrowserWindow.all).toHaveLength(1);
    expect(electron.BrowserWindow.all[0]!.loaded).toEqual({ url: PAGE });

    const tracker = options()?.start;
    expect(tracker).toBeDefined();
    tracker!.report({
      phase: 'upgrading',
      message: 'Upgrading your store: step 1 of 1 (guardians)',
      done: 0,
      total: 1,
      unit: 'steps',
    });
    expect(await callFrom(PAGE, 'app:start')).toMatchObject({
      ok: true,
      value: { phase: 'upgrading', message: 'Upgrading your store: step 1 of 1 (guardians)' },
    });

    up();
    const shell = await running;
    expect(electron.BrowserWindow.all).toHaveLength(1);
    expect(await callFrom(PAGE, 'app:info')).toMatchObject({ ok: true });
    await shell?.quit();
  });

  it('makes no window before the services when asked to start hidden', async () => {
    const { running, up } = await startSlowly(['/opt/betdesk/betdesk', '--hidden']);
    expect(electron.BrowserWindow.all).toHaveLength(0);
    up();
    const shell = await running;
    await shell?.quit();
  });
});
