/** Every kind of bad input answers {code, msg} with a 4xx, never a 5xx or a crash. */
import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacHex, startSandbox, type Credentials, type Sandbox } from '../harness.js';

type ErrorBody = { code: number; msg: string };

let sb: Sandbox;
let trader: Credentials;
let leg: Record<string, string>;

beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false });
  trader = await sb.newKey({ permission: 'trade' });
  const res = await sb.get<{ fixtures: { contractId: string; homeTeam: string }[] }>(
    '/fixtures?bettingOpen=true&limit=1',
  );
  const f = res.body.fixtures[0]!;
  leg = { contractId: f.contractId, outcome: f.homeTeam, side: 'BUY', market: 'DRAW_NO_BET' };
});
afterAll(async () => sb.close());

function expectErrorBody(status: number, text: string): ErrorBody {
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
  const body = JSON.parse(text) as ErrorBody;
  expect(Number.isInteger(body.code)).toBe(true);
  expect(typeof body.msg).toBe('string');
  expect(body.msg.length).toBeGreaterThan(0);
  return body;
}

/** Sends raw bytes over a socket and returns what came back before the server closed. */
function rawExchange(bytes: string | Buffer, waitMs = 3000): Promise<string> {
  const url = new URL(sb.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('error', reject);
    socket.end(bytes);
  });
}

function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
}
function bodyOf(raw: string): string {
  return raw.slice(raw.indexOf('\r\n\r\n') + 4);
}

