/**
 * The real sandbox exchange for the client's and governor's tests, started through the shared
 * harness (test/exchange/harness.ts): in-process, on a real socket, control API on. Not a mock:
 * the client under test talks HTTP to the same exchange the app runs in paper mode.
 */
import type { ExchangeAppOptions } from '../../../src/exchange/app.js';
import { startSandbox as startHarness, type Sandbox as Harness } from '../../exchange/harness.js';

export interface Sandbox {
  url: string;
  harness: Harness;
  /** Calls the control API (`path` under /sandbox); throws unless it answers 2xx. */
  control<T = unknown>(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** A fresh wallet with a key of the given permission. */
  newAccount(
    permission?: 'read' | 'trade',
  ): Promise<{ apiKey: string; secret: string; wallet: string }>;
  /** A fixture open for betting. */
  openFixture(): Promise<{ contractId: string; homeTeam: string; awayTeam: string }>;
  close(): Promise<void>;
}

export async function startSandbox(opts: ExchangeAppOptions = {}): Promise<Sandbox> {
  const harness = await startHarness({ blockMs: 50, ...opts });
  return {
    url: harness.url,
    harness,
    async control<T>(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
      const res = await harness.control<T>(method, `/sandbox${path}`, body);
      if (res.status >= 300) {
        throw new Error(`control ${method} ${path} answered ${res.status}: ${res.text}`);
      }
      return res.body;
    },
    async newAccount(permission = 'trade') {
      const key = await harness.newKey({ permission });
      return { apiKey: key.apiKey, secret: key.secret, wallet: key.wallet };
    },
    async openFixture() {
      const res = await harness.get<{
        fixtures: { contractId: string; homeTeam: string; awayTeam: string }[];
      }>('/fixtures?bettingOpen=true&limit=1');
      const f = res.body.fixtures[0];
      if (!f) throw new Error('the sandbox has no fixture open for betting');
      return { contractId: f.contractId, homeTeam: f.homeTeam, awayTeam: f.awayTeam };
    },
    close: () => harness.close(),
  };
}
