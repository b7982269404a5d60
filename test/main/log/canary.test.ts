/**
 * The log canary: secrets planted where a real user's would be (an account's API secret in the
 * system keychain, a wrong one typed into the accounts screen, the browser host's token) while the
 * app's services run through the browser host's bridge against the sandbox over real HTTP: add
 * accounts (one refused with 401), switch, sync through exchange failures, a refused order, an
 * error path, diagnostics, opening the logs folder, removing the account. Then every byte of every file in the logs
 * folder, what was echoed to stderr and the diagnostics text are read: no canary anywhere, and
 * the info and warning lines the run should have left are there.
 * Run with `bash build/test.sh test/main/log` (it needs a Secret Service).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createAppServices, type AppServices } from '../../../src/main/root/services.js';
import { startHost, type RunningHost } from '../../../src/main/host/server.js';
import { openAppLog, type AppLog } from '../../../src/main/log/index.js';
import { ErrorCodes } from '../../../src/shared/api/errors.js';
import type {
  IpcChannel,
  IpcInput,
  IpcOutput,
  IpcResult,
} from '../../../src/shared/ipc/contract.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { tempDir } from '../../harness/temp.js';
import { until } from '../../harness/wait.js';

const keychainService = `Betdesk-test-canary-${randomBytes(4).toString('hex')}`;
const dir = tempDir('betdesk-canary-');
const logsDir = join(dir.dir, 'logs');
const echoed: string[] = [];
let sandbox: Sandbox;
let log: AppLog;
let services: AppServices;
let host: RunningHost;
let socket: WebSocket;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50, rateLimits: false });
  log = await openAppLog({ dir: logsDir, echo: (line) => echoed.push(line) });
  services = await createAppServices({
    dataDir: join(dir.dir, 'data'),
    host: 'browser',
    keychainService,
    versions: { app: 'canary', node: process.versions.node, electron: null, chrome: null },
    log,
    openFolder: () => Promise.resolve('no file manager here'),
  });
  // The browser host as serve.ts starts it: bridge faults into the log, its token concealed.
  const rendererDir = join(dir.dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><div id="app"></div>');
  host = await startHost({
    services,
    rendererDir,
    port: 0,
    log: (message) => log.error(message),
  });
  log.conceal(host.token);
  socket = new WebSocket(`${host.origin.replace('http', 'ws')}/ipc?token=${host.token}`, {
    origin: host.origin,
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
});

afterAll(async () => {
  socket?.close();
  await host?.close();
  await services?.stop();
  await log?.close();
  await sandbox?.close();
  dir.cleanup();
});

let nextId = 1;
/** One bridge call as the page makes it: over the host's WebSocket. */
function invoke<C extends IpcChannel>(
  channel: C,
  input: IpcInput<C>,
): Promise<IpcResult<IpcOutput<C>>> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as {
        type: string;
        id?: number;
        result?: IpcResult<IpcOutput<C>>;
      };
      if (m.type !== 'result' || m.id !== id) return;
      socket.off('message', onMessage);
      resolve(m.result!);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ type: 'invoke', id, channel, input }));
  });
}

/** Every byte of every file in the logs folder (rotated ones included). */
function everyLogByte(): string {
  return readdirSync(logsDir)
    .map((f) => readFileSync(join(logsDir, f), 'utf8'))
    .join('');
}