describe('malformed bodies name the field (-1102)', () => {
  const cases: [string, (l: Record<string, string>) => unknown, RegExp][] = [
    [
      'a number for qty',
      (l) => ({ legs: [l], qty: 10, marketUnit: 'BASE' }),
      /^qty: must be a decimal string like "10"$/,
    ],
    ['an exponent in qty', (l) => ({ legs: [l], qty: '1e3', marketUnit: 'BASE' }), /^qty: /],
    ['a missing qty', (l) => ({ legs: [l], marketUnit: 'BASE' }), /^qty: is required$/],
    [
      'an unknown field',
      (l) => ({ legs: [l], qty: '1', marketUnit: 'BASE', price: '1' }),
      /^price: is not a known field$/,
    ],
    [
      'an unknown leg field',
      (l) => ({ legs: [{ ...l, odds: 2 }], qty: '1', marketUnit: 'BASE' }),
      /^legs\[0\]\.odds: is not a known field$/,
    ],
    [
      'a bad side',
      (l) => ({ legs: [{ ...l, side: 'HOLD' }], qty: '1', marketUnit: 'BASE' }),
      /^legs\[0\]\.side: must be one of BUY, SELL/,
    ],
    [
      'a bad market',
      (l) => ({ legs: [{ ...l, market: 'WIN' }], qty: '1', marketUnit: 'BASE' }),
      /^legs\[0\]\.market: must be one of DRAW_NO_BET/,
    ],
    [
      'a boost over 100',
      (l) => ({ legs: [{ ...l, boost: 101 }], qty: '1', marketUnit: 'BASE' }),
      /^legs\[0\]\.boost: must be a whole number from 0 to 100/,
    ],
    [
      'a fractional boost string',
      (l) => ({ legs: [{ ...l, boost: '2.5' }], qty: '1', marketUnit: 'BASE' }),
      /^legs\[0\]\.boost: /,
    ],
    [
      'no legs',
      () => ({ legs: [], qty: '1', marketUnit: 'BASE' }),
      /^legs: must be an array of at least 1 item$/,
    ],
    ['legs not an array', () => ({ legs: 'x', qty: '1', marketUnit: 'BASE' }), /^legs: /],
    [
      'a bad marketUnit',
      (l) => ({ legs: [l], qty: '1', marketUnit: 'USD' }),
      /^marketUnit: must be one of BASE, QUOTE/,
    ],
    [
      'a clientOrderId with spaces',
      (l) => ({ legs: [l], qty: '1', marketUnit: 'BASE', clientOrderId: 'a b' }),
      /^clientOrderId: /,
    ],
    [
      'a 65-character clientOrderId',
      (l) => ({ legs: [l], qty: '1', marketUnit: 'BASE', clientOrderId: 'a'.repeat(65) }),
      /^clientOrderId: /,
    ],
    ['an array body', () => [1, 2], /^body: must be a JSON object$/],
    ['a null body', () => null, /^body: must be a JSON object$/],
    [
      'a __proto__ key',
      () => '{"__proto__":{"admin":true},"qty":"1"}',
      /__proto__: is not a known field|is required/,
    ],
  ];
  it.each(cases)('refuses %s', async (_name, body, msg) => {
    const res = await sb.signedInject<ErrorBody>(trader, 'POST', '/order/rfq', { body: body(leg) });
    const err = expectErrorBody(res.status, res.text);
    expect(err.code).toBe(-1102);
    expect(err.msg).toMatch(msg);
  });

  it('answers two legs with 501 -2026 before any business rule', async () => {
    const res = await sb.signedInject<ErrorBody>(trader, 'POST', '/order', {
      body: {
        orderType: 'MARKET',
        legs: [{ ...leg, contractId: 'NOPE' }, leg],
        qty: '1',
        marketUnit: 'BASE',
      },
    });
    expect(res.status).toBe(501);
    expect(res.body.code).toBe(-2026);
  });

  it('refuses invalid JSON with -1102 after checking the signature', async () => {
    const res = await sb.signedInject<ErrorBody>(trader, 'POST', '/order/rfq', {
      body: '{"qty": "1",',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: -1102 });
    expect(res.body.msg).toMatch(/^body: is not valid JSON/);
    const unsigned = await sb.signedInject<ErrorBody>(trader, 'POST', '/order/rfq', {
      body: '{"qty": "1",',
      signature: '0'.repeat(64),
    });
    expect(unsigned.body.code).toBe(-1022);
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=utf-16',
    'multipart/form-data; boundary=x',
    'no/such; ; =',
    '\u0000',
  ])('refuses Content-Type %j with -1102', async (type) => {
    const res = await sb.signedInject<ErrorBody>(trader, 'POST', '/order/rfq', {
      body: { legs: [leg], qty: '1', marketUnit: 'BASE' },
      headers: { 'content-type': type },
    });
    const err = expectErrorBody(res.status, res.text);
    expect([-1102, -1022]).toContain(err.code);
  });

  it('refuses a POST without a body', async () => {
    const res = await sb.signedInject<ErrorBody>(trader, 'POST', '/order/rfq');
    expect(res.body).toMatchObject({ code: -1102 });
  });
});

describe('malformed query strings (-1102)', () => {
  it.each([
    ['/orders', 'limit=0', /^limit: must be an integer from 1 to 100$/],
    ['/orders', 'limit=101', /^limit: /],
    ['/orders', 'limit=1.5', /^limit: /],
    ['/orders', 'limit=1&limit=2', /^limit: /],
    ['/orders', 'offset=-1', /^offset: /],
    ['/orders', 'status=LIVE', /^status: must be one of CLAIMED, SUBMITTED/],
    ['/orders', 'colour=red', /^colour: is not a known field$/],
    ['/orders/updates', 'since=yesterday', /^since: /],
    ['/settlements', 'type=WON', /^type: must be one of CLOSED, KNOCKED_OUT, SETTLEMENT$/],
    ['/order', '', /orderId or clientOrderId/],
    ['/order', 'orderId=0x1&clientOrderId=a', /orderId or clientOrderId/],
  ])('GET %s?%s', async (path, query, msg) => {
    const res = await sb.signedInject<ErrorBody>(trader, 'GET', path, { query });
    const err = expectErrorBody(res.status, res.text);
    expect(err.code).toBe(-1102);
    expect(err.msg).toMatch(msg);
  });

  it('refuses a bad fixtures query without a key', async () => {
    const res = await sb.get<ErrorBody>('/fixtures?bettingOpen=yes');
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/^bettingOpen: must be one of true, false$/);
  });
});

