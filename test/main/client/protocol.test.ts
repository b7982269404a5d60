/**
 * Answers that break the API. The peer here is NOT a mock of the exchange: it is a deliberately
 * broken HTTP server, a few fixed answers that no real exchange gives, so the client's checks on
 * what it receives can be seen to fire. Everything else is tested against the real sandbox.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient, NetworkError, ProtocolError } from '../../../src/main/client/index.js';

const brokenAnswers: Record<string, { status: number; body: string; type?: string }> = {
  '/bad/time': { status: 200, body: '{"serverTime":"soon"}' },
  '/bad/health': { status: 502, body: '<html>Bad gateway</html>' },
  '/bad/fixtures': {
    status: 200,
    body: '{"fixtures":[{"contractId":"X"}],"total":1,"limit":50,"offset":0}',
  },
  // Under /signed the clock answers properly, so a signed call gets as far as its own answer.
  '/signed/time': { status: 200, body: String(JSON.stringify({ serverTime: Date.now() })) },
  '/signed/order/rfq': { status: 400, body: '{"error":"no code here"}' },
  // Under /hangup only the clock answers; every other request is read, then the line is dropped.
  '/hangup/time': { status: 200, body: String(JSON.stringify({ serverTime: Date.now() })) },
  // A web server that is not an exchange: its 404 page, as a real one sends it.
  '/web/time': {
    status: 404,
    body: '<!DOCTYPE HTML>\n<html lang="en">\n<head><title>Not found</title></head></html>',
    type: 'text/html; charset=utf-8',
  },
};

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/hangup/') && path !== '/hangup/time') {
      // Reads the request, then drops the connection without an answer.
      req.resume();
      req.on('end', () => req.socket.destroy());
      return;
    }
    const answer = brokenAnswers[path] ?? { status: 404, body: '' };
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' });
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
    expect((err as ProtocolError).message).toMatch(
      /is not an exchange: .* HTTP 502 and application\/json/,
    );
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

describe('what a failure says, in words', () => {
  it('names a server that is not an exchange by its status and content type, never its page', async () => {
    const client = new ExchangeClient({ baseUrl: `${origin}/web` });
    const err = await client.time().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    const message = (err as ProtocolError).message;
    expect(message).toBe(
      'The server at this address is not an exchange: it answered GET /time with HTTP 404 and text/html, which is not how an exchange answers. Check the address.',
    );
    expect(message).not.toMatch(/DOCTYPE|<html|Not found/);
    expect((err as ProtocolError).detail).not.toMatch(/DOCTYPE|<html/);
    await client.close();
  });

  it('says a failed read changed nothing, and only a write has an unknown outcome', async () => {
    const client = new ExchangeClient({ baseUrl: `${origin}/hangup` });
    const read = await client.health().catch((e: unknown) => e);
    expect(read).toBeInstanceOf(NetworkError);
    expect((read as NetworkError).message).toMatch(/only a read: nothing was changed/);
    expect((read as NetworkError).message).not.toMatch(/may have reached the exchange/);

    const writer = new ExchangeClient({
      baseUrl: `${origin}/hangup`,
      credentials: { apiKey: 'k', secret: 's' },
      clockSync: { samples: 1 },
    });
    const write = await writer.placeOrder({ orderType: 'FOK' }).catch((e: unknown) => e);
    expect(write).toBeInstanceOf(NetworkError);
    expect((write as NetworkError).message).toMatch(
      /may have reached the exchange, so whether it took effect is unknown/,
    );
    await writer.close();
    await client.close();
  });
});
