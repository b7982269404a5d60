import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openAppLog, type AppLog } from '../../../src/main/log/index.js';
import { tempDir } from '../../harness/temp.js';
import { sleep, until } from '../../harness/wait.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(options: Partial<Parameters<typeof openAppLog>[0]> = {}): Promise<AppLog> {
  const tmp = tempDir('betdesk-log-');
  cleanups.push(tmp.cleanup);
  const log = await openAppLog({ dir: join(tmp.dir, 'logs'), ...options });
  cleanups.push(() => log.close());
  return log;
}

const logFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.log'));
const everyByte = (dir: string) => logFiles(dir).map((f) => readFileSync(join(dir, f), 'utf8'));

test('writes JSON lines at info level to a dated file in the logs folder', async () => {
  const log = await open();
  log.debug('not at info level');
  log.info('the exchange answers again', { offlineMs: 1200 });
  await log.close();
  expect(log.file).toMatch(/betdesk\.\d{4}-\d{2}-\d{2}\.1\.log$/);
  const lines = readFileSync(log.file, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({
    level: 30,
    msg: 'the exchange answers again',
    offlineMs: 1200,
  });
});

test('a secret planted in a message, a field or an error reaches no byte of the file', async () => {
  const secret = randomBytes(32).toString('hex');
  const token = randomBytes(24).toString('base64url');
  const log = await open();
  log.conceal(token);
  log.warn(`signing failed for ${secret}`, {
    request: { headers: { 'X-Signature': secret } },
    err: Object.assign(new Error(`bad secret ${secret}`), { config: { secret } }),
    nested: [{ apiSecret: secret }],
    url: `http://127.0.0.1:4000/?token=${token}`,
  });
  log.error('the page', { said: `opened ${token}` });
  await log.close();
  const text = everyByte(log.dir).join('');
  expect(text).toContain('signing failed for');
  expect(text).not.toContain(secret);
  expect(text).not.toContain(token);
});

test('the last warnings and errors are kept, redacted, for diagnostics', async () => {
  const log = await open();
  for (let i = 0; i < 25; i++) log.warn(`warning ${i}`, { password: 'hunter22', i });
  log.info('not a warning');
  log.error('it broke', { code: -1022 });
  await until('the error is kept', () => log.recentErrors().at(-1)?.msg === 'it broke');
  const recent = log.recentErrors();
  expect(recent).toHaveLength(20);
  expect(recent[0]).toMatchObject({ level: 'warn', msg: 'warning 6' });
  expect(recent.at(-1)).toMatchObject({ level: 'error', msg: 'it broke', fields: { code: -1022 } });
  expect(JSON.stringify(recent)).not.toContain('hunter22');
});

test('warnings and errors are echoed as one Betdesk line each, redacted', async () => {
  const echoed: string[] = [];
  const log = await open({ echo: (line) => echoed.push(line) });
  log.info('quiet');
  log.warn('the account could not be opened', { reason: 'offline', secret: 'hunter22' });
  expect(echoed).toEqual([
    'Betdesk: the account could not be opened {"reason":"offline","secret":"[redacted]"}',
  ]);
});

test('rotates past the size, and keeps the number of files capped', async () => {
  const log = await open({ size: '1k', count: 3 });
  const line = 'x'.repeat(200);
  for (let i = 0; i < 40; i++) {
    log.info(line, { i });
    // Pacing: each write lands (and may roll the file) before the next.
    await sleep(5);
  }
  await until('the log rolled', () => logFiles(log.dir).length >= 3);
  await log.close();
  const files = logFiles(log.dir).sort();
  // `count` files besides the one being written at most.
  expect(files.length).toBeGreaterThanOrEqual(3);
  expect(files.length).toBeLessThanOrEqual(4);
  const numbers = files.map((f) => Number(/\.(\d+)\.log$/.exec(f)![1]));
  expect(Math.max(...numbers)).toBeGreaterThan(4);
  expect(log.file).toMatch(/\.(\d+)\.log$/);
});

test('files of earlier runs beyond the count are removed when the log opens', async () => {
  const tmp = tempDir('betdesk-log-');
  cleanups.push(tmp.cleanup);
  for (const day of ['01', '02', '03', '04', '05', '06', '07']) {
    writeFileSync(join(tmp.dir, `betdesk.2020-01-${day}.1.log`), '{}\n');
  }
  writeFileSync(join(tmp.dir, 'notes.txt'), 'not a log');
  const log = await openAppLog({ dir: tmp.dir, count: 3 });
  await log.close();
  expect(readdirSync(tmp.dir).sort()).toEqual(
    [
      'betdesk.2020-01-06.1.log',
      'betdesk.2020-01-07.1.log',
      'notes.txt',
      log.file.slice(tmp.dir.length + 1),
    ].sort(),
  );
});

test('lines after close are dropped, not thrown', async () => {
  const log = await open();
  log.info('fine');
  await log.close();
  expect(() => log.error('late')).not.toThrow();
  expect(readFileSync(log.file, 'utf8')).not.toContain('late');
});

test('the folder and the files are the user’s alone', async () => {
  const log = await open();
  log.info('private');
  await log.close();
  expect(statSync(log.dir).mode & 0o777).toBe(0o700);
  expect(statSync(log.file).mode & 0o777).toBe(0o600);
});
