/**
 * Exactly once under faults (docs/guardians.md): the guardian's close meets what the sandbox
 * injects on POST /order (docs/sandbox.md, "The control API"): an answer later than the client
 * waits, 5xx refusals the API calls retryable, a dropped connection after the order was taken.
 * Each time the exchange must hold ONE close of the position, filled, and the rule be closed:
 * the trading path looks the order up by its clientOrderId before any resend.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, trackPlacements, type Sandbox } from '../../exchange/harness.js';
import { until } from '../../harness/wait.js';
import { tempDir } from '../trading/support.js';
import { openGuardDesk } from './crash-desk.js';
import {
  exchangeOrders,
  guardedPosition,
  heldOnExchange,
  HELD,
  priceFalls,
} from './crash-setup.js';

/** The client gives up on an answer after this long; a latency fault waits longer. */
const CLIENT_TIMEOUT_MS = 300;

let sandbox: Sandbox;
let placements: { pending(): number };
let dir: { dir: string; cleanup: () => void };

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
  placements = trackPlacements(sandbox.domain);
  dir = tempDir('betdesk-guard-faults-');
});

afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

const FAULTS = [
  { name: 'an answer later than the client waits', mode: 'latency', ms: 1200, count: 2 },
  { name: 'a dropped connection', mode: 'drop', count: 2 },
  { name: '-5002 (HTTP 5xx)', mode: 'error', code: -5002, count: 3 },
  { name: '-5003 (HTTP 5xx)', mode: 'error', code: -5003, count: 3 },
] as const;

describe('a guardian closing while POST /order fails', () => {
  for (const [i, f] of FAULTS.entries()) {
    it(`closes once through ${f.name}`, async () => {
      const g = await guardedPosition(sandbox, path.join(dir.dir, `faults-${i}.sqlite`));
      const { name: _name, ...fault } = f;
      await sandbox.admin('POST', '/faults', { route: 'POST /order', ...fault });
      const desk = openGuardDesk({
        ...g.desk,
        client: { timeouts: { headersMs: CLIENT_TIMEOUT_MS, bodyMs: CLIENT_TIMEOUT_MS } },
        trading: {
          placement: {
            attempts: 12,
            timeoutMs: CLIENT_TIMEOUT_MS,
            backoff: { initialMs: 20, maxMs: 200 },
          },
          polling: { initialMs: 20, maxMs: 100, timeoutMs: 20_000 },
        },
      });
      try {
        await priceFalls(sandbox, g.fixture);
        desk.engine.start();
        desk.guardian.start();
        await until('the rule has ended', () => {
          const s = desk.store.guards.get(g.ruleId)?.state;
          return s !== 'armed' && s !== 'firing';
        });
        await desk.guardian.idle();
        const rule = desk.store.guards.get(g.ruleId)!;
        expect(rule.state, rule.reason ?? '').toBe('closed');
        await until('no placement is held inside the exchange', () => placements.pending() === 0);
        const { sells } = await exchangeOrders(sandbox, g);
        expect(sells).toHaveLength(1);
        expect(sells[0]).toMatchObject({
          clientOrderId: rule.clientOrderId,
          status: 'FILLED',
          contracts: HELD,
        });
        expect(await heldOnExchange(sandbox, g)).toBe(0);
        const log = desk.store.guards.logPage(desk.accountId, { ruleId: g.ruleId }).rows;
        expect(log.filter((r) => r.event === 'fired')).toHaveLength(1);
        expect(log.filter((r) => r.event === 'filled')).toHaveLength(1);
      } finally {
        await sandbox.admin('DELETE', '/faults');
        await desk.close();
      }
    }, 60_000);
  }
});
