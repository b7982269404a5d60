/**
 * Against the real Secret Service: `npm test` (build/test.sh) runs these inside a private D-Bus
 * session with an unlocked gnome-keyring. Outside one they skip and say so, unless
 * BETDESK_IN_KEYRING_SESSION is set, where a missing keychain is a failure.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Keychain,
  KEYCHAIN_UNAVAILABLE_MESSAGE,
  KeychainUnavailableError,
} from '../../../src/main/keychain/keychain.js';

const inSession = process.env['BETDESK_IN_KEYRING_SESSION'] === '1';
const present = inSession || (await new Keychain({ service: 'Betdesk-probe' }).available());
if (!present) {
  console.log(
    'keychain tests skipped: no Secret Service here; run them with `bash build/test.sh`.',
  );
}

const used: Keychain[] = [];
function keychain(): Keychain {
  const k = new Keychain({ service: `Betdesk-test-${randomBytes(6).toString('hex')}` });
  used.push(k);
  return k;
}

describe.runIf(present)('the keychain, with a Secret Service', () => {
  afterEach(async () => {
    for (const k of used.splice(0)) {
      for (const id of ['acc-1', 'acc-2']) await k.deleteSecret(id);
    }
  });

  it('says it is available', async () => {
    expect(await keychain().available()).toBe(true);
  });

  it('keeps a secret and gives it back', async () => {
    const k = keychain();
    await k.setSecret('acc-1', 'Zx9-secret/with+symbols=');
    expect(await k.getSecret('acc-1')).toBe('Zx9-secret/with+symbols=');
  });

  it('replaces a secret stored again for the same account', async () => {
    const k = keychain();
    await k.setSecret('acc-1', 'first');
    await k.setSecret('acc-1', 'second');
    expect(await k.getSecret('acc-1')).toBe('second');
  });

  it('answers null for an account without a secret', async () => {
    expect(await keychain().getSecret('acc-2')).toBeNull();
  });

  it('deletes a secret, and says whether there was one', async () => {
    const k = keychain();
    await k.setSecret('acc-1', 'gone-soon');
    expect(await k.deleteSecret('acc-1')).toBe(true);
    expect(await k.getSecret('acc-1')).toBeNull();
    expect(await k.deleteSecret('acc-1')).toBe(false);
  });

  it('keeps each service’s secrets apart', async () => {
    const a = keychain();
    const b = keychain();
    await a.setSecret('acc-1', 'for-a');
    expect(await b.getSecret('acc-1')).toBeNull();
  });

  it('refuses to store an empty secret', async () => {
    await expect(keychain().setSecret('acc-1', '')).rejects.toThrow(
      'An empty secret cannot be stored.',
    );
  });
});

describe('the keychain, without a Secret Service', () => {
  /** Runs a small script in a process whose session bus does not exist. */
  function withoutSecretService(script: string) {
    const home = mkdtempSync(join(tmpdir(), 'betdesk-nokeyring-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'no-bus')}`,
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
    };
    delete env['DISPLAY'];
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { env, encoding: 'utf8', cwd: process.cwd() },
    );
    const files = readdirSync(home);
    rmSync(home, { recursive: true, force: true });
    return { stdout: run.stdout.trim(), stderr: run.stderr, files };
  }

  it('says it is unavailable, refuses with a clear error, and writes no file instead', () => {
    const { stdout, stderr, files } = withoutSecretService(`
      import { Keychain, KeychainUnavailableError } from './src/main/keychain/keychain.ts';
      const k = new Keychain({ service: 'Betdesk-test-nobus' });
      const out = { available: await k.available() };
      try { await k.setSecret('acc-1', 'must-not-land-anywhere'); out.set = 'stored'; }
      catch (e) { out.set = e instanceof KeychainUnavailableError ? e.message : 'other: ' + e.message; }
      try { await k.getSecret('acc-1'); out.get = 'read'; }
      catch (e) { out.get = e.name; }
      console.log(JSON.stringify(out));
    `);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual({
      available: false,
      set: KEYCHAIN_UNAVAILABLE_MESSAGE,
      get: 'KeychainUnavailableError',
    });
    expect(files).toEqual([]);
  });

  it('has a message that says no secret goes to plain text', () => {
    expect(new KeychainUnavailableError().message).toBe(
      'No system keychain is available (Secret Service not running); Betdesk will not store API secrets in plain text.',
    );
  });
});
