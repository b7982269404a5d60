import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { systemFolderOpener } from '../../../src/main/support/open-folder.js';

/** A spawn that records its call and lets the test play the child's part. */
function fakeSpawn(play: (child: EventEmitter) => void) {
  const calls: { command: string; args: string[]; options: SpawnOptions }[] = [];
  const spawn = (command: string, args: string[], options: SpawnOptions) => {
    calls.push({ command, args, options });
    const child = Object.assign(new EventEmitter(), { unref: () => {} });
    queueMicrotask(() => play(child));
    return child as unknown as ChildProcess;
  };
  return { spawn, calls };
}

it('runs the OS opener on the folder, detached', async () => {
  for (const [platform, command] of [
    ['linux', 'xdg-open'],
    ['darwin', 'open'],
    ['win32', 'explorer'],
  ] as const) {
    const fake = fakeSpawn((child) => child.emit('exit', 0));
    expect(await systemFolderOpener(platform, fake.spawn)('/logs')).toBe('');
    expect(fake.calls).toMatchObject([
      { command, args: ['/logs'], options: { detached: true, stdio: 'ignore' } },
    ]);
  }
});

it('says in words when the opener is missing or fails', async () => {
  const missing = fakeSpawn((child) =>
    child.emit('error', Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT' })),
  );
  expect(await systemFolderOpener('linux', missing.spawn)('/logs')).toBe(
    'xdg-open is not installed',
  );
  const failing = fakeSpawn((child) => child.emit('exit', 4));
  expect(await systemFolderOpener('linux', failing.spawn)('/logs')).toBe(
    'xdg-open could not open it (exit code 4)',
  );
});

it('takes explorer at its word that it opened (it exits 1 when it did)', async () => {
  const fake = fakeSpawn((child) => child.emit('exit', 1));
  expect(await systemFolderOpener('win32', fake.spawn)('C:\\logs')).toBe('');
});
