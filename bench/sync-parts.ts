/**
 * The app's own sync parts for one exchange account, as the benchmarks run them: the exchange
 * client behind a RateGovernor, a fresh store file in `dir` with the account in it, and the
 * SyncEngine on its default intervals.
 */
import path from 'node:path';
import { ExchangeClient } from '../src/main/client/index.js';
import { RateGovernor } from '../src/main/governor/index.js';
import { openStore, type Store } from '../src/main/store/index.js';
import { SyncEngine } from '../src/main/sync/index.js';

export interface SyncParts {
  governor: RateGovernor;
  client: ExchangeClient;
  store: Store;
  accountId: number;
  engine: SyncEngine;
}

export function openSyncParts(
  baseUrl: string,
  key: { apiKey: string; secret: string },
  wallet: string,
  dir: string,
): SyncParts {
  const governor = new RateGovernor();
  const client = new ExchangeClient({
    baseUrl,
    credentials: { apiKey: key.apiKey, secret: key.secret },
    account: wallet,
    governor,
  });
  const store = openStore(path.join(dir, 'betdesk.sqlite'));
  const accountId = store.accounts.create({ label: 'bench', baseUrl, apiKey: key.apiKey }).id;
  const engine = new SyncEngine({ client, store, accountId });
  return { governor, client, store, accountId, engine };
}
