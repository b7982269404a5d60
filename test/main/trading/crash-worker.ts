/**
 * The child process of the crash test: it opens the store, reconciles its open intents, syncs,
 * checks that the store matches the exchange (printing the result), then places and syncs
 * orders in a loop until it is killed. One JSON line per event on standard output.
 *
 * Environment: BETDESK_CRASH_URL, BETDESK_CRASH_KEY, BETDESK_CRASH_SECRET, BETDESK_CRASH_DB,
 * BETDESK_CRASH_FIXTURES (contractId:team,contractId:team,...).
 */
import { ExchangeClient } from '../../../src/main/client/index.js';
import { openStore } from '../../../src/main/store/index.js';
import { TradingService } from '../../../src/main/trading/index.js';
import { compareWithExchange, syncOrders, untilOrdersFinal } from './converge.js';

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

function say(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

const baseUrl = env('BETDESK_CRASH_URL');
const apiKey = env('BETDESK_CRASH_KEY');
const fixtures = env('BETDESK_CRASH_FIXTURES')
  .split(',')
  .map((s) => {
    const [contractId = '', outcome = ''] = s.split(':');
    return { contractId, outcome };
  });

const store = openStore(env('BETDESK_CRASH_DB'));
const account =
  store.accounts.getByLabel('crash') ??
  store.accounts.create({ label: 'crash', baseUrl, apiKey, permission: 'trade' });
const client = new ExchangeClient({
  baseUrl,
  credentials: { apiKey, secret: env('BETDESK_CRASH_SECRET') },
  clockSync: { samples: 1 },
});
const trading = new TradingService({
  client,
  store,
  accountId: account.id,
  placement: { backoff: { initialMs: 10, maxMs: 100 } },
  polling: { initialMs: 10, maxMs: 50, timeoutMs: 5000 },
});

const report = await trading.reconcileOpenIntents();
// Reconciliation alone must get every intent right; the sync then brings the orders up to date.
say({
  event: 'reconciled',
  placed: report.placed.length,
  notPlaced: report.notPlaced.length,
  unknown: report.unknown.length,
  check: await compareWithExchange(store, account.id, client, 'reconciled'),
});
// Orders the last process placed finish within a block (20 ms); then the comparison is exact.
await untilOrdersFinal(client);
await syncOrders(store, account.id, client);
say({ event: 'checked', ...(await compareWithExchange(store, account.id, client)) });

for (let n = 0; ; n++) {
  const f = fixtures[n % fixtures.length]!;
  const bet = { contractId: f.contractId, outcome: f.outcome, side: 'BUY', qty: '1', unit: 'BASE' };
  const kind = n % 5;
  const out =
    kind === 0
      ? await trading.trade(bet)
      : await trading.placeOrder(kind === 3 ? { ...bet, type: 'FOK' } : bet);
  say({ event: 'placed', n, status: out.status });
  if (n % 3 === 2) await syncOrders(store, account.id, client);
}
