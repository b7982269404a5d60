/**
 * The alert centre: near-knockout and knocked-out alerts, fills and rejections, newest first,
 * kept in main's store; the unread count for the navigation; and the account's alert settings,
 * which main applies to the running knockout watch as soon as they are saved.
 */
import type {
  AccountAlertCounts,
  AlertKind,
  AlertSettings,
  AlertsSummary,
  AlertView,
} from '../../../../shared/ipc/contract.js';
import { fractionToPercent, percentToFraction } from '../../../../shared/rules/percent.js';
import { cmp } from '../../../../shared/money.js';
import { messageOf, type Bridge } from '../bridge.js';
import { Loader } from './loader.svelte.js';
import { PageWindow } from './page-window.svelte.js';

export const ALERTS_PAGE_SIZE = 100;
export const MAX_LEVELS = 5;

/** "10, 5, 2" -> ["0.1", "0.05", "0.02"]: deepest last, no repeats; or why not. */
export function parseLevels(text: string): { levels: string[] } | { problem: string } {
  const parts = text
    .split(/[,;\s]+/)
    .map((p) => p.replace(/%$/, ''))
    .filter((p) => p !== '');
  if (parts.length === 0) return { problem: 'Enter at least one level, like 10, 5, 2.' };
  const levels: string[] = [];
  for (const part of parts) {
    const fraction = percentToFraction(part);
    if (fraction === null) {
      return {
        problem: `“${part}” is not a level: use percentages between 0 and 100 with at most two decimals, like 10, 5, 2.`,
      };
    }
    if (!levels.some((l) => cmp(l, fraction) === 0)) levels.push(fraction);
  }
  if (levels.length > MAX_LEVELS) return { problem: `At most ${MAX_LEVELS} levels.` };
  levels.sort((a, b) => cmp(b, a));
  return { levels };
}

export class AlertsState {
  /** The page shown, newest first. */
  alerts = $state.raw<AlertView[]>([]);
  /** Alerts the filter matches, on every page. */
  total = $state(0);
  #unreadOnly = $state(false);
  summary = $state.raw<AlertsSummary | null>(null);
  /** The page's reads; its error also tells when marking read failed. */
  readonly reads = new Loader();
  settings = $state.raw<AlertSettings | null>(null);
  settingsError = $state<string | null>(null);
  settingsNotice = $state<string | null>(null);
  /** New settings are on their way to main. */
  saving = $state(false);
  readonly unread: number = $derived(this.summary?.unread ?? 0);
  readonly unreadDanger: number = $derived(this.summary?.unreadDanger ?? 0);
  /** The other watched accounts with something unread or near its knockout (they are watched
   *  too: their alerts come in while another account is on screen). */
  readonly elsewhere: AccountAlertCounts[] = $derived(
    (this.summary?.everyAccount ?? []).filter(
      (a) => a.accountId !== this.summary?.accountId && (a.unread > 0 || a.nearKnockout > 0),
    ),
  );
  /** The levels as people read them: "10, 5, 2". */
  readonly levelsText: string = $derived(
    (this.settings?.levels ?? []).map(fractionToPercent).join(', '),
  );
  readonly marginText: string = $derived(
    this.settings ? fractionToPercent(this.settings.margin) : '',
  );
  /** Where the page stands; it moves through `next`, `previous` and a filter change. */
  readonly paging: PageWindow;
  readonly #bridge: Bridge;

  constructor(bridge: Bridge, pageSize = ALERTS_PAGE_SIZE) {
    this.#bridge = bridge;
    this.paging = new PageWindow(pageSize, () => this.total);
  }

  /** A filter change goes back to the first page. */
  get unreadOnly(): boolean {
    return this.#unreadOnly;
  }
  set unreadOnly(value: boolean) {
    this.#unreadOnly = value;
    this.paging.reset();
    void this.load();
  }

