/**
 * The betting desk's services for the bridge: placing, the blotter (with its totals), positions,
 * the alert centre, app-wide settings and practice. Each works on the active account's session;
 * reads come from the store, so positions, orders and alerts show while the exchange is away.
 */
import type { OrderFixtures, OrderPage } from '../../shared/ipc/contract.js';
import { markNoticeShown, readDeskSettings, writeDeskSettings } from './alert-settings.js';
import { practiceService } from '../practice/feature.js';
import { entryRow, fixtureLookup, fixtureName } from './rows.js';
import type {
  AlertsService,
  OrdersService,
  PositionsService,
  PracticeService,
  SettingsService,
  TradingDeskService,
} from '../ipc/services.js';
import type { Store } from '../store/index.js';
import type { ActiveAccount } from '../root/active.js';
import { sessionPositions } from '../root/events.js';
import { orderTotals } from '../history/feature.js';
import type { PaperMode } from '../practice/paper.js';
import { refusing } from '../app/refusals.js';

export interface DeskContext {
  store: Store;
  active: ActiveAccount;
  /** Practice drives the paper exchange, once paper mode has started. */
  paper: PaperMode;
}

export interface DeskServices {
  trading: TradingDeskService;
  orders: OrdersService;
  positions: PositionsService;
  alerts: AlertsService;
  settings: SettingsService;
  practice: PracticeService;
}

export function deskServices(ctx: DeskContext): DeskServices {
  const { store, active, paper } = ctx;
  const started = () => active.started();
  return {
    trading: {
      place: (input) => refusing(async () => (await started()).desk.place(input)),
    },
    orders: {
      async list(filter): Promise<OrderPage> {
        const s = await started();
        const page = store.blotter.page(s.accountId, filter);
        const fixture = fixtureLookup(store, s.accountId);
        const placing = (id: string) => s.trading.isPlacing(id);
        return {
          rows: page.entries.map((e) => entryRow(e, placing, fixture)),
          total: page.total,
          limit: page.limit,
          offset: page.offset,
        };
      },
      async get(clientOrderId) {
        return (await started()).desk.row(clientOrderId);
      },
      async fixtures(): Promise<OrderFixtures> {
        const s = await started();
        const fixtures = store.blotter
          .contracts(s.accountId)
          .map((contractId) => ({ contractId, name: fixtureName(store, s.accountId, contractId) }))
          .sort((a, b) => a.name.localeCompare(b.name));
        return { fixtures };
      },
      totals: orderTotals({ store, started }),
    },
    positions: {
      view: async () => sessionPositions(await started(), store),
    },
    alerts: {
      list: async (query) => (await started()).alerts.list(query),
      markRead: async (input) => (await started()).alerts.markRead(input),
      summary: async () => (await started()).alerts.summary(),
      settings: async () => (await started()).alerts.settings(),
      configure: async (settings) => (await started()).alerts.configure(settings),
    },
    settings: {
      get: () => Promise.resolve(readDeskSettings(store)),
      set: (change) => Promise.resolve(writeDeskSettings(store, change)),
      markNoticeShown: (notice) => Promise.resolve(markNoticeShown(store, notice)),
    },
    practice: practiceService({
      store,
      session: started,
      controls: () => paper.controls(),
    }),
  };
}
