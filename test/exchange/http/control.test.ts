/** The control API of docs/sandbox.md: only with an admin token, Bearer auth, exact answers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExchange, type RunningExchange } from '../../../src/exchange/app.js';
import { startSandbox, type Sandbox } from '../harness.js';

type ErrorBody = { code: number; msg: string };
type Fixture = {
  contractId: string;
  homeTeam: string;
  awayTeam: string;
  homePrice: string;
  awayPrice: string;
  bettingOpen: boolean;
  status: string;
  winner?: string;
  league: string;
  startsAt: number;
};

describe('without --admin-token', () => {
  let ex: RunningExchange;
  beforeAll(async () => {
    ex = await startExchange({ port: 0 });
  });
  afterAll(async () => ex.close());

  it.each([
    ['POST', '/sandbox/wallets'],
    ['POST', '/sandbox/keys'],
    ['POST', '/sandbox/clock'],
    ['POST', '/sandbox/faults'],
    ['DELETE', '/sandbox/faults'],
    ['GET', '/sandbox'],
    ['POST', '/sandbox/fixtures/X/close'],
  ])('%s %s answers 404 even with a bearer token', async (method, url) => {
    const res = await ex.app.inject({
      method: method as 'POST',
      url,
      headers: { authorization: 'Bearer t' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: -1102 });
  });
});

describe('with --admin-token', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => sb.close());

  it('refuses a call without Authorization with 401 -1023', async () => {
    const res = await sb.app.inject({ method: 'POST', url: '/sandbox/wallets' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: -1023 });
  });

  it.each(['Bearer wrong', 'Basic dGVzdA==', `bearer ${'x'.repeat(500)}`])(
    'refuses Authorization %j',
    async (authorization) => {
      const res = await sb.app.inject({
        method: 'POST',
        url: '/sandbox/wallets',
        headers: { authorization },
      });
      expect([401, 403]).toContain(res.statusCode);
      expect(res.json()).toMatchObject({ code: -1023 });
    },
  );

  it('answers a wrong token with 403', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: '/sandbox/clock',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      payload: '{"advanceMs":1}',
    });
    expect(res.statusCode).toBe(403);
  });

  it('POST /sandbox/wallets creates a wallet: 201 {wallet: 0x + 40 hex}', async () => {
    const res = await sb.control<{ wallet: string }>('POST', '/sandbox/wallets');
    expect(res.status).toBe(201);
    expect(res.body.wallet).toMatch(/^0x[0-9a-f]{40}$/i);
  });

  it('POST /sandbox/keys answers 201 {apiKey, secret, permission, expiresAt}', async () => {
    const wallet = await sb.createWallet();
    const expiresAt = sb.now() + 3_600_000;
    const res = await sb.control<Record<string, unknown>>('POST', '/sandbox/keys', {
      wallet,
      permission: 'trade',
      expiresAt,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ permission: 'trade', expiresAt });
    expect(typeof res.body.apiKey).toBe('string');
    expect(typeof res.body.secret).toBe('string');
    const read = await sb.control<Record<string, unknown>>('POST', '/sandbox/keys', {
      wallet,
      permission: 'read',
    });
    expect(read.status).toBe(201);
    expect(read.body.expiresAt).toBeNull();
  });

  it.each([
    [{ permission: 'trade' }, /expiresAt/],
    [{ permission: 'admin' }, /permission/],
    [{ permission: 'read', ipRestrictions: ['300.1.1.1'] }, /ipRestrictions/],
    [{ permission: 'read', colour: 'red' }, /colour/],
  ])('POST /sandbox/keys refuses %j with 400 -1102', async (extra, msg) => {
    const wallet = await sb.createWallet();
    const res = await sb.control<ErrorBody>('POST', '/sandbox/keys', { wallet, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1102);
    expect(res.body.msg).toMatch(msg);
  });

  it('POST /sandbox/keys refuses an unknown wallet', async () => {
    const res = await sb.control<ErrorBody>('POST', '/sandbox/keys', {
      wallet: `0x${'1'.repeat(40)}`,
      permission: 'read',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1102);
  });

  it('revoke-grant answers 204, and 404 -1102 for an unknown key', async () => {
    const key = await sb.newKey({ permission: 'trade' });
    expect((await sb.control('POST', `/sandbox/keys/${key.apiKey}/revoke-grant`)).status).toBe(204);
    const unknown = await sb.control<ErrorBody>('POST', '/sandbox/keys/nope/revoke-grant');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(-1102);
  });

  it('POST /sandbox/fixtures creates a fixture open for betting, listed by GET /fixtures', async () => {
    const res = await sb.control<Fixture>('POST', '/sandbox/fixtures', {
      homeTeam: 'abc',
      awayTeam: 'XYZ',
      league: 'Test League',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      homeTeam: 'ABC',
      awayTeam: 'XYZ',
      league: 'Test League',
      bettingOpen: true,
    });
    const list = await sb.get<{ fixtures: Fixture[] }>('/fixtures?league=Test%20League');
    expect(list.body.fixtures).toContainEqual(res.body);
  });

  it('sets a price (the other outcome becomes 1 - p), closes and resolves a fixture', async () => {
    const f = (
      await sb.control<Fixture>('POST', '/sandbox/fixtures', {
        homeTeam: 'PRA',
        awayTeam: 'PRB',
        league: 'Ctl',
      })
    ).body;
    const price = await sb.control<{ knockedOut: number }>(
      'POST',
      `/sandbox/fixtures/${f.contractId}/price`,
      {
        outcome: f.homeTeam,
        indexPrice: '0.3',
      },
    );
    expect(price.status).toBe(200);
    expect(price.body).toEqual({ knockedOut: 0 });
    const listed = (await sb.get<{ fixtures: Fixture[] }>('/fixtures?league=Ctl')).body
      .fixtures[0]!;
    expect(Number(listed.homePrice)).toBeCloseTo(0.3, 10);
    expect(Number(listed.awayPrice)).toBeCloseTo(0.7, 10);

    const closed = await sb.control<Fixture>('POST', `/sandbox/fixtures/${f.contractId}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body.bettingOpen).toBe(false);

    const resolved = await sb.control<Fixture>(
      'POST',
      `/sandbox/fixtures/${f.contractId}/resolve`,
      { winner: f.awayTeam },
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.winner).toBe(f.awayTeam);
  });

  it('POST /sandbox/fixtures/{id}/kickoff moves the kick-off, refusing a bad time', async () => {
    const f = await sb.control<Fixture>('POST', '/sandbox/fixtures', {
      homeTeam: 'KOA',
      awayTeam: 'KOB',
      league: 'Kickoff League',
    });
    const startsAt = sb.now() + 15 * 60_000;
    const res = await sb.control<Fixture>(
      'POST',
      `/sandbox/fixtures/${f.body.contractId}/kickoff`,
      {
        startsAt,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.startsAt).toBe(startsAt);
    const list = await sb.get<{ fixtures: Fixture[] }>('/fixtures?league=Kickoff%20League');
    expect(list.body.fixtures[0]?.startsAt).toBe(startsAt);
    const bad = await sb.control<ErrorBody>(
      'POST',
      `/sandbox/fixtures/${f.body.contractId}/kickoff`,
      {
        startsAt: -5,
      },
    );
    expect(bad.status).toBe(400);
  });

  it('refuses control calls on an unknown contract', async () => {
    const res = await sb.control<ErrorBody>('POST', '/sandbox/fixtures/NOPE/close');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.code).toBe(-1121);
  });

  it('POST /sandbox/clock advances the exchange clock and answers it', async () => {
    const before = sb.now();
    const res = await sb.control<{ serverTime: number }>('POST', '/sandbox/clock', {
      advanceMs: 86_400_000,
    });
    expect(res.status).toBe(200);
    expect(res.body.serverTime - before).toBeGreaterThanOrEqual(86_400_000);
  });

  it.each([{ advanceMs: -1 }, { advanceMs: 'soon' }, {}, { advanceMs: 1, extra: 1 }])(
    'POST /sandbox/clock refuses %j with 400 -1102',
    async (body) => {
      const res = await sb.control<ErrorBody>('POST', '/sandbox/clock', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(-1102);
    },
  );

  it('refuses a malformed JSON body on the control API with -1102', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: '/sandbox/clock',
      headers: { authorization: `Bearer ${sb.adminToken}`, 'content-type': 'application/json' },
      payload: '{advanceMs:',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: -1102 });
  });

  it('keeps the control API out of the OpenAPI document', async () => {
    const res = await sb.get('/openapi.yaml');
    expect(res.text).not.toMatch(/sandbox\//);
  });
});
