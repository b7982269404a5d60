import { describe, expect, it } from 'vitest';
import { signHeaders, uniqueTimestamp } from '../../../src/main/client/signer.js';
import { estimateOffset } from '../../../src/main/client/clock.js';
import { ExchangeClient, NetworkError } from '../../../src/main/client/index.js';

// Reference signatures computed outside this code base, with
// printf '%s' '<signed string>' | openssl dgst -sha256 -hmac 's3cret'
describe('signing', () => {
  const credentials = { apiKey: 'key-1', secret: 's3cret' };

  it('signs timestamp + key + window + METHOD + path + query string, lower-case hex', () => {
    const h = signHeaders({
      credentials,
      timestamp: 1_700_000_000_000,
      recvWindow: 5000,
      method: 'get',
      path: '/orders',
      payload: 'status=FILLED&limit=5',
    });
    expect(h).toEqual({
      'x-api-key': 'key-1',
      'x-timestamp': '1700000000000',
      'x-recv-window': '5000',
      'x-signature': 'befc4d2f87d9c2b2b7ebd336e8cd715db5c8d8f0ddf8b9c87c096e3bfb5f901f',
    });
  });

  it('signs a body as its UTF-8 bytes', () => {
    const h = signHeaders({
      credentials,
      timestamp: 1_700_000_000_000,
      recvWindow: 5000,
      method: 'POST',
      path: '/order/rfq',
      payload: '{"qty":"10","note":"é"}',
    });
    expect(h['x-signature']).toBe(
      '0766b5b0f0bc06c04e504c4a7aba6ebc9e71b52b211f010af79e5ea52af3bab9',
    );
  });
});

describe('timestamps', () => {
  it('never repeats a timestamp for one key, so identical requests get distinct signatures', () => {
    expect([1000, 1000, 1000, 1001, 1005].map((t) => uniqueTimestamp('burst-key', t))).toEqual([
      1000, 1001, 1002, 1003, 1005,
    ]);
    // Another key is independent.
    expect(uniqueTimestamp('other-key', 1000)).toBe(1000);
  });

  it('follows a clock estimate moved back by more than a second', () => {
    expect(uniqueTimestamp('corrected-key', 50_000)).toBe(50_000);
    expect(uniqueTimestamp('corrected-key', 49_500)).toBe(50_001);
    expect(uniqueTimestamp('corrected-key', 20_000)).toBe(20_000);
  });
});

describe('clock offset estimation', () => {
  it('uses the sample with the shortest round trip and its midpoint', () => {
    const est = estimateOffset([
      { sentAt: 1000, receivedAt: 1300, serverTime: 31_100 },
      { sentAt: 2000, receivedAt: 2010, serverTime: 32_008 },
      { sentAt: 3000, receivedAt: 3200, serverTime: 33_050 },
    ]);
    expect(est).toEqual({ offsetMs: 30_003, rttMs: 10 });
  });

  it('needs at least one sample', () => {
    expect(() => estimateOffset([])).toThrow(RangeError);
  });
});

describe('client configuration', () => {
  it('refuses a recv window outside 100 to 60000 ms', () => {
    expect(() => new ExchangeClient({ baseUrl: 'http://127.0.0.1:9', recvWindow: 99 })).toThrow(
      RangeError,
    );
    expect(() => new ExchangeClient({ baseUrl: 'http://127.0.0.1:9', recvWindow: 60_001 })).toThrow(
      RangeError,
    );
  });

  it('reports a refused connection as a network error whose request never left', async () => {
    // Port 9 (discard) is closed on a test machine: the connection is refused at once.
    const client = new ExchangeClient({ baseUrl: 'http://127.0.0.1:9' });
    const err = await client.health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe('connect');
    expect((err as NetworkError).outcomeUnknown).toBe(false);
    expect((err as NetworkError).message).toMatch(/could not be reached/);
    await client.close();
  });

  it('refuses a signed call without credentials, before sending anything', async () => {
    const client = new ExchangeClient({ baseUrl: 'http://127.0.0.1:9' });
    await expect(client.positions()).rejects.toThrow(/needs an API key/);
    await client.close();
  });
});
