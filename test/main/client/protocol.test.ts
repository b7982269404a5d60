/**
 * Answers that break the API. The peer here is NOT a mock of the exchange: it is a deliberately
 * broken HTTP server, a few fixed answers that no real exchange gives, so the client's checks on
 * what it receives can be seen to fire. Everything else is tested against the real sandbox.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient, ProtocolError } from '../../../src/main/client/index.js';

const brokenAnswers: Record<string, { status: number; body: string }> = {
  '/bad/time': { status: 200, body: '{"serverTime":"soon"}' },
  '/bad/health': { status: 502, body: '<html>Bad gateway</html>' },
  '/bad/fixtures': {
    status: 200,
    body: '{"fixtures":[{"contractId":"X"}],"total":1,"limit":50,"offset":0}',
  },
  // Under /signed the clock answers properly, so a signed call gets as far as its own answer.
  '/signed/time': { status: 200, body: String(JSON.stringify({ serverTime: Date.now() })) },
  '/signed/order/rfq': { status: 400, body: '{"error":"no code here"}' },
};

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const answer = brokenAnswers[path] ?? { status: 404, body: '' };
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('answers that break the API become ProtocolErrors', () => {
  it('rejects a 200 whose body does not match the schema, naming the field', async () => {
    const client = new ExchangeClient({ baseUrl: `${origin}/bad` });
    const err = await client.time().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).httpStatus).toBe(200);
    expect((err as ProtocolError).detail).toMatch(/serverTime/);
    await client.close();
  });

  it('rejects a fixture list whose fixtures lack required fields', async () => {
    const client = new ExchangeClient({ baseUrl: `${origin}/bad` });
    await expect(client.fixtures()).rejects.toBeInstanceOf(ProtocolError);
    await client.close();
  });

  it('rejects an answer that is not JSON at all', async () => {
    const client = new ExchangeClient({ baseUrl: `${origin}/bad` });
    const err = await client.health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).httpStatus).toBe(502);
    expect((err as ProtocolError).message).toMatch(/not JSON/);
    await client.close();
  });

  it('rejects an error answer without {code, msg}', async () => {
    const client = new ExchangeClient({
      baseUrl: `${origin}/signed/`,
      credentials: { apiKey: 'k', secret: 's' },
    });
    const err = await client
      .rfq({
        legs: [{ contractId: 'X', outcome: 'A', side: 'BUY', market: 'DRAW_NO_BET' }],
        qty: '1',
        marketUnit: 'BASE',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).route).toBe('POST /order/rfq');
    expect((err as ProtocolError).httpStatus).toBe(400);
    await client.close();
  });
});
