/**
 * Starts the real programs the end-to-end tests drive: the browser host (`npm run serve`) with a
 * data directory and keychain service of its own, and a standalone sandbox exchange
 * (`npm run exchange`) to stand in for a live one. Each prints one JSON line when it listens.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnProgram, untilListening } from '../harness/processes.js';

export interface Started {
  url: string;
  process: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** `npm run --silent <args>` until it prints its listening line (test/harness/processes.ts). */
async function start(args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const p = spawnProgram('npm', ['run', '--silent', ...args], { env });
  const s = await untilListening(p, args.join(' '));
  return {
    url: s.url,
    process: s.child,
    stderr: s.stderr,
    async stop() {
      if (s.child.exitCode !== null || s.child.signalCode !== null) return;
      await s.stop(5000);
    },
  };
}

export interface Betdesk extends Started {
  dataDir: string;
  keychainService: string;
}

/**
 * `dataDir`: a data folder to start on (a returning user's), kept at stop(); by default a new
 * empty one, removed at stop().
 */
export async function startBetdesk(options: { dataDir?: string } = {}): Promise<Betdesk> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'betdesk-e2e-'));
  const keychainService = `Betdesk-e2e-${randomBytes(6).toString('hex')}`;
  const started = await start(['serve', '--', '--port', '0', '--data-dir', dataDir], {
    BETDESK_KEYCHAIN_SERVICE: keychainService,
    BETDESK_LOGS_DIR: join(dataDir, 'logs'),
  });
  return {
    ...started,
    dataDir,
    keychainService,
    async stop() {
      await started.stop();
      await clearKeychain(keychainService);
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Exchange extends Started {
  adminToken: string;
  /**
   * Creates an API key through the sandbox's control API: for `wallet`, or for a new wallet.
   * `wallet` in the answer is the wallet's address.
   */
  createKey(
    permission: 'read' | 'trade',
    wallet?: string,
  ): Promise<{ apiKey: string; secret: string; wallet: string }>;
}

/** `args`: more of the exchange's options, e.g. `['--seed', '7']` for other fixtures. */
export async function startExchange(args: string[] = []): Promise<Exchange> {
  const adminToken = randomBytes(12).toString('hex');
  const started = await start(
    ['exchange', '--', '--port', '0', '--admin-token', adminToken, ...args],
    {},
  );
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
    async createKey(permission, given) {
      const wallet = given ?? (await control<{ wallet: string }>('/sandbox/wallets', {})).wallet;
      const { apiKey, secret } = await control<{ apiKey: string; secret: string }>(
        '/sandbox/keys',
        { wallet, permission, expiresAt: Date.now() + 30 * 24 * 3600_000 },
      );
      return { apiKey, secret, wallet };
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
