/** The exchange client against the real sandbox exchange, over real HTTP, rate limits on. */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient, ExchangeError, NetworkError } from '../../../src/main/client/index.js';
import type { Logger } from '../../../src/shared/log.js';
import type { RfqRequest } from '../../../src/shared/api/schemas.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';

let sandbox: Sandbox;
let fixture: { contractId: string; homeTeam: string; awayTeam: string };
const clients: ExchangeClient[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50 });
  fixture = await sandbox.openFixture();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});

/** A client for a fresh wallet, so no test spends another's quota. */
async function newClient(
  permission: 'read' | 'trade' = 'trade',
  extra: Partial<ConstructorParameters<typeof ExchangeClient>[0]> = {},
): Promise<{ client: ExchangeClient; secret: string; apiKey: string }> {
  const account = await sandbox.newAccount(permission);
  const client = new ExchangeClient({
    baseUrl: sandbox.url,
    credentials: { apiKey: account.apiKey, secret: account.secret },
    ...extra,
  });
  clients.push(client);
  return { client, secret: account.secret, apiKey: account.apiKey };
}

function buyQuote(qty = '5'): RfqRequest {
  return {
    legs: [
      {
        contractId: fixture.contractId,
        outcome: fixture.homeTeam,
        side: 'BUY',
        market: 'DRAW_NO_BET',
      },
    ],
    qty,
    marketUnit: 'QUOTE',
  };
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, and it succeeded');
}

describe('signing accepted by the exchange', () => {
  it('signs a GET with a query string', async () => {
    const { client } = await newClient('read');
    const list = await client.orders({ status: 'FILLED', limit: 5, offset: 0 });
    expect(list).toMatchObject({ orders: [], total: 0, limit: 5, offset: 0 });
    const positions = await client.positions({ contractId: fixture.contractId, limit: 10 });
    expect(positions.limit).toBe(10);
  });

  it('signs a POST with a JSON body', async () => {
    const { client } = await newClient('read');
    const quote = await client.rfq({ ...buyQuote('10'), clientOrderId: 'sig-test-1' });
    expect(quote.isOpen).toBe(true);
    expect(quote.reqId).toBe('sig-test-1');
    expect(quote.contracts).toBeGreaterThan(0);
  });

  it('places an order from a quote and reads it back by both ids', async () => {
    const { client } = await newClient('trade');
    const quote = await client.rfq(buyQuote('5'));
    const placed = await client.placeOrder({
      orderType: 'FOK',
      rfqId: quote.rfqId,
      clientOrderId: 'place-1',
    });
    expect(placed.httpStatus).toBe(202);
    expect(placed.order.status).toBe('SUBMITTED');
    expect(placed.warning).toBeUndefined();
    const byId = await client.getOrder({ orderId: placed.order.orderId });
    const byClientId = await client.getOrder({ clientOrderId: 'place-1' });
    expect(byId.orderId).toBe(placed.order.orderId);
    expect(byClientId.orderId).toBe(placed.order.orderId);
  });

  it('reads fixtures, health, time, updates and settlements', async () => {
    const { client } = await newClient('read');
    expect(await client.health()).toEqual({ status: 'ok', version: 0 });
    expect((await client.time()).serverTime).toBeGreaterThan(0);
    const open = await client.fixtures({ bettingOpen: 'true', limit: 3 });
    expect(open.fixtures).toHaveLength(3);
    expect(open.fixtures.every((f) => f.bettingOpen)).toBe(true);
    const first = await client.orderUpdates();
    const next = await client.orderUpdates(first.cursor);
    expect(next.cursor).toBeGreaterThanOrEqual(first.cursor);
    expect((await client.settlements({ type: 'CLOSED' })).settlements).toEqual([]);
  });
});

describe('replay safety', () => {
  it('sends two identical calls and both succeed, each signed afresh', async () => {
    const { client } = await newClient('read');
    const [a, b] = await Promise.all([client.rfq(buyQuote('7')), client.rfq(buyQuote('7'))]);
    expect(a.rfqId).not.toBe(b.rfqId);
    const [c, d] = await Promise.all([client.orders({ limit: 1 }), client.orders({ limit: 1 })]);
    expect(c).toEqual(d);
  });
});

