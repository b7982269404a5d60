/** docs/api.md 5: authentication of signed requests, through HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_EXAMPLE } from '../../../src/exchange/http/docs.js';
import { hmacHex, startSandbox, type Credentials, type Sandbox } from '../harness.js';

type ErrorBody = { code: number; msg: string };

let sb: Sandbox;
let reader: Credentials;
let trader: Credentials;

beforeAll(async () => {
  sb = await startSandbox();
  reader = await sb.newKey({ permission: 'read' });
  trader = await sb.newKey({ permission: 'trade' });
});
afterAll(async () => sb.close());

async function openContract(): Promise<{ contractId: string; homeTeam: string }> {
  const res = await sb.get<{ fixtures: { contractId: string; homeTeam: string }[] }>(
    '/fixtures?bettingOpen=true&limit=1',
  );
  const f = res.body.fixtures[0];
  if (!f) throw new Error('no open fixture');
  return f;
}

describe('signing (5.2)', () => {
  it('accepts a request signed over timestamp+apiKey+recvWindow+METHOD+path+query', async () => {
    const res = await sb.signed(reader, 'GET', '/orders', { query: { limit: 5, offset: 0 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ orders: [], total: 0, limit: 5, offset: 0 });
  });

  it('accepts a POST signed over its raw body', async () => {
    const f = await openContract();
    const res = await sb.signed(reader, 'POST', '/order/rfq', {
      body: {
        legs: [
          { contractId: f.contractId, outcome: f.homeTeam, side: 'BUY', market: 'DRAW_NO_BET' },
        ],
        qty: '10',
        marketUnit: 'BASE',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('rfqId');
  });

  it('signs the body byte for byte: whitespace and key order as sent', async () => {
    const f = await openContract();
    const raw = `{ "marketUnit" : "BASE", "qty":"10",\n "legs":[{"market":"draw_no_bet","side":"buy","outcome":"${f.homeTeam}","contractId":"${f.contractId}"}]}`;
    const res = await sb.signed(reader, 'POST', '/order/rfq', { body: raw });
    expect(res.status).toBe(200);
  });

  it('excludes a query string from the signed path of a POST', async () => {
    const f = await openContract();
    const body = JSON.stringify({
      legs: [{ contractId: f.contractId, outcome: f.homeTeam, side: 'BUY', market: 'DRAW_NO_BET' }],
      qty: '10',
      marketUnit: 'BASE',
    });
    const now = sb.now();
    const prefix = `${now}${reader.apiKey}5000POST/order/rfq`;
    const { request } = await import('undici');
    const res = await request(`${sb.url}/order/rfq?x=1`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': reader.apiKey,
        'x-timestamp': String(now),
        'x-recv-window': '5000',
        'x-signature': hmacHex(reader.secret, prefix + body),
      },
      body,
    });
    expect(res.statusCode).toBe(200);
    await res.body.text();
  });

  it('documents a worked example that matches an independent HMAC of the signed string', async () => {
    const ex = SIGNING_EXAMPLE;
    const expected = hmacHex(
      ex.secret,
      `${ex.timestamp}${ex.apiKey}${ex.recvWindow}${ex.method}${ex.path}${ex.body}`,
    );
    const docs = await sb.get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain(expected);
    const getSig = hmacHex(
      ex.secret,
      `${ex.timestamp}${ex.apiKey}${ex.recvWindow}GET${ex.getPath}${ex.query}`,
    );
    expect(docs.text).toContain(getSig);
  });

  it('accepts each signature exactly once: a replay is refused with -1022', async () => {
    const ts = sb.now();
    const first = await sb.signed(reader, 'GET', '/orders', { timestamp: ts, query: 'limit=3' });
    expect(first.status).toBe(200);
    const again = await sb.signed<ErrorBody>(reader, 'GET', '/orders', {
      timestamp: ts,
      query: 'limit=3',
    });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe(-1022);
    expect(again.body.msg).toMatch(/already used/);
  });

  it('accepts the same request signed afresh with a new timestamp', async () => {
    const ts = sb.now();
    expect((await sb.signed(reader, 'GET', '/orders', { timestamp: ts })).status).toBe(200);
    expect((await sb.signed(reader, 'GET', '/orders', { timestamp: ts + 1 })).status).toBe(200);
  });
});

describe('recv window (5.2, 8 rule 2)', () => {
  it.each([100, 5000, 60000])('accepts X-Recv-Window %i', async (w) => {
    const res = await sb.signedInject(reader, 'GET', '/orders', { recvWindow: w });
    expect(res.status).toBe(200);
  });

  it.each(['99', '60001', '0', '-5', '5000.5', 'abc', ''])(
    'refuses X-Recv-Window %j with -1022',
    async (w) => {
      const res = await sb.signedInject<ErrorBody>(reader, 'GET', '/orders', { recvWindow: w });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(-1022);
      expect(res.body.msg).toMatch(/X-Recv-Window/);
    },
  );

  it('refuses a timestamp older than the window with -1021', async () => {
    const res = await sb.signedInject<ErrorBody>(reader, 'GET', '/orders', {
      timestamp: sb.now() - 6000,
      recvWindow: 5000,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1021);
  });

  it('refuses a timestamp ahead of the window with -1021', async () => {
    const res = await sb.signedInject<ErrorBody>(reader, 'GET', '/orders', {
      timestamp: sb.now() + 6000,
      recvWindow: 5000,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1021);
  });

  it('accepts a timestamp a little off the clock inside a wide window', async () => {
    const res = await sb.signedInject(reader, 'GET', '/orders', {
      timestamp: sb.now() - 20_000,
      recvWindow: 30_000,
    });
    expect(res.status).toBe(200);
  });

  it('compares timestamps with the exchange clock, which /sandbox/clock advances', async () => {
    const wallClock = Date.now();
    await sb.advanceClock(120_000);
    const stale = await sb.signedInject<ErrorBody>(reader, 'GET', '/orders', {
      timestamp: wallClock,
    });
    expect(stale.body.code).toBe(-1021);
    const time = await sb.get<{ serverTime: number }>('/time');
    const fresh = await sb.signedInject(reader, 'GET', '/orders', {
      timestamp: time.body.serverTime,
    });
    expect(fresh.status).toBe(200);
  });
});

describe('refused authentication (-1022)', () => {
  it.each(['x-api-key', 'x-timestamp', 'x-recv-window', 'x-signature'])(
    'refuses a request without %s',
    async (header) => {
      const res = await sb.signedInject<ErrorBody>(reader, 'GET', '/orders', {
        headers: { [header]: '' },
      });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(-1022);
    },
  );

  it('refuses a request with no signing headers at all', async () => {
    const res = await sb.app.inject({ method: 'GET', url: '/positions' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: -1022 });
  });

  it('refuses an unknown key', async () => {
    const res = await sb.signedInject<ErrorBody>(
      { ...reader, apiKey: 'no-such-key' },
      'GET',
      '/orders',
    );
    expect(res.body).toMatchObject({ code: -1022 });
    expect(res.body.msg).toMatch(/unknown API key/);
  });

  it('refuses a signature made with another secret', async () => {
    const res = await sb.signedInject<ErrorBody>({ ...reader, secret: 'wrong' }, 'GET', '/orders');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(-1022);
  });

  it('refuses an upper-case hex signature', async () => {
    const good = hmacHex(reader.secret, `${sb.now()}${reader.apiKey}5000GET/orders`);
    const res = await sb.signedInject<ErrorBody>(reader, 'GET', '/orders', {
      signature: good.toUpperCase(),
    });
    expect(res.body.code).toBe(-1022);
  });

  it('refuses a body that differs from the one signed', async () => {
    const now = sb.now();
    const signedBody = '{"qty":"1"}';
    const sig = hmacHex(reader.secret, `${now}${reader.apiKey}5000POST/order/rfq${signedBody}`);
    const res = await sb.app.inject({
      method: 'POST',
      url: '/order/rfq',
      headers: {
        'content-type': 'application/json',
        'x-api-key': reader.apiKey,
        'x-timestamp': String(now),
        'x-recv-window': '5000',
        'x-signature': sig,
      },
      payload: '{"qty":"2"}',
    });
    expect(res.json()).toMatchObject({ code: -1022 });
  });

  it('refuses a query string that differs from the one signed', async () => {
    const now = sb.now();
    const sig = hmacHex(reader.secret, `${now}${reader.apiKey}5000GET/ordersoffset=0&limit=5`);
    const res = await sb.app.inject({
      method: 'GET',
      url: '/orders?limit=5&offset=0',
      headers: {
        'x-api-key': reader.apiKey,
        'x-timestamp': String(now),
        'x-recv-window': '5000',
        'x-signature': sig,
      },
    });
    expect(res.json()).toMatchObject({ code: -1022 });
  });

  it('refuses a signature made for another path', async () => {
    const now = sb.now();
    const sig = hmacHex(reader.secret, `${now}${reader.apiKey}5000GET/orders`);
    const res = await sb.app.inject({
      method: 'GET',
      url: '/settlements',
      headers: {
        'x-api-key': reader.apiKey,
        'x-timestamp': String(now),
        'x-recv-window': '5000',
        'x-signature': sig,
      },
    });
    expect(res.json()).toMatchObject({ code: -1022 });
  });

  it('never echoes the secret or the signature in an error', async () => {
    const sig = 'ab'.repeat(32);
    const res = await sb.signedInject<ErrorBody>(reader, 'GET', '/orders', { signature: sig });
    expect(res.text).not.toContain(sig);
    expect(res.text).not.toContain(reader.secret);
  });
});

describe('permissions (5.1)', () => {
  const order = (contractId: string, outcome: string) => ({
    orderType: 'MARKET',
    legs: [{ contractId, outcome, side: 'BUY', market: 'DRAW_NO_BET' }],
    qty: '5',
    marketUnit: 'BASE',
  });

  it('refuses POST /order with a read key (403 -1022)', async () => {
    const f = await openContract();
    const res = await sb.signedInject<ErrorBody>(reader, 'POST', '/order', {
      body: order(f.contractId, f.homeTeam),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(-1022);
    expect(res.body.msg).toMatch(/trade/);
  });

  it('lets a read key quote and read', async () => {
    for (const path of ['/orders', '/orders/updates', '/positions', '/settlements']) {
      const res = await sb.signedInject(reader, 'GET', path);
      expect(res.status, path).toBe(200);
    }
  });

  it('lets a trade key use the read endpoints too', async () => {
    const res = await sb.signedInject(trader, 'GET', '/orders');
    expect(res.status).toBe(200);
  });

  it('refuses a trade key without expiresAt at creation (400 -1102)', async () => {
    const wallet = await sb.createWallet();
    const res = await sb.control<ErrorBody>('POST', '/sandbox/keys', {
      wallet,
      permission: 'trade',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1102);
  });

  it('refuses a key once it has expired on the exchange clock', async () => {
    const key = await sb.newKey({ permission: 'trade', expiresAt: sb.now() + 60_000 });
    expect((await sb.signedInject(key, 'GET', '/orders')).status).toBe(200);
    await sb.advanceClock(61_000);
    const res = await sb.signedInject<ErrorBody>(key, 'GET', '/orders');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(-1022);
    expect(res.body.msg).toMatch(/expired/);
  });

  it('fails orders with -4002 once the wallet grant is revoked, and reads still work', async () => {
    const key = await sb.newKey({ permission: 'trade' });
    const f = await openContract();
    const revoke = await sb.control('POST', `/sandbox/keys/${key.apiKey}/revoke-grant`);
    expect(revoke.status).toBe(204);
    const res = await sb.signedInject<ErrorBody>(key, 'POST', '/order', {
      body: order(f.contractId, f.homeTeam),
    });
    expect(res.body.code).toBe(-4002);
    expect(res.status).toBe(403);
    expect((await sb.signedInject(key, 'GET', '/orders')).status).toBe(200);
  });
});

describe('ipRestrictions', () => {
  let key: Credentials;
  beforeAll(async () => {
    key = await sb.newKey({
      permission: 'read',
      ipRestrictions: ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32'],
    });
  });

  it.each(['10.1.2.3', '192.168.1.7', '2001:db8::5', '::ffff:10.0.0.7'])(
    'accepts a caller at %s',
    async (ip) => {
      const res = await sb.signedInject(key, 'GET', '/orders', { remoteAddress: ip });
      expect(res.status).toBe(200);
    },
  );

  it.each(['11.0.0.1', '192.168.1.8', '2001:db9::1', '127.0.0.1'])(
    'refuses a caller at %s with 403 -1022',
    async (ip) => {
      const res = await sb.signedInject<ErrorBody>(key, 'GET', '/orders', { remoteAddress: ip });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(-1022);
    },
  );

  it('refuses a real-socket caller outside the list', async () => {
    const res = await sb.signed<ErrorBody>(key, 'GET', '/orders');
    expect(res.body.code).toBe(-1022);
  });

  it.each(['10.0.0.0/33', 'not-an-ip', '1.2.3.4/8/1', '::1/129'])(
    'refuses a key restricted to %j (400 -1102)',
    async (rule) => {
      const wallet = await sb.createWallet();
      const res = await sb.control<ErrorBody>('POST', '/sandbox/keys', {
        wallet,
        permission: 'read',
        ipRestrictions: [rule],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(-1102);
      expect(res.body.msg).toMatch(/ipRestrictions/);
    },
  );
});
