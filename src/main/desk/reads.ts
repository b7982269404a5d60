/**
 * The desk's heavy reads, run on the store's read worker (src/main/store/README.md, "Heavy
 * reads"): the fixtures the Orders screen's filter offers, named and sorted, are a read over
 * every order the account ever placed (0.1–0.2 s on the main thread for 14,600 fixtures).
 */
import type { OrderFixtures } from '../../shared/ipc/contract.js';
import type { ReadableStore } from '../store/index.js';
import { fixtureName } from './rows.js';

/** Every fixture the account's orders name, with its name, sorted by name. */
export function orderFixtures(
  store: ReadableStore,
  { accountId }: { accountId: number },
): OrderFixtures {
  const fixtures = store.blotter
    .contracts(accountId)
    .map((contractId) => ({ contractId, name: fixtureName(store, accountId, contractId) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { fixtures };
}