describe('errors the exchange answers with', () => {
  it('maps -1121 (unknown contract) to a fix-before-resend error with the server message', async () => {
    const { client } = await newClient('read');
    const err = await failure(
      client.rfq({
        ...buyQuote(),
        legs: [
          { contractId: 'NO-SUCH-FIXTURE', outcome: 'ABC', side: 'BUY', market: 'DRAW_NO_BET' },
        ],
      }),
    );
    expect(err).toBeInstanceOf(ExchangeError);
    const e = err as ExchangeError;
    expect(e).toMatchObject({
      code: -1121,
      codeName: 'UNKNOWN_CONTRACT',
      httpStatus: 400,
      errorClass: 'fix-before-resend',
      route: 'POST /order/rfq',
    });
    expect(e.message).toContain('There is no fixture with that contract id.');
    expect(e.message).toContain(e.serverMsg);
    expect(e.serverMsg.length).toBeGreaterThan(0);
  });

  it('maps -2029 (nothing held to sell) to a state conflict', async () => {
    const { client } = await newClient('read');
    const err = await failure(
      client.rfq({
        legs: [
          {
            contractId: fixture.contractId,
            outcome: fixture.awayTeam,
            side: 'SELL',
            market: 'DRAW_NO_BET',
          },
        ],
        qty: '5',
        marketUnit: 'BASE',
      }),
    );
    expect(err).toBeInstanceOf(ExchangeError);
    expect(err).toMatchObject({ code: -2029, errorClass: 'state-conflict', retryable: false });
  });

  it('maps -2022 (no such quote) when an order names an unknown rfqId', async () => {
    const { client } = await newClient('trade');
    const err = await failure(client.placeOrder({ orderType: 'FOK', rfqId: 'not-a-quote' }));
    expect(err).toBeInstanceOf(ExchangeError);
    expect(err).toMatchObject({ code: -2022, httpStatus: 400, errorClass: 'state-conflict' });
  });

  it('maps -2027 when a quote is executed twice', async () => {
    const { client } = await newClient('trade');
    const quote = await client.rfq(buyQuote('3'));
    await client.placeOrder({ orderType: 'FOK', rfqId: quote.rfqId });
    const err = await failure(client.placeOrder({ orderType: 'FOK', rfqId: quote.rfqId }));
    expect(err).toMatchObject({ code: -2027, codeName: 'QUOTE_USED' });
  });

  it('maps -1022 when the secret is wrong', async () => {
    const account = await sandbox.newAccount('read');
    const client = new ExchangeClient({
      baseUrl: sandbox.url,
      credentials: { apiKey: account.apiKey, secret: 'not-the-secret' },
    });
    clients.push(client);
    const err = await failure(client.positions());
    expect(err).toBeInstanceOf(ExchangeError);
    expect(err).toMatchObject({ code: -1022, httpStatus: 401, errorClass: 'fix-before-resend' });
  });

  it('maps -4002 once the wallet grant of a trade key is revoked', async () => {
    const { client, apiKey } = await newClient('trade');
    await sandbox.admin('POST', `/keys/${apiKey}/revoke-grant`);
    const err = await failure(
      client.placeOrder({ orderType: 'MARKET', ...buyQuote('2'), clientOrderId: 'revoked-1' }),
    );
    expect(err).toBeInstanceOf(ExchangeError);
    expect(err).toMatchObject({ code: -4002, httpStatus: 403, errorClass: 'signing' });
    expect((err as ExchangeError).message).toMatch(/create a new API key/);
  });

  it('maps a -1003 answer to a rate-limit error carrying Retry-After', async () => {
    const { client } = await newClient('read');
    await sandbox.admin('POST', '/faults', {
      route: 'GET /settlements',
      mode: 'error',
      count: 1,
      code: -1003,
    });
    const err = await failure(client.settlements());
    expect(err).toBeInstanceOf(ExchangeError);
    expect(err).toMatchObject({
      code: -1003,
      httpStatus: 429,
      errorClass: 'rate-limit',
      retryAfterMs: 1000,
      retryable: true,
    });
    expect((err as ExchangeError).message).toMatch(/Try again in 1 s/);
  });

  it('maps the real quota running out (no governor) to 429 -1003', async () => {
    const { client } = await newClient('read');
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => client.orders({ limit: 1 })),
    );
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    // reads: burst 10, then one per second.
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(10);
    expect(refused.length).toBeGreaterThan(0);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(ExchangeError);
      expect(reason).toMatchObject({ code: -1003, httpStatus: 429 });
      expect((reason as ExchangeError).retryAfterMs).toBeGreaterThan(0);
    }
  });
});

