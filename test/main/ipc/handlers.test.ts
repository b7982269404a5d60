import { describe, expect, it } from 'vitest';
import {
  IPC_CHANNELS,
  type IpcChannel,
  type IpcEvent,
  type IpcResult,
} from '../../../src/shared/ipc/contract.js';
import { ExchangeError, NetworkError } from '../../../src/main/client/index.js';
import { Refusal } from '../../../src/main/refusal.js';
import { combineHandlers } from '../../../src/main/ipc/handler.js';
import { dispatch, registerHandlers } from '../../../src/main/ipc/handlers.js';
import type { IpcTransport, RawHandler } from '../../../src/main/ipc/transport.js';
import {
  KEYCHAIN_UNAVAILABLE_MESSAGE,
  KeychainUnavailableError,
} from '../../../src/main/keychain/keychain.js';
import { EMPTY_POSITIONS, FIXTURE, memoryServices } from './memory-services.js';

/** A transport that is a plain table: what the handlers registered, and what they broadcast. */
function tableTransport() {
  const handlers = new Map<IpcChannel, RawHandler>();
  const broadcasts: { event: IpcEvent; payload: unknown }[] = [];
  const transport: IpcTransport = {
    handle(channel, handler) {
      handlers.set(channel, handler);
      return () => handlers.delete(channel);
    },
    broadcast(event, payload) {
      broadcasts.push({ event, payload });
    },
  };
  const call = (channel: IpcChannel, input: unknown): Promise<IpcResult<unknown>> => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(input);
  };
  return { transport, handlers, broadcasts, call };
}

const newAccount = {
  label: 'Desk',
  baseUrl: 'https://api.example.com',
  apiKey: 'key-1234',
  secret: 'TOP-SECRET-abcdef',
};

function setup() {
  const services = memoryServices();
  const logs: string[] = [];
  const t = tableTransport();
  const stop = registerHandlers(t.transport, services, { log: (m) => logs.push(m) });
  return { services, logs, stop, ...t };
}