describe('bodies over 1 MB (docs/api.md 8, rule 1)', () => {
  it('truncates at 1 MB: a body signed whole then fails its signature (-1022), never 413 or 5xx', async () => {
    const big = JSON.stringify({
      legs: [leg],
      qty: '1',
      marketUnit: 'BASE',
      pad: 'x'.repeat(2 * 1024 * 1024),
    });
    const res = await sb.signed<ErrorBody>(trader, 'POST', '/order/rfq', { body: big });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(-1022);
  });

  it('truncates at 1 MB: signed over the first 1 MB, the rest is dropped and the JSON is broken (-1102)', async () => {
    const big = JSON.stringify({
      legs: [leg],
      qty: '1',
      marketUnit: 'BASE',
      pad: 'x'.repeat(1024 * 1024 + 100),
    });
    const first = Buffer.from(big).subarray(0, 1024 * 1024);
    const now = sb.now();
    const sig = hmacHex(
      trader.secret,
      Buffer.concat([Buffer.from(`${now}${trader.apiKey}5000POST/order/rfq`), first]),
    );
    const res = await sb.signed<ErrorBody>(trader, 'POST', '/order/rfq', {
      body: big,
      timestamp: now,
      signature: sig,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1102);
    expect(res.body.msg).toMatch(/not valid JSON/);
  });

  it('reads a chunked body of several MB the same way', async () => {
    const url = new URL(sb.url);
    const chunk = Buffer.alloc(512 * 1024, 'a');
    const head =
      `POST /order/rfq HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
      `X-Api-Key: ${trader.apiKey}\r\nX-Timestamp: ${sb.now()}\r\nX-Recv-Window: 5000\r\n` +
      `X-Signature: ${'0'.repeat(64)}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const parts: Buffer[] = [Buffer.from(head)];
    for (let i = 0; i < 6; i++)
      parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
    parts.push(Buffer.from('0\r\n\r\n'));
    const raw = await rawExchange(Buffer.concat(parts));
    expect(statusOf(raw)).toBe(401);
    expect(JSON.parse(bodyOf(raw))).toMatchObject({ code: -1022 });
  });
});

describe('malformed HTTP (real socket)', () => {
  it('answers a broken request line with 400 {code:-1102}', async () => {
    const raw = await rawExchange('GARBAGE\r\n\r\n');
    expect(statusOf(raw)).toBe(400);
    expect(JSON.parse(bodyOf(raw))).toMatchObject({ code: -1102 });
  });

  it('answers headers over 16 KB with 431 {code:-1102}', async () => {
    const raw = await rawExchange(
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(statusOf(raw)).toBe(431);
    expect(JSON.parse(bodyOf(raw))).toMatchObject({ code: -1102 });
  });

  it('answers a malformed Content-Length with 400 {code:-1102}', async () => {
    const raw = await rawExchange('POST /order HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    expect(statusOf(raw)).toBe(400);
    expect(JSON.parse(bodyOf(raw))).toMatchObject({ code: -1102 });
  });

  it('answers a header with a control character with 400 {code:-1102}', async () => {
    const raw = await rawExchange('GET /health HTTP/1.1\r\nHost: x\r\nX-Api-Key: a\u0001b\r\n\r\n');
    expect(statusOf(raw)).toBe(400);
    expect(JSON.parse(bodyOf(raw))).toMatchObject({ code: -1102 });
  });

  it('answers a URL with odd percent-encoding without a 5xx', async () => {
    const raw = await rawExchange(
      'GET /fixtures?limit=%ZZ&%%%=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(statusOf(raw)).toBe(400);
    expect(JSON.parse(bodyOf(raw))).toMatchObject({ code: -1102 });
  });

  it('keeps serving after all of that', async () => {
    expect((await sb.get('/health')).status).toBe(200);
  });
});

describe('fuzz', () => {
  const jsonValue = fc.jsonValue({ maxDepth: 4 });
  const legLike = fc.record(
    {
      contractId: fc.oneof(fc.string(), fc.constantFrom('NOPE', 'x'.repeat(200))),
      outcome: fc.string({ maxLength: 10 }),
      side: fc.oneof(fc.constantFrom('BUY', 'sell', 'Buy'), fc.string()),
      market: fc.oneof(fc.constant('DRAW_NO_BET'), fc.string()),
      boost: fc.oneof(fc.integer({ min: -5, max: 120 }), fc.string({ maxLength: 5 }), jsonValue),
    },
    { requiredKeys: [] },
  );
  const orderLike = fc.record(
    {
      orderType: fc.oneof(fc.constantFrom('MARKET', 'FOK', 'fok'), jsonValue),
      legs: fc.oneof(fc.array(legLike, { maxLength: 3 }), jsonValue),
      qty: fc.oneof(
        fc.constantFrom('1', '0', '-1', '1.5', '1e2', '99999999999999999999'),
        fc.string(),
        jsonValue,
      ),
      marketUnit: fc.oneof(fc.constantFrom('BASE', 'QUOTE', 'quote'), fc.string()),
      clientOrderId: fc.string({ maxLength: 70 }),
      rfqId: fc.string({ maxLength: 40 }),
      extra: jsonValue,
    },
    { requiredKeys: [] },
  );

  it('never answers a 5xx to any JSON body on POST /order/rfq and POST /order', async () => {
    await fc.assert(
      fc.asyncProperty(orderLike, fc.constantFrom('/order/rfq', '/order'), async (body, path) => {
        const res = await sb.signedInject(trader, 'POST', path, { body });
        if (res.status < 300) return;
        // -2019 (market closed) and -5xxx are 503 (docs/api.md 7); nothing here should reach them.
        expectErrorBody(res.status, res.text);
      }),
      { numRuns: 300 },
    );
  });

  it('never answers a 5xx to arbitrary bytes as a body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        const res = await sb.signedInject(trader, 'POST', '/order/rfq', {
          body: Buffer.from(bytes),
        });
        expectErrorBody(res.status, res.text);
      }),
      { numRuns: 200 },
    );
  });

  it('never answers a 5xx to arbitrary query strings', async () => {
    const key = fc.constantFrom(
      'limit',
      'offset',
      'status',
      'contractId',
      'team',
      'since',
      'type',
      'orderId',
      'clientOrderId',
      'league',
      'x',
    );
    const query = fc.array(fc.tuple(key, fc.string({ maxLength: 12 })), { maxLength: 5 });
    const path = fc.constantFrom(
      '/orders',
      '/orders/updates',
      '/positions',
      '/settlements',
      '/order',
    );
    await fc.assert(
      fc.asyncProperty(path, query, async (p, pairs) => {
        const qs = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const res = await sb.signedInject(trader, 'GET', p, { query: qs });
        if (res.status === 200) return;
        expectErrorBody(res.status, res.text);
        const unsigned = await sb.app.inject({ url: `/fixtures?${qs}` });
        if (unsigned.statusCode !== 200) expectErrorBody(unsigned.statusCode, unsigned.body);
      }),
      { numRuns: 300 },
    );
  });

  it('never answers a 5xx to arbitrary signing headers', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('', '0', '-1', '1e3', '99999999999999999999', 'ab'.repeat(32)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            'x-api-key': value,
            'x-timestamp': value,
            'x-recv-window': value,
            'x-signature': value,
            'x-api-version': fc.oneof(fc.constant('0'), value),
          },
          { requiredKeys: [] },
        ),
        async (headers) => {
          const clean = Object.fromEntries(
            Object.entries(headers).filter(([, v]) => /^[\t\x20-\x7e]*$/.test(v)),
          );
          const res = await sb.app.inject({ method: 'GET', url: '/orders', headers: clean });
          expectErrorBody(res.statusCode, res.body);
        },
      ),
      { numRuns: 300 },
    );
  });
});
