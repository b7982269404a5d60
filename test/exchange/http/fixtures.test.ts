/** docs/api.md 4.2 and 4.10: GET /fixtures, paged and filtered, through HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../harness.js';

type Fixture = {
  contractId: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  bettingOpen: boolean;
  homePrice: string;
  awayPrice: string;
  startsAt: number;
};
type FixtureList = { fixtures: Fixture[]; total: number; limit: number; offset: number };

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false });
  // Enough fixtures to need several pages at the maximum limit.
  for (let i = 0; i < 90; i++) {
    const home = `H${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`;
    await sb.control('POST', '/sandbox/fixtures', {
      homeTeam: home,
      awayTeam: 'AWY',
      league: 'Paging',
    });
  }
});
afterAll(async () => sb.close());

const list = async (query: string) => {
  const res = await sb.get<FixtureList>(`/fixtures${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

async function allFixtures(on: Sandbox, query = ''): Promise<Fixture[]> {
  const out: Fixture[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await on.get<FixtureList>(`/fixtures?limit=100&offset=${offset}${query}`)).body;
    out.push(...page.fixtures);
    if (offset + 100 >= page.total) return out;
  }
}

describe('GET /fixtures', () => {
  it('needs no key and answers {fixtures, total, limit, offset} with limit 50 and offset 0 by default', async () => {
    const page = await list('');
    expect(page.limit).toBe(50);
    expect(page.offset).toBe(0);
    expect(page.fixtures).toHaveLength(50);
    expect(page.total).toBeGreaterThanOrEqual(110);
  });

  it('seeds at least 20 fixtures in 3 leagues, 12 open, with 2-4 letter teams and prices in (0.05, 0.95)', async () => {
    const all = (await allFixtures(sb)).filter((f) => f.league !== 'Paging');
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(new Set(all.map((f) => f.league)).size).toBeGreaterThanOrEqual(3);
    expect(all.filter((f) => f.bettingOpen).length).toBeGreaterThanOrEqual(12);
    for (const f of all) {
      expect(f.homeTeam).toMatch(/^[A-Z]{2,4}$/);
      expect(f.awayTeam).toMatch(/^[A-Z]{2,4}$/);
    }
    for (const f of all.filter((x) => x.bettingOpen)) {
      expect(Number(f.homePrice)).toBeGreaterThanOrEqual(0.05);
      expect(Number(f.homePrice)).toBeLessThanOrEqual(0.95);
    }
  });

  it('caps limit at 100 and refuses more with -1102', async () => {
    expect((await list('?limit=100')).fixtures).toHaveLength(100);
    const res = await sb.get<{ code: number }>('/fixtures?limit=101');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(-1102);
  });

  it('pages without repeating or omitting a fixture', async () => {
    const total = (await list('?limit=1')).total;
    const seen: string[] = [];
    for (let offset = 0; offset < total; offset += 7) {
      const page = await list(`?limit=7&offset=${offset}`);
      expect(page.total).toBe(total);
      seen.push(...page.fixtures.map((f) => f.contractId));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('answers an empty page past the last match, not an error', async () => {
    const page = await list('?offset=100000');
    expect(page.fixtures).toEqual([]);
    expect(page.offset).toBe(100000);
    expect(page.total).toBeGreaterThan(0);
  });

  it('bettingOpen=true restricts to fixtures open for betting, before paging', async () => {
    const all = await list('?limit=100');
    const f = all.fixtures.find((x) => x.league === 'Paging')!;
    await sb.control('POST', `/sandbox/fixtures/${f.contractId}/close`);
    const open = await list('?bettingOpen=true&limit=100&league=Paging');
    expect(open.total).toBe(89);
    expect(open.fixtures.every((x) => x.bettingOpen)).toBe(true);
    const closed = await list('?bettingOpen=false&league=Paging');
    expect(closed.fixtures.map((x) => x.contractId)).toEqual([f.contractId]);
  });

  it('filters by league and team, case insensitive, and counts matches in total', async () => {
    const byLeague = await list('?league=paging&limit=5');
    expect(byLeague.total).toBe(90);
    expect(byLeague.fixtures.every((f) => f.league === 'Paging')).toBe(true);
    const byTeam = await list('?team=hba');
    expect(byTeam.fixtures.length).toBeGreaterThan(0);
    expect(byTeam.fixtures.every((f) => f.homeTeam === 'HBA' || f.awayTeam === 'HBA')).toBe(true);
  });

  it('keeps the seeded fixtures and contractIds the same for the same seed', async () => {
    const other = await startSandbox({ rateLimits: false, seed: 1 });
    const third = await startSandbox({ rateLimits: false, seed: 2 });
    try {
      const a = (await allFixtures(other)).map((f) => f.contractId);
      const mine = (await allFixtures(sb))
        .filter((f) => f.league !== 'Paging')
        .map((f) => f.contractId);
      expect(mine).toEqual(a);
      const b = (await allFixtures(third)).map((f) => f.contractId);
      expect(b).not.toEqual(a);
    } finally {
      await other.close();
      await third.close();
    }
  });
});