function failure(result: IpcResult<unknown>) {
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

describe('registerHandlers', () => {
  it('answers every channel of the contract through the transport', () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
  });

  it('passes valid input to the service and answers with its output', async () => {
    const { services, call } = setup();
    const result = await call('fixtures:list', {
      openOnly: true,
      team: 'ars',
      limit: 20,
      offset: 0,
    });
    expect(result).toEqual({
      ok: true,
      value: expect.objectContaining({ fixtures: [FIXTURE], total: 1 }) as unknown,
    });
    expect(services.calls).toEqual([
      { method: 'fixtures.list', input: { openOnly: true, team: 'ars', limit: 20, offset: 0 } },
    ]);
  });

  it('refuses input that breaks the schema before any service sees it, naming the field', async () => {
    const { services, call } = setup();
    const error = failure(
      await call('quote:request', {
        contractId: 'EPL-ARSCHE-0001',
        outcome: 'ARS',
        side: 'BUY',
        qty: '1e3',
        unit: 'BASE',
        boost: 0,
      }),
    );
    expect(error.kind).toBe('invalid-input');
    expect(error.message).toMatch(/^The quote:request request was refused because qty .*\.$/);
    expect(services.calls).toEqual([]);
  });

  it('refuses fields the contract does not know', async () => {
    const { services, call } = setup();
    const error = failure(await call('accounts:remove', { accountId: 'a', cascade: true }));
    expect(error.kind).toBe('invalid-input');
    expect(error.message).toContain('cascade');
    expect(services.calls).toEqual([]);
  });

  it('refuses input that is not an object at all', async () => {
    const { services, call } = setup();
    for (const input of [undefined, null, 'app', 7, []]) {
      expect(failure(await call('app:info', input)).kind).toBe('invalid-input');
    }
    expect(services.calls).toEqual([]);
  });

  it('refuses a boost outside 0 to 100', async () => {
    const { call } = setup();
    const quote = { contractId: 'c', outcome: 'ARS', side: 'BUY', qty: '1', unit: 'BASE' };
    expect(failure(await call('quote:request', { ...quote, boost: 101 })).kind).toBe(
      'invalid-input',
    );
    expect((await call('quote:request', { ...quote, boost: 100 })).ok).toBe(true);
  });

  it('routes each desk channel to its service with the input it was given', async () => {
    const { services, call } = setup();
    const place = { clientOrderId: 'bd-1', type: 'FOK', rfqId: 'a'.repeat(32) };
    expect(await call('order:place', place)).toMatchObject({
      ok: true,
      value: { repeated: false, row: { clientOrderId: 'bd-1' } },
    });
    expect((await call('order:place', place)).ok).toBe(true);
    await call('orders:list', { status: 'working', limit: 100, offset: 0 });
    await call('positions:list', {});
    await call('alerts:read', { all: true });
    await call('practice:price', { contractId: 'C', outcome: 'ARS', indexPrice: '0.35' });
    await call('settings:set', { oneClickBetting: true });
    expect(services.calls.map((c) => c.method)).toEqual([
      'trading.place',
      'trading.place',
      'orders.list',
      'positions.view',
      'alerts.markRead',
      'practice.setPrice',
      'settings.set',
    ]);
    expect(services.calls[5]!.input).toEqual({
      contractId: 'C',
      outcome: 'ARS',
      indexPrice: '0.35',
    });
  });

  it('refuses forged desk input before any service sees it', async () => {
    const { services, call } = setup();
    const forged: [IpcChannel, unknown][] = [
      // A clientOrderId outside its alphabet, or too long.
      ['order:place', { clientOrderId: 'bd 1; DROP', type: 'FOK', rfqId: 'r' }],
      ['order:place', { clientOrderId: 'x'.repeat(65), type: 'FOK', rfqId: 'r' }],
      // An order type the exchange does not have, and a field the contract does not know.
      ['order:place', { clientOrderId: 'bd-2', type: 'LIMIT', rfqId: 'r' }],
      ['order:place', { clientOrderId: 'bd-3', type: 'FOK', rfqId: 'r', orderId: 'other' }],
      // A float where a decimal string goes, and a price that is not a number.
      ['practice:price', { contractId: 'C', outcome: 'ARS', indexPrice: 0.35 }],
      ['practice:price', { contractId: 'C', outcome: 'ARS', indexPrice: '1e-1' }],
      ['alerts:configure', { levels: ['5%'], margin: '0.01', notify: {} }],
      ['alerts:read', { ids: [0] }],
      ['orders:list', { status: 'everything', limit: 100, offset: 0 }],
      ['orders:list', { limit: 100_000, offset: 0 }],
      ['settings:set', { oneClickBetting: 'yes' }],
    ];
    for (const [channel, input] of forged) {
      const error = failure(await call(channel, input));
      expect(error.kind, `${channel} ${JSON.stringify(input)}`).toBe('invalid-input');
    }
    expect(services.calls).toEqual([]);
  });

  it('answers an account without its secret', async () => {
    const { call } = setup();
    const result = await call('accounts:add', newAccount);
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain(newAccount.secret);
  });

  it('turns an answer that breaks the contract into an internal error and logs it', async () => {
    const { services, call, logs } = setup();
    services.answerNext('accounts.list', [{ id: 'a', secret: 'leak' }]);
    const error = failure(await call('accounts:list', {}));
    expect(error).toEqual({
      kind: 'internal',
      message: 'Betdesk produced an answer it could not use.',
    });
    expect(logs.join('\n')).toContain('accounts:list answer broke the contract');
  });

  it('forwards the services’ events to the transport', () => {
    const { services, broadcasts } = setup();
    services.events.emit('positions:changed', { accountId: null, at: 1, view: EMPTY_POSITIONS });
    expect(broadcasts).toEqual([
      { event: 'positions:changed', payload: { accountId: null, at: 1, view: EMPTY_POSITIONS } },
    ]);
  });

  it('drops and logs an event whose payload breaks the contract', () => {
    const { services, broadcasts, logs } = setup();
    // @ts-expect-error -- a service bug the contract must catch
    services.events.emit('alert:raised', { contractId: 'x' });
    expect(broadcasts).toEqual([]);
    expect(logs.join('\n')).toContain('alert:raised event broke the contract');
  });

  it('stops answering and forwarding once undone', () => {
    const { services, handlers, broadcasts, stop } = setup();
    stop();
    expect(handlers.size).toBe(0);
    services.events.emit('positions:changed', { accountId: null, at: 1, view: EMPTY_POSITIONS });
    expect(broadcasts).toEqual([]);
  });
});

