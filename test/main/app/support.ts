/**
 * The app's services as the app tests run them: on a temp data directory, with a keychain
 * service of the test file's own, every push event recorded. A stop followed by a start is a
 * restart on the same directory; cleanup() (after each test, or all) stops what runs and
 * removes the directory, so the next start begins with an empty store.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../../../src/main/root/services.js';
import type {
  Account,
  BetTerms,
  Fixture,
  IpcEvent,
  OrderRow,
  PlaceOrder,
} from '../../../src/shared/ipc/contract.js';
import type { Sandbox } from '../../exchange/harness.js';
import { until } from '../../harness/wait.js';
import { dec } from '../../../src/shared/money.js';

export interface Seen {
  event: IpcEvent;
  payload: unknown;
}

/** A MARKET placement of 2 contracts on the home team, unless `over` says otherwise. */
export function marketBet(
  f: Pick<Fixture, 'contractId' | 'homeTeam'>,
  over: Partial<BetTerms> & { clientOrderId: string },
): PlaceOrder {
  const { clientOrderId, ...bet } = over;
  return {
    clientOrderId,
    type: 'MARKET',
    bet: {
      contractId: f.contractId,
      outcome: f.homeTeam,
      side: 'BUY',
      qty: '2',
      unit: 'BASE',
      boost: 0,
      ...bet,
    },
  };
}

export class AppHarness {
  readonly keychainService: string;
  readonly #name: string;
  readonly #running: AppServices[] = [];
  #dir: string | undefined;

  /** `name` tells this file's directories and keychain entries from the others'. */
  constructor(name: string) {
    this.#name = name;
    this.keychainService = `Betdesk-test-${name}-${randomBytes(4).toString('hex')}`;
  }

  /** The data directory of this test (made on first use). */
  get dir(): string {
    this.#dir ??= mkdtempSync(join(tmpdir(), `betdesk-${this.#name}-`));
    return this.#dir;
  }

  async start(
    opts: { clockMarginMs?: number } = {},
  ): Promise<{ services: AppServices; seen: Seen[] }> {
    const services = await createAppServices({
      dataDir: this.dir,
      host: 'browser',
      keychainService: this.keychainService,
      versions: { app: 'test', node: process.versions.node, electron: null, chrome: null },
      ...opts,
    });
    this.#running.push(services);
    return { services, seen: record(services) };
  }

  /** Quits one run as the app does; a start after it is a restart. */
  async stop(services: AppServices): Promise<void> {
    await services.stop();
    this.#running.splice(this.#running.indexOf(services), 1);
  }

  readonly cleanup = async (): Promise<void> => {
    for (const s of this.#running.splice(0)) await s.stop();
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  };
}

/** Every push event the services send from now on. */
export function record(services: AppServices): Seen[] {
  const seen: Seen[] = [];
  services.events.subscribe((event, payload) => seen.push({ event, payload }));
  return seen;
}

/**
 * A live account with a trade key on `sandbox`, added through the bridge (its secret goes to the
 * keychain).
 */
export async function addLiveAccount(
  services: AppServices,
  sandbox: Sandbox,
  label = 'Live desk',
): Promise<Account> {
  const key = await sandbox.newAccount('trade');
  return services.call('accounts:add', {
    label,
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    secret: key.secret,
  });
}

/** An open fixture whose home price leaves room to move both ways (fixtures of the screen's account). */
export async function midFixture(services: AppServices): Promise<Fixture> {
  const all = { openOnly: true, limit: 100, offset: 0 };
  await waitFor(
    () => services.call('fixtures:list', all),
    (page) => page.total > 2,
    'the open fixtures',
  );
  const { fixtures } = await services.call('fixtures:list', all);
  const f = fixtures.find((x) => dec(x.homePrice).gte('0.35') && dec(x.homePrice).lte('0.65'));
  return f ?? fixtures[0]!;
}

/** What `read` answers once `ok` takes it, polled every 100 ms for up to a minute. */
export async function waitFor<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  what: string,
): Promise<T> {
  let last: T | undefined;
  await until(what, async () => ok((last = await read())), 60_000, 100);
  return last as T;
}

/**
 * Paper mode driven as a user would at the desk (docs/pnl.md's tests): the open fixtures, the
 * index of a fixture's home team set through the practice controls, MARKET orders on it waited
 * for until FILLED.
 */
export class PaperDesk {
  readonly services: AppServices;
  fixtures: Fixture[] = [];
  #bets = 0;

  constructor(services: AppServices) {
    this.services = services;
  }

  /** Waits for the seeded fixtures; call once before the tests. */
  async open(): Promise<this> {
    const all = { openOnly: true, limit: 100, offset: 0 };
    const page = await waitFor(
      () => this.services.call('fixtures:list', all),
      (p) => p.total > 3,
      'fixtures',
    );
    this.fixtures = page.fixtures;
    return this;
  }

  /** The index of the fixture's home team set to `indexPrice`. */
  price(f: Fixture, indexPrice: string) {
    return this.services.call('practice:price', {
      contractId: f.contractId,
      outcome: f.homeTeam,
      indexPrice,
    });
  }

  /** A MARKET order on the home team, filled and synced. */
  async market(f: Fixture, side: 'BUY' | 'SELL', qty: string, boost = 0): Promise<OrderRow> {
    const id = `bd-paper-${Date.now().toString(36)}-${++this.#bets}`;
    await this.services.call('order:place', {
      clientOrderId: id,
      type: 'MARKET',
      bet: { contractId: f.contractId, outcome: f.homeTeam, side, qty, unit: 'BASE', boost },
    });
    return waitFor(
      () => this.services.call('orders:get', { clientOrderId: id }).then((r) => r.row!),
      (r) => r?.status === 'FILLED',
      `${id} filled`,
    );
  }
}
