/**
 * The renderer's composition root: every state object, wired to one bridge and to each other.
 * main.ts builds it over the real bridge and hands it to the components through Svelte context
 * (`useRoot`); a test builds it over an in-memory bridge, and mounts any component with it.
 *
 * A state class shows what it holds as public `$state` fields and what follows from them as
 * `$derived` fields; a `#private` field behind a getter means writing it must do more (re-query,
 * tell listeners, move with other fields), and says so beside it. Loaders are public (`reads`).
 */
import { getContext } from 'svelte';
import type { PositionRow } from '../../../shared/ipc/contract.js';
import type { Bridge } from './bridge.js';
import { copyText } from './clipboard.js';
import { startDownload } from './download.js';
import { AccountsState } from './state/accounts.svelte.js';
import { AlertsState } from './state/alerts.svelte.js';
import { Announcer } from './state/announcer.svelte.js';
import { AppState } from './state/app.svelte.js';
import { TickingClock } from './state/clock.svelte.js';
import { ExportsState, type StartDownload } from './state/exports.svelte.js';
import { GuardLogState } from './state/guard-log.svelte.js';
import { GuardsState } from './state/guards.svelte.js';
import { HistorySyncState } from './state/history-sync.svelte.js';
import { HistoryState } from './state/history.svelte.js';
import { MarketsState } from './state/markets.svelte.js';
import { NavigationState } from './state/navigation.svelte.js';
import { Notifier, type NotificationPort } from './state/notifier.svelte.js';
import { OrdersState } from './state/orders.svelte.js';
import { PortfolioState } from './state/portfolio.svelte.js';
import { PositionsState, positionKey } from './state/positions.svelte.js';
import { PracticeState, type PracticeFixture } from './state/practice.svelte.js';
import { SettingsState } from './state/settings.svelte.js';
import { SlipState } from './state/slip.svelte.js';
import { StartState } from './state/start.svelte.js';
import { SupportState } from './state/support.svelte.js';
import { ToastsState } from './state/toasts.svelte.js';
import { webNotifications } from './web-notifications.js';

/** What the root reaches outside the bridge: the browser's clipboard, downloads, notices. */
export interface RootPorts {
  copy: (text: string) => Promise<boolean>;
  download: StartDownload;
  notifications: NotificationPort;
}

export type Root = ReturnType<typeof createRoot>;

function practiceFixtureOf(p: PositionRow): PracticeFixture | null {
  return p.fixture
    ? {
        contractId: p.contractId,
        homeTeam: p.fixture.homeTeam,
        awayTeam: p.fixture.awayTeam,
        outcome: p.outcome,
        held: true,
      }
    : null;
}

