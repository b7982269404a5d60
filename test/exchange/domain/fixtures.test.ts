import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/shared/money.js';
import { codeOf, domain, fixture } from './helpers.js';

describe('seeded fixtures', () => {
  it('generates at least 20 fixtures in 3 leagues, 12 open, with valid teams and prices', async () => {
    const d = await domain({ seed: 1 });
    const { fixtures, total } = d.listFixtures({ limit: 100 });
    expect(total).toBeGreaterThanOrEqual(20);
    expect(new Set(fixtures.map((f) => f.league)).size).toBeGreaterThanOrEqual(3);
    expect(fixtures.filter((f) => f.bettingOpen).length).toBeGreaterThanOrEqual(12);
    const now = d.now();
    const upcoming = fixtures.filter((f) => f.bettingOpen);
    expect(upcoming.every((f) => f.startsAt > now)).toBe(true);
    // spread over several days
    const days = new Set(upcoming.map((f) => Math.floor((f.startsAt - now) / 86_400_000)));
    expect(days.size).toBeGreaterThanOrEqual(4);
    for (const f of fixtures) {
      expect(f.homeTeam).toMatch(/^[A-Z]{2,4}$/);
      expect(f.awayTeam).toMatch(/^[A-Z]{2,4}$/);
      expect(f.homeTeam).not.toBe(f.awayTeam);
      expect(f.contractId).toBe(f.contractId.toUpperCase());
      expect(dec(f.homePrice).gte('0.05') && dec(f.homePrice).lte('0.95')).toBe(true);
      expect(dec(f.homePrice).plus(f.awayPrice).eq(1)).toBe(true);
      expect(f.minContracts).toBeGreaterThanOrEqual(1);
      expect(f.minContracts % f.lotSize).toBe(0);
      expect(f.bettingOpen).toBe(f.status === 'OPEN');
    }
    expect(new Set(fixtures.map((f) => f.contractId)).size).toBe(fixtures.length);
  });

  it('gives the same fixtures and contractIds for the same seed and different ones for another', async () => {
    const strip = (
      fs: { contractId: string; homeTeam: string; awayTeam: string; homePrice: string }[],
    ) => fs.map((f) => [f.contractId, f.homeTeam, f.awayTeam, f.homePrice]);
    const a = strip((await domain({ seed: 42 })).listFixtures({ limit: 100 }).fixtures);
    const b = strip((await domain({ seed: 42 })).listFixtures({ limit: 100 }).fixtures);
    const c = strip((await domain({ seed: 43 })).listFixtures({ limit: 100 }).fixtures);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });
});

describe('control of fixtures', () => {
  it('creates a fixture open for betting, with upper-case teams', async () => {
    const d = await domain();
    const f = d.createFixture({
      homeTeam: 'ars',
      awayTeam: 'Che',
      league: 'EPL',
      startsAt: d.now() + 5000,
    });
    expect(f).toMatchObject({
      homeTeam: 'ARS',
      awayTeam: 'CHE',
      league: 'EPL',
      bettingOpen: true,
      status: 'OPEN',
    });
    expect(d.listFixtures({ team: 'ars', limit: 100 }).fixtures.map((x) => x.contractId)).toContain(
      f.contractId,
    );
    expect(
      (await codeOf(() => d.createFixture({ homeTeam: 'A', awayTeam: 'BB', league: 'X' }))).code,
    ).toBe(-1102);
    expect(
      (await codeOf(() => d.createFixture({ homeTeam: 'AB', awayTeam: 'ab', league: 'X' }))).code,
    ).toBe(-1102);
    expect(
      (await codeOf(() => d.createFixture({ homeTeam: 'AB', awayTeam: 'CD', league: '' }))).code,
    ).toBe(-1102);
  });

  it('sets an outcome price and the other to 1 − p', async () => {
    const d = await domain();
    const f = fixture(d);
    expect(d.setPrice(f.contractId.toLowerCase(), 'awy', '0.3')).toEqual({ knockedOut: 0 });
    const after = d
      .listFixtures({ limit: 100 })
      .fixtures.find((x) => x.contractId === f.contractId)!;
    expect(after).toMatchObject({ homePrice: '0.7000', awayPrice: '0.3000' });
    for (const bad of ['0', '1', '1.5', '-0.2', 'abc']) {
      expect((await codeOf(() => d.setPrice(f.contractId, 'HOM', bad))).code).toBe(-1102);
    }
    expect((await codeOf(() => d.setPrice(f.contractId, 'XYZ', '0.5'))).code).toBe(-1102);
    expect((await codeOf(() => d.setPrice('NOPE', 'HOM', '0.5'))).code).toBe(-1121);
  });

  it('closes betting', async () => {
    const d = await domain();
    const f = fixture(d);
    expect(d.closeFixture(f.contractId)).toMatchObject({ bettingOpen: false, status: 'CLOSED' });
    expect(
      d.listFixtures({ bettingOpen: 'true', limit: 100 }).fixtures.map((x) => x.contractId),
    ).not.toContain(f.contractId);
  });

  it('moves the clock forward', async () => {
    const d = await domain();
    const before = d.now();
    d.advanceClock(3_600_000);
    expect(d.now()).toBeGreaterThanOrEqual(before + 3_600_000);
    expect((await codeOf(() => d.advanceClock(-1))).code).toBe(-1102);
  });
});

describe('wallets and keys', () => {
  it('creates wallets and keys the HTTP layer can look up', async () => {
    const d = await domain();
    const w = d.createWallet();
    expect(w).toMatch(/^0x[0-9a-f]{40}$/);
    const read = d.createKey({ wallet: w, permission: 'read' });
    expect(read).toMatchObject({ wallet: w, permission: 'read', grantActive: true });
    expect(read.secret).toMatch(/^[0-9a-f]{64}$/);
    const trade = d.createKey({
      wallet: w,
      permission: 'trade',
      expiresAt: d.now() + 86_400_000,
      ipRestrictions: ['127.0.0.1/32'],
    });
    expect(d.getKey(trade.apiKey)).toMatchObject({
      secret: trade.secret,
      ipRestrictions: ['127.0.0.1/32'],
    });
    expect(d.getKey('nope')).toBeUndefined();
    d.revokeGrant(trade.apiKey);
    expect(d.getKey(trade.apiKey)?.grantActive).toBe(false);
  });

  it('refuses a trade key without expiresAt, an unknown wallet and revoking an unknown key', async () => {
    const d = await domain();
    const w = d.createWallet();
    const noExpiry = await codeOf(() => d.createKey({ wallet: w, permission: 'trade' }));
    expect(noExpiry.code).toBe(-1102);
    expect(noExpiry.msg).toMatch(/expiresAt/);
    expect(
      (await codeOf(() => d.createKey({ wallet: '0x' + '0'.repeat(40), permission: 'read' }))).code,
    ).toBe(-1102);
    expect(await codeOf(() => d.revokeGrant('nope'))).toMatchObject({ code: -1102, status: 404 });
  });
});
