/**
 * The betting desk on the bridge: placing, the order blotter, open positions, the alert centre
 * and the app-wide desk settings. Each works on the active account's session; reads come from
 * the store, so positions, orders and alerts show while the exchange is away.
 */
import { withSession, type Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { Store } from '../store/index.js';
import type { StoreReads } from '../store/read-worker.js';
import { readDeskSettings, writeDeskSettings } from './alert-settings.js';
import { entryRow, fixtureLookup } from './rows.js';

export type DeskChannel =
  | 'order:place'
  | 'orders:list'
  | 'orders:get'
  | 'orders:fixtures'
  | 'positions:list'
  | 'alerts:list'
  | 'alerts:read'
  | 'alerts:settings'
  | 'alerts:configure'
  | 'settings:get'
  | 'settings:set';

export interface DeskContext {
  store: Store;
  active: ActiveAccount;
  /** The store's read worker: where the heavy reads run. */
  reads: Pick<StoreReads, 'run'>;
}

export function deskFeature({ store, active, reads }: DeskContext): Handlers<DeskChannel> {
  return {
    'order:place': withSession(active, (s, input) => s.desk.place(input)),
    'orders:list': withSession(active, (s, filter) => {
      const page = store.blotter.page(s.accountId, filter);
      const fixture = fixtureLookup(store, s.accountId);
      const placing = (id: string) => s.trading.isPlacing(id);
      return {
        rows: page.entries.map((e) => entryRow(e, placing, fixture)),
        total: page.total,
        limit: page.limit,
        offset: page.offset,
      };
    }),
    'orders:get': withSession(active, (s, { clientOrderId }) => ({
      row: s.desk.row(clientOrderId),
    })),
    // On the read worker (reads.ts): a long order history never holds the main thread.
    'orders:fixtures': withSession(active, (s) =>
      reads.run('orderFixtures', { accountId: s.accountId }),
    ),
    'positions:list': withSession(active, (s) => s.positionsView()),
    'alerts:list': withSession(active, (s, query) => s.alerts.list(query)),
    'alerts:read': withSession(active, (s, input) => s.alerts.markRead(input)),
    'alerts:settings': withSession(active, (s) => s.alerts.settings()),
    'alerts:configure': withSession(active, (s, settings) => s.alerts.configure(settings)),
    'settings:get': () => Promise.resolve(readDeskSettings(store)),
    'settings:set': (change) => Promise.resolve(writeDeskSettings(store, change)),
  };
}