/** Every state object over `bridge`; nothing runs until `start()`. */
export function createRoot(bridge: Bridge, ports: Partial<RootPorts> = {}) {
  const { copy = copyText, download = startDownload } = ports;
  const notifications = ports.notifications ?? webNotifications();

  /** Ticks four times a second: quote countdowns and "updated 3 s ago". */
  const clock = new TickingClock();
  const app = new AppState(bridge);
  const accounts = new AccountsState(bridge, app);
  const markets = new MarketsState(bridge);
  /** The start screen's state: covers the desk until the markets (or the services) are there. */
  const starting = new StartState(bridge, clock, {
    get shown() {
      return markets.page !== null;
    },
  });
  const settings = new SettingsState(bridge);
  const positions = new PositionsState(bridge, clock);
  const orders = new OrdersState(bridge);
  const alerts = new AlertsState(bridge);
  const guards = new GuardsState(bridge);
  /** The guardian log screen's list: read while that screen shows (it starts it). */
  const guardLog = new GuardLogState(bridge);
  const history = new HistoryState(bridge);
  const historySync = new HistorySyncState(bridge);
  const csvExport = new ExportsState(bridge, download);
  const toasts = new ToastsState();
  const announcer = new Announcer();
  const nav = new NavigationState(bridge, positions, history);
  const support = new SupportState(bridge, copy);
  const portfolio = new PortfolioState(
    bridge,
    {
      app,
      accounts,
      nav,
      get staleAfterMs() {
        return positions.view?.staleAfterMs ?? null;
      },
    },
    clock,
  );

  const slip = new SlipState(
    bridge,
    {
      get canTrade() {
        return app.canTrade;
      },
      get online() {
        return app.online;
      },
      get connected() {
        return app.connected;
      },
      get oneClick() {
        return settings.oneClickBetting;
      },
      get positions() {
        return positions.all;
      },
      fixture: (contractId) =>
        markets.fixture(contractId) ??
        positions.all.find((p) => p.contractId === contractId)?.fixture ??
        null,
    },
    clock,
  );

  const practice = new PracticeState(
    bridge,
    {
      get fixtures() {
        const out: PracticeFixture[] = [];
        const add = (f: PracticeFixture | null) => {
          if (f && !out.some((o) => o.contractId === f.contractId)) out.push(f);
        };
        const selected = positions.selectedRow;
        if (selected) add(practiceFixtureOf(selected));
        for (const p of positions.all) add(practiceFixtureOf(p));
        const s = slip.selection;
        if (s?.fixture) {
          const { homeTeam, awayTeam } = s.fixture;
          add({ contractId: s.contractId, homeTeam, awayTeam, outcome: s.outcome });
        }
        for (const f of markets.page?.fixtures ?? []) add(f);
        return out;
      },
      get positions() {
        return positions.all;
      },
      indexPrice(contractId, outcome) {
        const f = markets.fixture(contractId);
        if (!f) return null;
        return outcome === f.homeTeam ? f.homePrice : f.awayPrice;
      },
      get alertLevels() {
        return alerts.settings?.levels ?? null;
      },
    },
    clock,
  );

  const notifier = new Notifier(
    bridge,
    notifications,
    toasts,
    announcer,
    {
      get host() {
        return app.info?.host ?? null;
      },
    },
    (alert, onScreen) =>
      !onScreen
        ? nav.show({ screen: 'alerts' })
        : alert.kind === 'rejected'
          ? nav.show({ screen: 'orders' })
          : nav.show({ screen: 'positions', contractId: alert.contractId, outcome: alert.outcome }),
  );

  /** Shows a position: from a toast's button, or a clicked notification. */
  function showPosition(contractId: string, outcome: string): void {
    nav.show({ screen: 'positions', contractId, outcome });
  }

  /** Picks a row on the positions screen: the Practice panel follows it. */
  function selectPosition(row: PositionRow): void {
    positions.selected = positionKey(row);
    practice.follow(row.contractId, row.outcome);
  }

  /** Starts every subscription and the first reads; returns the function that stops them. */
  function start(): () => void {
    const stops = [
      clock.start(250),
      starting.start(),
      app.start(),
      markets.start(),
      positions.start(),
      orders.start(),
      alerts.start(),
      guards.start(),
      history.start(),
      portfolio.start(),
      historySync.start(),
      historySync.onEnd(() => history.refresh()),
      historySync.onEnd(() => announcer.announce(historySync.words ?? '')),
      csvExport.start(),
      csvExport.onEnd(() => announcer.announce(csvExport.words ?? '')),
      slip.start(),
      notifier.start(),
      nav.start(),
      // Pushes missed while Betdesk's own service was away: read everything again.
      app.onReconnect(() => {
        void markets.load();
        void positions.load();
        void orders.load();
        void orders.loadTotals();
        void alerts.load();
        void guards.load();
        guardLog.refresh();
        void historySync.load();
        history.refresh();
        portfolio.refresh();
      }),
      app.onModeChange(() => {
        slip.clear();
        positions.reset();
        orders.reset();
        alerts.reset();
        guards.reset();
        guardLog.reset();
        history.reset();
        historySync.reset();
        practice.reset();
        void markets.filter();
        void accounts.load();
      }),
    ];
    void settings.load();
    void accounts.load();
    return () => {
      for (const stop of stops) stop();
    };
  }

  return {
    clock,
    starting,
    app,
    accounts,
    markets,
    settings,
    positions,
    orders,
    alerts,
    guards,
    guardLog,
    history,
    portfolio,
    historySync,
    csvExport,
    toasts,
    announcer,
    nav,
    support,
    slip,
    practice,
    notifier,
    showPosition,
    selectPosition,
    start,
  };
}

const ROOT = Symbol('betdesk root');

/** The context `mount` takes so that the app, or one component under test, reads `root`. */
export function rootContext(root: Root): Map<symbol, Root> {
  return new Map([[ROOT, root]]);
}

/** The root, from a component's context (`const { slip } = useRoot()`, at the top of <script>). */
export function useRoot(): Root {
  const root = getContext<Root | undefined>(ROOT);
  if (!root) throw new Error('Betdesk: mount with rootContext(createRoot(bridge)) first.');
  return root;
}