describe('answers where the outcome is not a plain success or failure', () => {
  it('returns an order accepted under congestion (-5004 in a 202) with a warning', async () => {
    const lines: string[] = [];
    const { client } = await newClient('trade', { logger: recordingLogger(lines) });
    await sandbox.admin('POST', '/faults', { route: 'POST /order', mode: 'congested', count: 1 });
    const placed = await client.placeOrder({
      orderType: 'MARKET',
      ...buyQuote('2'),
      clientOrderId: 'congested-1',
    });
    expect(placed.httpStatus).toBe(202);
    expect(placed.order.error?.code).toBe(-5004);
    expect(placed.warning).toMatchObject({ code: -5004 });
    expect(placed.warning?.message).toMatch(/congested/);
    expect(lines.some((l) => l.includes('warning'))).toBe(true);
  });

  it('reports a dropped connection after an order was sent as an unknown outcome', async () => {
    const { client } = await newClient('trade');
    await sandbox.admin('POST', '/faults', { route: 'POST /order', mode: 'drop', count: 1 });
    const err = await failure(
      client.placeOrder({ orderType: 'MARKET', ...buyQuote('2'), clientOrderId: 'dropped-1' }),
    );
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ outcomeUnknown: true, kind: 'reset', route: 'POST /order' });
    // The outcome was indeed not "nothing happened": the order stands.
    const order = await client.getOrder({ clientOrderId: 'dropped-1' });
    expect(order.clientOrderId).toBe('dropped-1');
  });

  it('reports an answer that does not come in time as a timeout with an unknown outcome', async () => {
    const { client } = await newClient('read');
    await sandbox.admin('POST', '/faults', {
      route: 'GET /positions',
      mode: 'latency',
      count: 1,
      ms: 1500,
    });
    const err = await failure(client.positions({}, { headersTimeoutMs: 200 }));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ outcomeUnknown: true, kind: 'timeout' });
  });

  it('reports a request cancelled by its caller as aborted', async () => {
    const { client } = await newClient('read');
    await sandbox.admin('POST', '/faults', {
      route: 'GET /settlements',
      mode: 'latency',
      count: 1,
      ms: 1500,
    });
    const ac = new AbortController();
    const pending = failure(client.settlements({}, { signal: ac.signal }));
    setTimeout(() => ac.abort(), 100);
    const err = await pending;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ kind: 'aborted', outcomeUnknown: true });
  });
});

describe('the secret', () => {
  it('appears in no error, log line, string form or inspection of the client', async () => {
    const lines: string[] = [];
    const { client, secret } = await newClient('trade', { logger: recordingLogger(lines) });
    await client.rfq(buyQuote('2'));
    const errors: unknown[] = [];
    errors.push(await failure(client.placeOrder({ orderType: 'FOK', rfqId: 'nope' })));
    await sandbox.admin('POST', '/faults', { route: 'GET /positions', mode: 'drop', count: 1 });
    errors.push(await failure(client.positions()));
    await sandbox.admin('POST', '/faults', { route: 'POST /order', mode: 'congested', count: 1 });
    await client.placeOrder({ orderType: 'MARKET', ...buyQuote('2') });

    const seen = [
      ...lines,
      String(client),
      JSON.stringify(client),
      inspect(client, { showHidden: true, depth: 10 }),
      ...errors.flatMap((e) => [
        String(e),
        inspect(e, { showHidden: true, depth: 10 }),
        JSON.stringify(e),
      ]),
    ].join('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(seen).not.toContain(secret);
  });
});

function recordingLogger(lines: string[]): Logger {
  const record =
    (level: string) =>
    (msg: string, fields?: Record<string, unknown>): void => {
      lines.push(`${level} ${msg} ${JSON.stringify(fields ?? {})}`);
    };
  return { debug: record('debug'), info: record('info'), warn: record('warn') };
}