it('no secret reaches a log byte or the diagnostics, and the log says what happened', async () => {
  const key = await sandbox.newAccount('trade');
  // The canaries: a real API secret (64 hex digits) and a wrong one typed in (base64url).
  const canary = key.secret;
  const wrongSecret = randomBytes(32).toString('base64url');
  const canaries = [canary, wrongSecret, host.token];

  // A key the exchange refuses (401, -1022): the account is not added.
  const refused = await invoke('accounts:add', {
    label: 'Wrong secret',
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    secret: wrongSecret,
  });
  expect(refused.ok).toBe(false);

  const added = await invoke('accounts:add', {
    label: 'Canary desk',
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    secret: canary,
  });
  if (!added.ok) throw new Error(added.error.message);
  const switched = await invoke('accounts:switch', { accountId: added.value.id });
  expect(switched).toMatchObject({ ok: true, value: { mode: 'live' } });

  // Sync through failing exchange reads: the engine warns and tries again.
  await sandbox.admin('POST', '/faults', {
    route: 'GET /positions',
    mode: 'error',
    count: 2,
    code: ErrorCodes.INTERNAL,
  });
  await until('a sync pass failed and was logged', () =>
    log.recentErrors().some((r) => r.msg === 'a sync pass failed'),
  );
  await until('a sync completed', async () => {
    const s = await invoke('status:get', {});
    return s.ok && s.value.sync.lastSyncAt !== null;
  });

  // An order the exchange refuses.
  await sandbox.admin('POST', '/faults', {
    route: 'POST /order',
    mode: 'error',
    count: 1,
    code: ErrorCodes.BROKER_REFUSED,
  });
  const fixture = await sandbox.openFixture();
  const clientOrderId = `bd-canary-${randomBytes(4).toString('hex')}`;
  const placed = await invoke('order:place', {
    clientOrderId,
    type: 'MARKET',
    bet: {
      contractId: fixture.contractId,
      outcome: fixture.homeTeam,
      side: 'BUY',
      qty: '2',
      unit: 'BASE',
      boost: 0,
    },
  });
  expect(placed.ok && placed.value.row.status).toBe('NOT_PLACED');

  // An error path: a contract breach is refused before any service sees it.
  const invalid = await invoke('accounts:remove', { accountId: '' });
  expect(invalid).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });

  const opened = await invoke('logs:open', {});
  expect(opened).toEqual({
    ok: true,
    value: { path: logsDir, opened: false, error: 'no file manager here.' },
  });

  const diagnostics = await invoke('support:diagnostics', {});
  if (!diagnostics.ok) throw new Error(diagnostics.error.message);
  const text = diagnostics.value.text;
  expect(text).toContain('Canary desk');
  expect(text).toContain(`key …${key.apiKey.slice(-4)}`);
  expect(text).toContain('a sync pass failed');

  // Removing the account takes its secret out of the keychain again.
  expect(await invoke('accounts:remove', { accountId: added.value.id })).toMatchObject({
    ok: true,
    value: { removed: true },
  });
  await services.stop();
  await log.close();
  const logged = everyLogByte();
  for (const secret of canaries) {
    expect(logged).not.toContain(secret);
    expect(echoed.join('\n')).not.toContain(secret);
    expect(text).not.toContain(secret);
  }
  // The log is not empty by accident: it holds what the run did, one JSON record a line, and the
  // warnings were echoed to stderr too.
  const records = logged
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const said = (msg: string) => records.filter((r) => r.msg === msg);
  expect(said('services starting')).toHaveLength(1);
  const syncFailure = said('a sync pass failed').find((r) => r.stream === 'positions');
  expect(syncFailure).toMatchObject({ level: 40 });
  expect(syncFailure?.error).toContain('The exchange had an internal error.');
  expect(said('order attempt failed')).toContainEqual(
    expect.objectContaining({
      level: 40,
      clientOrderId,
      verdict: 'final',
      code: ErrorCodes.BROKER_REFUSED,
    }),
  );
  expect(said('the logs folder could not be opened')).toEqual([
    expect.objectContaining({ level: 40, reason: 'no file manager here' }),
  ]);
  expect(said('services stopped')).toHaveLength(1);
  for (const msg of ['a sync pass failed', 'order attempt failed', 'the logs folder could not'])
    expect(echoed.some((line) => line.startsWith(`Betdesk: ${msg}`))).toBe(true);
  expect(echoed.find((line) => line.includes('order attempt failed'))).toContain(clientOrderId);
});

it('a secret written by mistake, in every form, is redacted where it stands', async () => {
  const leakDir = tempDir('betdesk-canary-leak-');
  try {
    const leak = await openAppLog({ dir: leakDir.dir });
    const canary = randomBytes(32).toString('hex');
    // A careless line, in every form a secret could take.
    leak.warn(`signing with ${canary}`, { secret: canary, detail: `secret=${canary}` });
    await leak.close();
    const bytes = readdirSync(leakDir.dir)
      .map((f) => readFileSync(join(leakDir.dir, f), 'utf8'))
      .join('');
    expect(bytes).toContain('signing with [redacted]');
    expect(bytes).not.toContain(canary);
    // The fields were written with the secret taken out, not dropped with it.
    expect(bytes).toContain('"secret":"[redacted]"');
    expect(bytes).toContain('"detail":"secret=[redacted]"');
  } finally {
    leakDir.cleanup();
  }
});
