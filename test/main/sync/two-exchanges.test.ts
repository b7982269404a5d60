/**
 * Two accounts on two sandbox exchanges, synced over HTTP into one store: the default seed
 * (paper's) and `--seed 7`, whose fixtures overlap in name (MUN v NEW on both, other
 * contractIds). Each account's store holds exactly its own exchange's fixtures and prices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../../src/main/client/index.js';
import type { Store } from '../../../src/main/store/index.js';
import { SyncEngine } from '../../../src/main/sync/index.js';
import type { Fixture } from '../../../src/shared/api/schemas.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { tempStore, type TempStore } from './helpers.js';

interface Side {
  sandbox: Sandbox;
  client: ExchangeClient;
  accountId: number;
  engine: SyncEngine;
}

let db: TempStore;
let paper: Side;
let seven: Side;

async function side(sandbox: Sandbox, store: Store, accountId?: number): Promise<Side> {
  const key = await sandbox.newAccount('read');
  const client = new ExchangeClient({
    baseUrl: sandbox.url,
    credentials: key,
    account: key.wallet,
  });
  const id =
    accountId ??
    store.accounts.create({ label: 'seed7', baseUrl: sandbox.url, apiKey: key.apiKey }).id;
  const engine = new SyncEngine({ client, store, accountId: id, streams: ['fixtures'] });
  return { sandbox, client, accountId: id, engine };
}

/** Every fixture the exchange lists, as GET /fixtures answers over HTTP. */
async function listed(s: Side): Promise<Fixture[]> {
  const out: Fixture[] = [];
  for (;;) {
    const page = await s.client.fixtures({ limit: 100, offset: out.length });
    out.push(...page.fixtures);
    if (page.fixtures.length === 0 || out.length >= page.total) return out;
  }
}

const stored = (s: Side, filter = {}) =>
  db.store.fixtures.list(s.accountId, { limit: 1000, ...filter }).fixtures;
const byId = (fs: Fixture[]) => [...fs].sort((a, b) => a.contractId.localeCompare(b.contractId));
const names = (fs: Fixture[]) => fs.map((f) => `${f.homeTeam} v ${f.awayTeam}`);

beforeAll(async () => {
  const one = await startSandbox({ blockMs: 50 });
  const other = await startSandbox({ blockMs: 50, seed: 7 });
  const key = await one.newAccount('read');
  db = tempStore(key.apiKey, one.url);
  paper = await side(one, db.store, db.accountId);
  seven = await side(other, db.store);
});

afterAll(async () => {
  for (const s of [paper, seven]) {
    await s.engine.stop();
    await s.client.close();
    await s.sandbox.close();
  }
  db.cleanup();
});

describe('two exchanges synced into one store', () => {
  it('keeps each account’s fixtures to its own exchange’s, though their names overlap', async () => {
    await paper.engine.syncOnce();
    await seven.engine.syncOnce();

    expect(byId(stored(paper))).toEqual(byId(await listed(paper)));
    expect(byId(stored(seven))).toEqual(byId(await listed(seven)));
    // The overlap the two seeds have: MUN v NEW on both, each its own contract.
    const munNew = (s: Side) => stored(s, { team: 'MUN' }).filter((f) => f.awayTeam === 'NEW');
    expect(names(munNew(paper))).toEqual(['MUN v NEW']);
    expect(names(munNew(seven))).toEqual(['MUN v NEW']);
    expect(munNew(paper)[0]!.contractId).not.toBe(munNew(seven)[0]!.contractId);
    expect(seven.engine.cache.fixtures({ limit: 1000 }).total).toBe((await listed(seven)).length);
  });

  it('moves a price on one exchange without showing it on the other', async () => {
    const vgkTor = stored(paper, { team: 'VGK' }).find((f) => f.awayTeam === 'TOR')!;
    expect(vgkTor).toBeDefined();
    paper.sandbox.domain.setPrice(vgkTor.contractId, 'VGK', '0.07');
    await paper.engine.syncNow('fixtures');
    await seven.engine.syncNow('fixtures');

    expect(db.store.fixtures.get(paper.accountId, vgkTor.contractId)?.homePrice).toBe('0.0700');
    expect(db.store.fixtures.get(seven.accountId, vgkTor.contractId)).toBeUndefined();
    expect(names(stored(seven))).not.toContain('VGK v TOR');
    expect(byId(stored(seven))).toEqual(byId(await listed(seven)));
    // Each list is dated by its own account's sync.
    const paperRead = db.store.cursors.get(paper.accountId, 'fixtures');
    const sevenRead = db.store.cursors.get(seven.accountId, 'fixtures');
    expect(paper.engine.cache.fixtures().syncedAt).toBe(paperRead?.lastSyncAt);
    expect(seven.engine.cache.fixtures().syncedAt).toBe(sevenRead?.lastSyncAt);
  });
});
