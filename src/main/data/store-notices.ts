/**
 * What Betdesk did to its local store on its own, in words: kept in the store's settings until
 * the user acknowledges it, so a notice found by the CLI is still shown by the app, and one
 * shown while the window was closed is still there when it opens.
 */
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { StoreNotice, type AppInfo } from '../../shared/ipc/contract.js';
import type { Store, StoreRecovery } from '../store/index.js';
import type { StoreMove } from './store-move.js';

const NOTICES_KEY = 'storeNotices';
const noticeList = Compile(Type.Array(StoreNotice));

export class StoreNotices {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  /** Unacknowledged notices, oldest first. */
  list(): StoreNotice[] {
    const raw = this.#store.settings.get(NOTICES_KEY);
    if (raw === undefined) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      return noticeList.Check(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }

  /** The notice to show now: the oldest not yet acknowledged. */
  current(): StoreNotice | undefined {
    return this.list()[0];
  }

  add(notice: StoreNotice): void {
    this.#save([...this.list(), notice]);
  }

  /** False when no notice has that time. */
  acknowledge(at: number): boolean {
    const all = this.list();
    const rest = all.filter((n) => n.at !== at);
    if (rest.length === all.length) return false;
    this.#save(rest);
    return true;
  }

  #save(notices: readonly StoreNotice[]): void {
    if (notices.length === 0) this.#store.settings.delete(NOTICES_KEY);
    else this.#store.settings.set(NOTICES_KEY, JSON.stringify(notices));
  }
}

/** "25 Nov 14:02", local time: how the notice names a backup. */
export function shortTime(at: number): string {
  const d = new Date(at);
  const month = d.toLocaleString('en-GB', { month: 'short' });
  const hh = String(d.getHours()).padStart(2, '0');
  const mm = String(d.getMinutes()).padStart(2, '0');
  return `${d.getDate()} ${month} ${hh}:${mm}`;
}

export function recoveryNotice(r: StoreRecovery): StoreNotice {
  const found = `Betdesk found its local store damaged and moved it to ${r.movedTo}`;
  const message = r.restoredFrom
    ? `${found}; your accounts, settings, alerts and unfinished orders came back from the ` +
      `backup of ${shortTime(r.restoredFrom.takenAt)}; orders and history are being read ` +
      'again from the exchange.'
    : `${found}; there was no backup to bring back your accounts, settings and alerts, so add ` +
      'your accounts again; their orders and history will then be read again from the exchange.';
  return {
    kind: 'recovered',
    at: r.at,
    message,
    movedTo: r.movedTo,
    restoredFrom: r.restoredFrom?.file ?? null,
  };
}

export function moveNotice(m: StoreMove, at: number): StoreNotice {
  if (m.kind === 'moved') {
    return {
      kind: 'moved',
      at,
      message:
        `Betdesk now keeps its data in ${m.to}, the same folder for the app, the browser host ` +
        `and the command line; it moved your store there from ${m.from}, where the old copy ` +
        'is kept (ending in .moved).',
      movedTo: m.to,
      restoredFrom: null,
    };
  }
  return {
    kind: 'two-stores',
    at,
    message:
      `Betdesk found a store in ${m.used} and another one in ${m.other}, where earlier ` +
      `versions kept it. It uses the one in ${m.used}; the other was left as it is, ` +
      'nothing was merged.',
    movedTo: null,
    restoredFrom: null,
  };
}

/** AppInfo with the store notice to show now, if any. */
export function withStoreNotice<S>(
  info: (session: S) => AppInfo,
  notices: StoreNotices,
): (session: S) => AppInfo {
  return (session) => {
    const notice = notices.current();
    return notice ? { ...info(session), storeNotice: notice } : info(session);
  };
}