  /** Follows `alert:raised` and `alerts:changed`; returns the function that stops. */
  start(): () => void {
    const stops = [
      this.#bridge.on('alert:raised', ({ alert, summary }) => {
        this.summary = summary;
        this.#addToFirstPage(alert);
      }),
      this.#bridge.on('alerts:changed', (summary) => {
        this.summary = summary;
      }),
    ];
    void this.load();
    void this.loadSettings();
    return () => stops.forEach((stop) => stop());
  }

  async load(): Promise<void> {
    const filter = {
      ...(this.#unreadOnly ? { unreadOnly: true } : {}),
      limit: this.paging.size,
      offset: this.paging.offset,
    };
    await this.reads.run(
      () => this.#bridge.invoke('alerts:list', filter),
      (page) => {
        this.alerts = page.alerts;
        this.total = page.total;
        this.summary = page.summary;
      },
    );
  }

  async next(): Promise<void> {
    if (this.paging.forward()) await this.load();
  }

  async previous(): Promise<void> {
    if (this.paging.back()) await this.load();
  }

  async markRead(ids: number[]): Promise<void> {
    const unread = ids.filter((id) => this.alerts.some((a) => a.id === id && !a.read));
    if (unread.length === 0) return;
    await this.#markRead({ ids: unread }, (a) => unread.includes(a.id));
  }

  async markAllRead(): Promise<void> {
    await this.#markRead({ all: true }, () => true);
  }

  async loadSettings(): Promise<void> {
    try {
      this.settings = await this.#bridge.invoke('alerts:settings', {});
      this.settingsError = null;
    } catch (err) {
      this.settingsError = messageOf(err);
    }
  }

  /** Saves new levels typed as percentages ("10, 5, 2"); says why when they are not levels. */
  async setLevels(text: string): Promise<boolean> {
    const parsed = parseLevels(text);
    if ('problem' in parsed) {
      this.settingsError = parsed.problem;
      this.settingsNotice = null;
      return false;
    }
    return this.#configure({ levels: parsed.levels });
  }

  /** Saves the margin typed as a percentage ("1"). */
  async setMargin(text: string): Promise<boolean> {
    const margin = percentToFraction(text);
    if (margin === null) {
      this.settingsError =
        'The margin is a percentage between 0 and 100 with at most two decimals, like 1.';
      this.settingsNotice = null;
      return false;
    }
    return this.#configure({ margin });
  }

  async setNotify(kind: AlertKind, on: boolean): Promise<boolean> {
    const current = this.settings;
    if (!current) return false;
    return this.#configure({ notify: { ...current.notify, [kind]: on } });
  }

  /** Another account: its alerts and its settings. */
  reset(): void {
    this.alerts = [];
    this.total = 0;
    this.paging.reset();
    this.summary = null;
    this.settings = null;
    void this.load();
    void this.loadSettings();
  }

  /** An alert of the account on screen joins the list; another account's is counted above. */
  #addToFirstPage(alert: AlertView): void {
    if (alert.accountId !== this.summary?.accountId) return;
    if (this.paging.offset !== 0 || this.alerts.some((a) => a.id === alert.id)) return;
    this.total += 1;
    this.alerts = [alert, ...this.alerts].slice(0, this.paging.size);
  }

  async #markRead(
    input: { ids: number[] } | { all: true },
    which: (a: AlertView) => boolean,
  ): Promise<void> {
    const before = this.alerts;
    this.alerts = before.map((a) => (which(a) && !a.read ? { ...a, read: true } : a));
    try {
      this.summary = await this.#bridge.invoke('alerts:read', input);
      this.reads.error = null;
    } catch (err) {
      this.alerts = before;
      this.reads.error = messageOf(err);
    }
  }

  async #configure(change: Partial<AlertSettings>): Promise<boolean> {
    const current = this.settings;
    if (!current) return false;
    this.saving = true;
    try {
      this.settings = await this.#bridge.invoke('alerts:configure', { ...current, ...change });
      this.settingsError = null;
      this.settingsNotice = 'Saved: the knockout watch uses these settings now.';
      return true;
    } catch (err) {
      this.settingsError = messageOf(err);
      this.settingsNotice = null;
      return false;
    } finally {
      this.saving = false;
    }
  }
}
