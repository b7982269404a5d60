/** Clock offset against the real sandbox: its clock moved forward, or ours set back. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../../src/main/client/index.js';
import type { Logger } from '../../../src/shared/log.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';

let sandbox: Sandbox;
const clients: ExchangeClient[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50 });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});

function warnings(lines: string[]): Logger {
  return { debug: () => {}, info: () => {}, warn: (msg) => lines.push(msg) };
}

async function client(
  extra: Partial<ConstructorParameters<typeof ExchangeClient>[0]> = {},
): Promise<ExchangeClient> {
  const account = await sandbox.newAccount('read');
  const c = new ExchangeClient({
    baseUrl: sandbox.url,
    credentials: { apiKey: account.apiKey, secret: account.secret },
    ...extra,
  });
  clients.push(c);
  return c;
}

describe('the exchange clock', () => {
  it('measures a near-zero offset against an exchange on this machine', async () => {
    const c = await client();
    const { offsetMs } = await c.syncClock();
    expect(Math.abs(offsetMs)).toBeLessThan(1000);
    expect(c.clockOffsetMs).toBe(offsetMs);
  });

  it('recovers when the exchange clock jumps 30 s ahead: no -1021 reaches the caller', async () => {
    const lines: string[] = [];
    const c = await client({ logger: warnings(lines) });
    await c.positions();
    const before = c.clockOffsetMs;

    await sandbox.admin('POST', '/clock', { advanceMs: 30_000 });
    // Signed with the old offset, refused with -1021, re-synchronised and re-signed once.
    const positions = await c.positions();
    expect(positions.positions).toEqual([]);
    expect(lines.filter((l) => l.includes('timestamp refused'))).toHaveLength(1);
    expect(c.clockOffsetMs - before).toBeGreaterThan(29_000);
    expect(c.clockOffsetMs - before).toBeLessThan(31_000);
  });

  it('signs with the exchange time when the local clock runs 30 s behind', async () => {
    const lines: string[] = [];
    const c = await client({ clock: () => Date.now() - 30_000, logger: warnings(lines) });
    const quote = await c.orders({ limit: 1 });
    expect(quote.limit).toBe(1);
    // The first sync measured the skew: nothing was refused.
    expect(lines).toEqual([]);
    const exchangeNow = (await c.time()).serverTime;
    expect(Math.abs(c.serverNow() - exchangeNow)).toBeLessThan(1000);
  });

  it('re-synchronises on its own once the re-sync period has passed', async () => {
    let localSkew = 0;
    const lines: string[] = [];
    const c = await client({
      clock: () => Date.now() + localSkew,
      clockSync: { samples: 3, resyncMs: 60_000 },
      logger: warnings(lines),
    });
    await c.settlements();
    const first = c.clockOffsetMs;
    // Our clock jumps 2 minutes ahead: past the re-sync period, and far outside the window.
    localSkew = 120_000;
    await c.settlements();
    expect(lines).toEqual([]);
    expect(first - c.clockOffsetMs).toBeGreaterThan(119_000);
  });
});
