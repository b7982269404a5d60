/**
 * The account registry against the real sandbox exchange, a real SQLite file and the real
 * Secret Service. Run with `bash build/test.sh test/main/accounts`, which starts a private,
 * unlocked gnome-keyring; outside one the keychain tests skip and say so.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountError,
  AccountRegistry,
  keychainName,
  type AccountView,
} from '../../../src/main/accounts/index.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { Keychain, KEYCHAIN_UNAVAILABLE_MESSAGE } from '../../../src/main/keychain/keychain.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { tempDir } from '../trading/support.js';

const inSession = process.env['BETDESK_IN_KEYRING_SESSION'] === '1';
const present = inSession || (await new Keychain({ service: 'Betdesk-probe' }).available());
if (!present) {
  console.log('accounts keychain tests skipped: no Secret Service; run `bash build/test.sh`.');
}

let sandbox: Sandbox;
let keychain: Keychain;
let store: Store;
let file: string;
let dir: { dir: string; cleanup: () => void };
let accounts: AccountRegistry;
const added: AccountView[] = [];

/** A port nothing listens on: taken, then let go. */
let closedPort: number;
/** A plain web server that is not an exchange: every path is its HTML 404 page. */
let webServer: Server;
let webServerUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20 });
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  webServer = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE HTML>\n<html lang="en"><head><title>Error response</title></head></html>');
  });
  await new Promise<void>((resolve) => webServer.listen(0, '127.0.0.1', resolve));
  webServerUrl = `http://127.0.0.1:${(webServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sandbox.close();
  await new Promise<void>((resolve) => webServer.close(() => resolve()));
});

async function thrown(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

/** Every byte SQLite may have written: the file and its WAL. */
function dbBytes(): Buffer {
  return Buffer.concat(
    ['', '-wal', '-shm']
      .filter((s) => fs.existsSync(file + s))
      .map((s) => fs.readFileSync(file + s)),
  );
}

describe.runIf(present)('accounts with a keychain', () => {
  beforeAll(() => {
    keychain = new Keychain({ service: `Betdesk-test-${randomBytes(6).toString('hex')}` });
  });

  afterEach(async () => {
    for (const a of added.splice(0)) await keychain.deleteSecret(keychainName(a));
    store.close();
    dir.cleanup();
  });

  function open(): void {
    dir = tempDir('betdesk-accounts-');
    file = path.join(dir.dir, 'betdesk.sqlite');
    store = openStore(file);
    accounts = new AccountRegistry({ store, keychain });
  }

  async function add(label: string, permission: 'read' | 'trade' = 'trade') {
    const key = await sandbox.newAccount(permission);
    const account = await accounts.add({
      label,
      baseUrl: `${sandbox.url}/`,
      apiKey: key.apiKey,
      secret: key.secret,
    });
    added.push(account);
    return { key, account };
  }

  it('keeps the secret in the keychain and in no byte of the database, nor in what it returns', async () => {
    open();
    const { key, account } = await add('main');
    expect(account).toMatchObject({ label: 'main', baseUrl: sandbox.url, apiKey: key.apiKey });
    expect(await keychain.getSecret(keychainName(account))).toBe(key.secret);
    expect(JSON.stringify(account)).not.toContain(key.secret);
    expect(JSON.stringify(accounts.list())).not.toContain(key.secret);
    expect(dbBytes().includes(key.secret)).toBe(false);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(dbBytes().includes(key.secret)).toBe(false);
    expect(dbBytes().includes(key.apiKey)).toBe(true); // the check can see what is there
  });

  it('finds out whether a key may trade, without placing anything', async () => {
    open();
    const trader = await add('trader', 'trade');
    const reader = await add('reader', 'read');
    expect(trader.account.permission).toBe('trade');
    expect(reader.account.permission).toBe('read');
    const client = new ExchangeClient({ baseUrl: sandbox.url, credentials: trader.key });
    try {
      expect((await client.orders()).total).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('tells when a trade key has lost its wallet grant', async () => {
    open();
    const key = await sandbox.newAccount('trade');
    await sandbox.admin('POST', `/keys/${key.apiKey}/revoke-grant`);
    const account = await accounts.add({ label: 'revoked', baseUrl: sandbox.url, ...key });
    added.push(account);
    expect(account.permission).toBe('trade');
    expect(account.notice).toMatch(/-4002/);
  });

  it('refuses a key the exchange refuses, keeping nothing and never repeating the secret', async () => {
    open();
    const key = await sandbox.newAccount('trade');
    const wrong = `${key.secret}x`;
    const err = await thrown(
      accounts.add({ label: 'typo', baseUrl: sandbox.url, apiKey: key.apiKey, secret: wrong }),
    );
    expect(err).toBeInstanceOf(AccountError);
    expect((err as AccountError).code).toBe(-1022);
    expect(err.message).toMatch(/refused this API key and secret/);
    expect(err.message).not.toContain(wrong);
    expect(accounts.list()).toEqual([]);
    expect(await keychain.getSecret(`${key.apiKey}@${sandbox.url}`)).toBeNull();
  });

  it('adds no account whose exchange cannot be checked, saying what failed in words', async () => {
    open();
    const cases: [string, string][] = [
      [
        `http://127.0.0.1:${closedPort}`,
        `Nothing answers at 127.0.0.1:${closedPort}: the connection was refused. Check the port, and that the exchange is running.`,
      ],
      [
        webServerUrl,
        'The server at this address is not an exchange: it answered GET /time with HTTP 404 and text/html, which is not how an exchange answers. Check the address.',
      ],
      [
        webServerUrl.replace('http://', 'https://'),
        `A secure (https) connection to ${new URL(webServerUrl).host} could not be made: the server there may speak plain http. Check whether the address should start with http://.`,
      ],
      [
        'http://no-such-host.invalid:8080',
        'The host name no-such-host.invalid was not found. Check the address.',
      ],
    ];
    for (const [baseUrl, words] of cases) {
      const input = { label: 'Nowhere', baseUrl, apiKey: 'k-nowhere', secret: 's-nowhere-secret' };
      const err = await thrown(accounts.add(input));
      expect(err, baseUrl).toBeInstanceOf(AccountError);
      expect((err as AccountError).kind).toBe('unchecked');
      expect(err.message).toBe(
        `Nowhere was not added: its exchange could not be checked. ${words}`,
      );
      expect(err.message).not.toMatch(/<|DOCTYPE|s-nowhere-secret/);
      expect(accounts.list()).toEqual([]);
      expect(await keychain.getSecret(keychainName({ apiKey: 'k-nowhere', baseUrl }))).toBeNull();
    }
  });

  it('keeps an account it cannot check when asked to, its permission unknown and said why', async () => {
    open();
    const account = await accounts.add({
      label: 'offline',
      baseUrl: `http://127.0.0.1:${closedPort}`,
      apiKey: 'k-offline',
      secret: 's-offline-secret',
      keepUnchecked: true,
    });
    added.push(account);
    expect(account.permission).toBe('unknown');
    expect(account.notice).toBe(
      `Kept without a check, so its permission is unknown: Nothing answers at 127.0.0.1:${closedPort}: the connection was refused. Check the port, and that the exchange is running.`,
    );
    expect(await keychain.getSecret(keychainName(account))).toBe('s-offline-secret');
  });

  it('says in words that an exchange refused the key, and keeps nothing', async () => {
    open();
    const key = await sandbox.newAccount('trade');
    const err = await thrown(
      accounts.add({
        label: 'wrong key',
        baseUrl: sandbox.url,
        apiKey: 'no-such-key',
        secret: key.secret,
      }),
    );
    expect((err as AccountError).kind).toBe('rejected');
    expect(err.message).toMatch(
      /^The exchange answered, but refused this API key and secret: check both/,
    );
    expect(accounts.list()).toEqual([]);
  });

  it('refuses a second account with the same label or the same key', async () => {
    open();
    const { key } = await add('one');
    const sameLabel = await thrown(
      accounts.add({ label: 'one', baseUrl: sandbox.url, apiKey: 'other', secret: 'x' }),
    );
    expect(sameLabel.message).toMatch(/named "one" already exists/);
    const sameKey = await thrown(accounts.add({ label: 'two', baseUrl: sandbox.url, ...key }));
    expect(sameKey.message).toMatch(/already added .* as "one"/);
  });

  it('refuses bad input with a sentence', async () => {
    open();
    const cases: [Record<string, string>, RegExp][] = [
      [{ label: ' ' }, /needs a label/],
      [{ label: 'x'.repeat(65) }, /^The label is 65 characters long; the most is 64\.$/],
      [{ label: 'evil\u202Eexe.txt' }, /text-direction control character \(such as U\+202E\)/],
      [{ label: 'a\u2067b' }, /text-direction control character/],
      [{ label: 'tab\there' }, /control characters/],
      [{ baseUrl: 'ftp://x' }, /http:\/\/ or https:\/\//],
      [{ baseUrl: 'not a url' }, /must be a URL/],
      [{ apiKey: '' }, /API key is required/],
      [{ secret: '' }, /secret is required/],
    ];
    for (const [over, message] of cases) {
      const input = { label: 'x', baseUrl: sandbox.url, apiKey: 'k', secret: 's', ...over };
      const err = await thrown(accounts.add(input));
      expect(err).toBeInstanceOf(AccountError);
      expect(err.message).toMatch(message);
    }
  });

  it('gives the exchange client the credentials from the keychain', async () => {
    open();
    const { account } = await add('signing');
    const client = new ExchangeClient({
      baseUrl: account.baseUrl,
      credentials: accounts.credentials(account.id),
    });
    try {
      expect((await client.orders({ limit: 1 })).total).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('removes the account together with its keychain entry', async () => {
    open();
    const { account } = await add('short-lived');
    const provider = accounts.credentials(account.id);
    expect(await accounts.remove('short-lived')).toBe(true);
    expect(await keychain.getSecret(keychainName(account))).toBeNull();
    expect(accounts.list()).toEqual([]);
    expect((await thrown(provider())).message).toMatch(/removed/);
    expect(await accounts.remove('short-lived')).toBe(false);
  });

  it('says when an account’s secret is missing from the keychain', async () => {
    open();
    const { account } = await add('lost-secret');
    await keychain.deleteSecret(keychainName(account));
    const err = await thrown(accounts.credentials(account.id)());
    expect(err).toBeInstanceOf(AccountError);
    expect(err.message).toMatch(/not in the system keychain/);
  });
});

describe('accounts without a keychain', () => {
  it('refuses to add an account, keeping no row and no file', () => {
    const home = tempDir('betdesk-nokeyring-');
    const db = path.join(home.dir, 'betdesk.sqlite');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(home.dir, 'no-bus')}`,
      HOME: home.dir,
      XDG_DATA_HOME: path.join(home.dir, 'data'),
      XDG_CONFIG_HOME: path.join(home.dir, 'config'),
    };
    delete env['DISPLAY'];
    const script = `
      import { AccountRegistry } from './src/main/accounts/index.ts';
      import { Keychain } from './src/main/keychain/keychain.ts';
      import { openStore } from './src/main/store/index.ts';
      const store = openStore(${JSON.stringify(db)});
      const accounts = new AccountRegistry({ store, keychain: new Keychain({ service: 'Betdesk-test-nobus' }) });
      const out = {};
      try {
        await accounts.add({ label: 'a', baseUrl: 'http://127.0.0.1:9', apiKey: 'k', secret: 'never-anywhere-7f3e' });
        out.added = true;
      } catch (e) { out.error = e.name + ': ' + e.message; }
      out.accounts = accounts.list().length;
      store.db.pragma('wal_checkpoint(TRUNCATE)');
      store.close();
      console.log(JSON.stringify(out));
    `;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        env,
        encoding: 'utf8',
        cwd: process.cwd(),
      },
    );
    try {
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout.trim())).toEqual({
        error: `KeychainUnavailableError: ${KEYCHAIN_UNAVAILABLE_MESSAGE}`,
        accounts: 0,
      });
      for (const f of fs.readdirSync(home.dir, { recursive: true }) as string[]) {
        const p = path.join(home.dir, f);
        if (fs.statSync(p).isFile()) {
          expect(fs.readFileSync(p).includes('never-anywhere-7f3e'), f).toBe(false);
        }
      }
    } finally {
      home.cleanup();
    }
  }, 60_000);
});