describe('combineHandlers', () => {
  it('refuses two features that claim one channel', () => {
    const one = { 'app:info': () => Promise.reject(new Error('unused')) };
    expect(() => combineHandlers(one, { ...one })).toThrow(/app:info/);
  });
});

describe('errors over the bridge', () => {
  async function errorFor(
    thrown: unknown,
    channel: IpcChannel = 'status:get',
    input: unknown = {},
  ) {
    const services = memoryServices();
    const logs: string[] = [];
    const method =
      channel === 'accounts:add'
        ? 'accounts.add'
        : channel === 'quote:request'
          ? 'quotes.request'
          : 'status.get';
    services.failNext(method, thrown);
    const result = await dispatch(services.handlers, channel, input, {
      log: (m) => logs.push(m),
    });
    return { error: failure(result), logs };
  }

  it('keeps a service’s own refusal as it is, as a sentence', async () => {
    const { error } = await errorFor(new Refusal('not-found', 'there is no such account'));
    expect(error).toEqual({ kind: 'not-found', message: 'There is no such account.' });
  });

  it('says plainly that there is no keychain', async () => {
    const { error } = await errorFor(new KeychainUnavailableError(), 'accounts:add', newAccount);
    expect(error).toEqual({ kind: 'keychain', message: KEYCHAIN_UNAVAILABLE_MESSAGE });
  });

  it('carries the exchange’s error code with a sentence for it', async () => {
    const { error } = await errorFor(
      new ExchangeError({
        code: -2031,
        serverMsg: 'rfq expired',
        httpStatus: 410,
        route: 'POST /order',
      }),
    );
    expect(error.kind).toBe('exchange');
    expect(error.code).toBe(-2031);
    expect(error.message).toMatch(/^The quote expired before it was used; request a new one\./);
  });

  it('tells a spent rate budget from other exchange errors', async () => {
    const { error } = await errorFor(
      new ExchangeError({
        code: -1003,
        serverMsg: 'slow down',
        httpStatus: 429,
        route: 'POST /order/rfq',
        retryAfterMs: 2000,
      }),
    );
    expect(error.kind).toBe('rate-limited');
    expect(error.code).toBe(-1003);
  });

  it('explains a bare {code, msg} error with the error table', async () => {
    const bare = Object.assign(new Error('qty must be positive'), { code: -1102 });
    const { error } = await errorFor(bare);
    expect(error).toEqual({
      kind: 'exchange',
      code: -1102,
      message: 'A field is missing or malformed. The exchange said: "qty must be positive".',
    });
  });

  it('calls an unreachable exchange offline', async () => {
    const { error } = await errorFor(
      new NetworkError({ route: 'GET /fixtures', kind: 'connect', outcomeUnknown: false }),
    );
    expect(error.kind).toBe('offline');
    expect(error.message).toBe(
      'The exchange could not be reached. Nothing was sent to the exchange.',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    expect((await errorFor(new TypeError('fetch failed', { cause: refused }))).error.kind).toBe(
      'offline',
    );
  });

  it('hides an unexpected fault behind a generic sentence and logs it without the secret', async () => {
    const { error, logs } = await errorFor(
      new Error(`keytar choked on ${newAccount.secret}`),
      'accounts:add',
      newAccount,
    );
    expect(error).toEqual({
      kind: 'internal',
      message: 'Betdesk hit an unexpected error; the details are in its log.',
    });
    expect(logs.join('\n')).toContain('keytar choked on [redacted]');
    expect(logs.join('\n')).not.toContain(newAccount.secret);
  });

  it('never lets the secret of the call into the answer, even from a service’s own message', async () => {
    const { error } = await errorFor(
      new Refusal('conflict', `the secret ${newAccount.secret} is already used`),
      'accounts:add',
      newAccount,
    );
    expect(error.message).not.toContain(newAccount.secret);
    expect(error.message).toBe('The secret [redacted] is already used.');
  });
});
