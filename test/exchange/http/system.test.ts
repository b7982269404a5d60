/** docs/api.md 4.1 and 9: health, time, versioning and unknown routes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Credentials, type Sandbox } from '../harness.js';

let sb: Sandbox;
let reader: Credentials;
beforeAll(async () => {
  sb = await startSandbox();
  reader = await sb.newKey({ permission: 'read' });
});
afterAll(async () => sb.close());

describe('system endpoints (4.1)', () => {
  it('GET /health answers {status:"ok", version:0}', async () => {
    const res = await sb.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: 0 });
  });

  it('GET /time answers the exchange clock in ms', async () => {
    const before = sb.now();
    const res = await sb.get<{ serverTime: number }>('/time');
    expect(res.status).toBe(200);
    expect(Number.isInteger(res.body.serverTime)).toBe(true);
    expect(res.body.serverTime).toBeGreaterThanOrEqual(before);
    expect(res.body.serverTime).toBeLessThanOrEqual(sb.now());
  });

  it('GET /time follows the clock advanced through the control API', async () => {
    const before = (await sb.get<{ serverTime: number }>('/time')).body.serverTime;
    await sb.advanceClock(3_600_000);
    const after = (await sb.get<{ serverTime: number }>('/time')).body.serverTime;
    expect(after - before).toBeGreaterThanOrEqual(3_600_000);
  });

  it('GET / answers an index of the documentation', async () => {
    const res = await sb.get<Record<string, unknown>>('/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      docs: '/docs',
      openapi: '/openapi.yaml',
      swagger: '/swagger',
    });
  });

  it('GET /health and /time carry no rate-limit headers (no wallet quota)', async () => {
    const res = await sb.get('/health');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('versioning (9)', () => {
  it.each(['/health', '/time', '/fixtures', '/docs', '/openapi.yaml', '/nowhere'])(
    'echoes X-Api-Version: 0 on %s',
    async (path) => {
      const res = await sb.get(path);
      expect(res.headers['x-api-version']).toBe('0');
    },
  );

  it('echoes X-Api-Version: 0 on errors of signed endpoints', async () => {
    const res = await sb.app.inject({ method: 'GET', url: '/orders' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-api-version']).toBe('0');
  });

  it('accepts X-Api-Version: 0', async () => {
    const res = await sb.get('/health', { 'x-api-version': '0' });
    expect(res.status).toBe(200);
  });

  it.each(['1', '2', 'v0', '0.0', '', ' 1'])('refuses X-Api-Version %j with -1099', async (v) => {
    const res = await sb.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-api-version': v },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: -1099 });
    expect(res.headers['x-api-version']).toBe('0');
  });

  it('refuses an unknown version on a signed endpoint before authenticating', async () => {
    const res = await sb.signedInject<{ code: number }>(reader, 'GET', '/orders', {
      headers: { 'x-api-version': '3' },
    });
    expect(res.body.code).toBe(-1099);
    // Still an answer of a rate-limited endpoint.
    expect(res.headers['x-ratelimit-limit']).toBe('10');
    expect(res.headers['x-ratelimit-remaining']).toBe('10');
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/nope'],
    ['POST', '/health'],
    ['DELETE', '/order'],
    ['GET', '/sandbox/wallets'],
  ])('%s %s answers 404 {code:-1102, msg}', async (method, url) => {
    const res = await sb.app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(404);
    const body = res.json<{ code: number; msg: string }>();
    expect(body.code).toBe(-1102);
    expect(body.msg).toMatch(/No endpoint/);
  });
});
