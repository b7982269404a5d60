/**
 * `npm run dist`'s preflight (build/dist.mjs): where Electron's zip is neither on this machine
 * nor downloadable, one line says what is missing and how to point the build at a local copy,
 * before anything is built. The download host is a local port (ELECTRON_MIRROR), closed or
 * answering as the test needs; `--check` stops after the preflight.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { root } from '../harness/processes.js';
import { tempDir } from '../harness/temp.js';

const electronVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;
/** The archs electron-builder.config.mjs builds for this OS. */
const archs = process.platform === 'darwin' ? ['x64', 'arm64'] : ['x64'];
const zipName = (arch: string) => `electron-v${electronVersion}-${process.platform}-${arch}.zip`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let home: ReturnType<typeof tempDir>;
let cache: string;

beforeEach(() => {
  home = tempDir('betdesk-dist-test-');
  cache = join(home.dir, 'electron-cache');
  mkdirSync(cache);
});
afterEach(() => home.cleanup());

/** Runs build/dist.mjs with an empty home and caches, and only the environment given. */
function dist(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['build/dist.mjs', ...args],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home.dir,
          XDG_CACHE_HOME: join(home.dir, '.cache'),
          LOCALAPPDATA: join(home.dir, 'AppData'),
          NO_PROXY: '127.0.0.1,localhost',
          ...env,
        },
        timeout: 20_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A local HTTP server answering every request with `status`; its base URL. */
async function host(status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(status).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const { server } = await host(200);
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run dist, before it builds', () => {
  it('stops with one line naming the missing Electron zip when the download host is unreachable', async () => {
    const port = await closedPort();
    const run = await dist([], {
      ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
      ELECTRON_CACHE: cache,
    });

    const targets = archs.map((a) => `${process.platform}-${a}`).join(' and ');
    const zips = archs.map(zipName).join(' and ');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `betdesk dist: Electron ${electronVersion} for ${targets} cannot be downloaded here ` +
        `(127.0.0.1:${port} unreachable); put ${zips} in ELECTRON_CACHE=<dir>, or set ` +
        'BETDESK_ELECTRON_DIST=<an unpacked Electron> (electronDist), and run again.\n',
    );
    // Nothing was built: electron-vite would have printed its progress.
    expect(run.stdout).toBe('');
  });

  it('says what the download host answered when it does not have the zip', async () => {
    const { url, server } = await host(404);
    try {
      const run = await dist(['--check'], { ELECTRON_MIRROR: url, ELECTRON_CACHE: cache });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^betdesk dist: .*\(127\.0\.0\.1:\d+ answered HTTP 404\); put /);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it('goes on when the download host has the zip', async () => {
    const { url, server } = await host(302);
    try {
      const run = await dist(['--check'], { ELECTRON_MIRROR: url, ELECTRON_CACHE: cache });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/from 127\.0\.0\.1:\d+; ready to build/);
    } finally {
      server.close();
    }
  });

  it.each([
    ['directly in ELECTRON_CACHE', (zip: string) => zip],
    ["in @electron/get's cache layout", (zip: string) => join('0f3c9a', zip)],
  ])('uses a zip found %s, without the download host', async (_name, place) => {
    const port = await closedPort();
    const paths = archs.map((arch) => join(cache, place(zipName(arch))));
    for (const path of paths) {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, 'zip');
    }
    const run = await dist(['--check'], {
      ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
      ELECTRON_CACHE: cache,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`from ${paths.join(' and ')}; ready to build`);
  });

  it('uses BETDESK_ELECTRON_DIST as electronDist, and names it when it does not exist', async () => {
    const port = await closedPort();
    const mirror = `http://127.0.0.1:${port}/`;
    const given = await dist(['--check'], {
      ELECTRON_MIRROR: mirror,
      BETDESK_ELECTRON_DIST: home.dir,
    });
    expect(given.code).toBe(0);
    expect(given.stdout).toContain(`from ${home.dir}; ready to build`);

    const missing = join(home.dir, 'no-electron-here');
    const wrong = await dist([], { ELECTRON_MIRROR: mirror, BETDESK_ELECTRON_DIST: missing });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(`betdesk dist: BETDESK_ELECTRON_DIST=${missing} does not exist.\n`);
  });
});
