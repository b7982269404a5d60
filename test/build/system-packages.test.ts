/**
 * build/system-packages.sh, which build/run.sh (the README's run command) and .ci/run source:
 * a package that is missing is installed as root, or named in one line with the command to run.
 * dpkg, id, sudo and apt-get are stand-ins on PATH, so nothing is installed for real.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../harness/temp.js';

const script = resolve(import.meta.dirname, '../../build/system-packages.sh');

interface Machine {
  /** Packages dpkg says are installed. */
  installed: string[];
  uid: number;
  /** Whether `sudo -n true` works. */
  sudo: boolean;
}

function stub(dir: string, name: string, body: string): void {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function run(machine: Machine, args: string[]) {
  const { dir: bin, cleanup } = tempDir('betdesk-syspkg-');
  cleanups.push(cleanup);
  const log = join(bin, 'calls.log');
  writeFileSync(log, '');
  stub(
    bin,
    'dpkg',
    `case " ${machine.installed.join(' ')} " in *" $2 "*) exit 0;; *) exit 1;; esac`,
  );
  stub(bin, 'id', `echo ${machine.uid}`);
  stub(
    bin,
    'sudo',
    machine.sudo ? `echo "sudo $*" >> ${log}; [ "$1" = -n ] && exit 0; "$@"` : 'exit 1',
  );
  stub(bin, 'apt-get', `echo "apt-get $*" >> ${log}`);
  const result = spawnSync(
    '/bin/bash',
    [
      '-c',
      `set -euo pipefail; . "${script}"; need_packages "the tests" "$@"; echo done`,
      '_',
      ...args,
    ],
    // Only the stand-ins and the shell's own tools: `command -v` finds nothing else of note.
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: `${bin}:/usr/bin:/bin` } },
  );
  return { ...result, calls: readFileSync(log, 'utf8') };
}

describe('need_packages', () => {
  it('does nothing when every package is there', () => {
    const r = run({ installed: ['libsecret-1-dev'], uid: 1000, sudo: false }, ['libsecret-1-dev']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('done\n');
    expect(r.stderr).toBe('');
    expect(r.calls).toBe('');
  });

  it('stops with one line naming the packages when it cannot install them', () => {
    const r = run({ installed: [], uid: 1000, sudo: false }, [
      'libsecret-1-dev',
      'betdesk-no-such-command:build-essential',
      'betdesk-no-such-command-2:build-essential',
    ]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'betdesk: missing Debian packages for the tests: libsecret-1-dev build-essential; install them with: sudo apt-get install libsecret-1-dev build-essential\n',
    );
    expect(r.calls).toBe('');
  });

  it('installs what is missing as root, and only that', () => {
    const r = run({ installed: ['python3'], uid: 0, sudo: false }, [
      'libsecret-1-dev',
      'python3',
      'bash:bash',
    ]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('done\n');
    expect(r.calls).toBe(
      'apt-get update -q\napt-get install -y -q --no-install-recommends libsecret-1-dev\n',
    );
  });

  it('installs through sudo when it needs no password', () => {
    const r = run({ installed: [], uid: 1000, sudo: true }, ['gnome-keyring']);
    expect(r.status).toBe(0);
    expect(r.calls).toContain('sudo apt-get install -y -q --no-install-recommends gnome-keyring');
  });
});
