/**
 * Switching the active account and restarting, with the real parts: paper mode (the sandbox in
 * process), a live account on a second sandbox over HTTP, the store in a temp dir and the
 * system keychain (run with `bash build/test.sh test/main/app`).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/main/client/index.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { addLiveAccount, AppHarness, marketBet, record, type Seen } from './support.js';

const app = new AppHarness('switch');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50, rateLimits: false });
});
afterAll(() => sandbox.close());

afterEach(app.cleanup);

const start = async () => (await app.start()).services;

/** The accounts an event is about (the events that name one). */
const accountsNamed = (seen: Seen[]) =>
  seen.flatMap(({ payload }) =>
    typeof payload === 'object' && payload !== null && 'accountId' in payload
      ? [payload.accountId]
      : [],
  );

describe('switching the active account', () => {
  it('keeps the paper session running, and the screens’ events after the switch are the live account’s', async () => {
    const services = await start();
    await services.call('status:get', {});
    const paper = services.session()!;
    expect(paper.isPaper).toBe(true);
    const live = await addLiveAccount(services, sandbox);
    // Adding the account started its session, on screen or not.
    expect(services.sessions.starts).toBe(2);
    const seen = record(services);

    const info = await services.call('accounts:switch', { accountId: live.id });
    expect(info).toMatchObject({
      mode: 'live',
      activeAccountId: live.id,
      accountLabel: 'Live desk',
    });
    const session = services.session()!;
    expect(session).not.toBe(paper);
    expect(session).toMatchObject({
      accountId: Number(live.id),
      isPaper: false,
      bridgeId: live.id,
    });
    expect(session.client.baseUrl).toBe(sandbox.url);

    // A switch is a change of view: the paper session still runs, its budget is still held,
    // and no session was started for it (docs/desk.md, "Every account watched").
    expect(paper.engine.running).toBe(true);
    const { governor, governorName } = paper.connection;
    expect(governor.snapshot().accounts[governorName]).toBeDefined();
    await services.call('accounts:switch', { accountId: null });
    await services.call('accounts:switch', { accountId: live.id });
    expect(services.sessions.starts).toBe(2);
    expect(services.sessions.running).toEqual([paper, session]);
    expect(services.session()).toBe(session);

    // The switch is announced with the live account's figures.
    expect(seen).toContainEqual({ event: 'app:changed', payload: info });
    expect(seen.find((e) => e.event === 'positions:changed')?.payload).toMatchObject({
      accountId: live.id,
    });
    expect(await services.call('accounts:list', {}).then((r) => r.accounts)).toEqual([
      expect.objectContaining({ id: live.id, active: true }),
    ]);

    // An order placed now is the live account's, and its push comes from the live session.
    const f = await sandbox.openFixture();
    const { row } = await services.call(
      'order:place',
      marketBet(f, { clientOrderId: 'bd-switch-live-1' }),
    );
    expect(row.orderId).toEqual(expect.any(String));
    await expect
      .poll(
        () =>
          seen.some(
            (e) =>
              e.event === 'orders:changed' &&
              (e.payload as { orderIds: string[] }).orderIds.includes(row.orderId!),
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    const page = await services.call('orders:list', { limit: 50, offset: 0 });
    expect(page.rows.map((r) => r.clientOrderId)).toEqual(['bd-switch-live-1']);
    // The screens' events after the last switch are the live account's; paper's alerts would
    // still come (routeEmit), but it raised none.
    const last = seen.findLastIndex((e) => e.event === 'app:changed');
    expect(new Set(accountsNamed(seen.slice(last)))).toEqual(new Set([live.id]));
  });

  it('answers a call made during a switch for the account switched to', async () => {
    const services = await start();
    await services.call('status:get', {});
    const live = await addLiveAccount(services, sandbox);

    const switching = services.call('accounts:switch', { accountId: live.id });
    const view = services.call('positions:list', {});
    expect((await view).accountId).toBe(live.id);
    expect((await switching).activeAccountId).toBe(live.id);

    const back = services.call('accounts:switch', { accountId: null });
    expect((await services.call('status:get', {})).mode).toBe('paper');
    expect((await back).mode).toBe('paper');
  });

  it('switches to paper before removing the active account', async () => {
    const services = await start();
    const live = await addLiveAccount(services, sandbox);
    await services.call('accounts:switch', { accountId: live.id });
    const removed = services.session()!;
    const seen = record(services);

    expect(
      await services.call('accounts:remove', { accountId: live.id }).then((r) => r.removed),
    ).toBe(true);
    expect(services.session()?.isPaper).toBe(true);
    // Its session stopped before its rows went: the engine is still, the client refuses, and
    // its exchange's governor no longer holds its budget.
    expect(removed.engine.running).toBe(false);
    expect(services.sessions.running).not.toContain(removed);
    const refused = await removed.client.orders({ limit: 1 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(NetworkError);
    expect((refused as NetworkError).cause).toMatchObject({ message: 'client closed' });
    const { governor, governorName } = removed.connection;
    expect(governor.snapshot().accounts[governorName]).toBeUndefined();
    expect(seen).toContainEqual({
      event: 'app:changed',
      payload: expect.objectContaining({ mode: 'paper', activeAccountId: null }) as unknown,
    });
    expect(await services.call('accounts:list', {}).then((r) => r.accounts)).toEqual([]);
    await expect(services.call('accounts:switch', { accountId: live.id })).rejects.toMatchObject({
      kind: 'not-found',
    });
  });
});

describe('a restart on the same data directory', () => {
  it('opens the account that was active, and paper once paper was chosen again', async () => {
    const first = await start();
    const live = await addLiveAccount(first, sandbox);
    await first.call('accounts:switch', { accountId: live.id });
    await app.stop(first);

    const second = await start();
    expect(await second.call('app:info', {})).toMatchObject({
      mode: 'live',
      activeAccountId: live.id,
    });
    expect(second.session()).toMatchObject({ accountId: Number(live.id), isPaper: false });
    expect((await second.call('status:get', {})).mode).toBe('live');
    expect(await second.call('accounts:list', {}).then((r) => r.accounts)).toEqual([
      expect.objectContaining({ id: live.id, active: true }),
    ]);
    // It reaches the exchange with the secret the keychain kept.
    await expect(second.session()!.client.orders({ limit: 1 })).resolves.toMatchObject({
      orders: expect.any(Array) as unknown,
    });

    await second.call('accounts:switch', { accountId: null });
    await app.stop(second);

    const third = await start();
    expect(await third.call('app:info', {})).toMatchObject({
      mode: 'paper',
      activeAccountId: null,
    });
    expect(third.session()?.isPaper).toBe(true);
    expect(await third.call('accounts:list', {}).then((r) => r.accounts)).toEqual([
      expect.objectContaining({ id: live.id, active: false }),
    ]);
  });
});
