/**
 * Starts the real programs the end-to-end tests drive: the browser host (`npm run serve`) with a
 * data directory and keychain service of its own, and a standalone sandbox exchange
 * (`npm run exchange`) to stand in for a live one. Each prints one JSON line when it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(import.meta.dirname, '..', '..');

export interface Started {
  url: string;
  process: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

function start(args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn('npm', ['run', '--silent', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString('utf8')).slice(-20_000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // The whole group: npm and the program it started.
    process.kill(-child.pid!, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${args.join(' ')} did not report listening in time:\n${err}`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code} before listening:\n${err}`));
    });
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      let msg: { event?: string; url?: string };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return;
      }
      if (msg.event === 'listening' && msg.url) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ url: msg.url, process: child, stderr: () => err, stop });
      }
    });
  });
}

export interface Betdesk extends Started {
  dataDir: string;
  keychainService: string;
}

export async function startBetdesk(): Promise<Betdesk> {
  const dataDir = mkdtempSync(join(tmpdir(), 'betdesk-e2e-'));
  const keychainService = `Betdesk-e2e-${randomBytes(6).toString('hex')}`;
  const started = await start(['serve', '--', '--port', '0', '--data-dir', dataDir], {
    BETDESK_KEYCHAIN_SERVICE: keychainService,
  });
  return {
    ...started,
    dataDir,
    keychainService,
    async stop() {
      await started.stop();
      await clearKeychain(keychainService);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Exchange extends Started {
  adminToken: string;
  /** Creates a wallet and an API key for it through the sandbox's control API. */
  createKey(permission: 'read' | 'trade'): Promise<{ apiKey: string; secret: string }>;
}

export async function startExchange(): Promise<Exchange> {
  const adminToken = randomBytes(12).toString('hex');
  const started = await start(['exchange', '--', '--port', '0', '--admin-token', adminToken], {});
  const control = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${started.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    ...started,
    adminToken,
    async createKey(permission) {
      const { wallet } = await control<{ wallet: string }>('/sandbox/wallets', {});
      return control<{ apiKey: string; secret: string }>('/sandbox/keys', {
        wallet,
        permission,
        expiresAt: Date.now() + 30 * 24 * 3600_000,
      });
    },
  };
}

interface Keytar {
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export function keytar(): Keytar {
  return createRequire(import.meta.url)('keytar') as Keytar;
}

async function clearKeychain(service: string): Promise<void> {
  try {
    const k = keytar();
    for (const c of await k.findCredentials(service)) await k.deletePassword(service, c.account);
  } catch {
    // No keychain in this session: nothing was stored either.
  }
}

/** Every file under `dir`, with its bytes. */
export function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push({ path, bytes: readFileSync(path) });
  }
  return out;
}
