/**
 * Per-account alert settings (near-knockout levels and margin, desktop notifications per kind)
 * and the app-wide desk settings (one-click betting, start at login, start hidden), kept in the
 * store's settings table as small JSON values, with which one-time notices were shown. Anything
 * unreadable falls back to the defaults: a setting can never stop the app.
 */
import { Compile } from 'typebox/compile';
import { AlertSettings, type DeskSettings } from '../../shared/ipc/contract.js';
import { dec } from '../../shared/money.js';
import { DEFAULT_LEVELS, DEFAULT_MARGIN, ladder } from '../alerts/index.js';
import { Refusal } from '../refusal.js';
import { accountSettingKey, type Store } from '../store/index.js';

export const DEFAULT_DESK_SETTINGS: DeskSettings = {
  oneClickBetting: false,
  startAtLogin: false,
  startHidden: false,
};

const alertKey = (accountId: number) => accountSettingKey('alerts', accountId);
const DESK_KEY = 'desk';

const alertSettingsShape = Compile(AlertSettings);

export function readAlertSettings(store: Store, accountId: number): AlertSettings {
  const raw = parse(store.settings.get(alertKey(accountId)));
  // Settings stored before guardian alerts existed (issue 19) say nothing of them: notify.
  const notify = raw?.['notify'];
  if (typeof notify === 'object' && notify !== null && !('guard' in notify)) {
    (notify as Record<string, unknown>)['guard'] = true;
  }
  if (!alertSettingsShape.Check(raw)) return DEFAULT_ALERT_SETTINGS;
  try {
    return normalizeAlertSettings(raw);
  } catch {
    return DEFAULT_ALERT_SETTINGS;
  }
}

/** Checks the rules the schema cannot say, and writes the settings. */
export function writeAlertSettings(
  store: Store,
  accountId: number,
  settings: AlertSettings,
): AlertSettings {
  const normalized = normalizeAlertSettings(settings);
  store.settings.set(alertKey(accountId), JSON.stringify(normalized));
  return normalized;
}

/**
 * Levels distinct, each above 0 and below 1, widest first; the margin below the narrowest
 * level's distance to the next. Throws Refusal('invalid-input') in words otherwise.
 */
export function normalizeAlertSettings(s: AlertSettings): AlertSettings {
  let levels: string[];
  try {
    levels = ladder(s.levels, s.margin).levels.map((l) => l.toString());
  } catch (err) {
    throw new Refusal('invalid-input', err instanceof Error ? err.message : String(err));
  }
  if (levels.length !== s.levels.length) {
    throw new Refusal('invalid-input', 'Each near-knockout alert level must be different.');
  }
  if (dec(s.margin).gte(dec(levels[0]!))) {
    throw new Refusal(
      'invalid-input',
      'The re-arm margin must be smaller than the widest alert level.',
    );
  }
  return { levels, margin: dec(s.margin).toString(), notify: { ...s.notify } };
}

export function readDeskSettings(store: Store): DeskSettings {
  const raw = parse(store.settings.get(DESK_KEY));
  const flag = (name: keyof DeskSettings): boolean => {
    const value = raw?.[name];
    return typeof value === 'boolean' ? value : DEFAULT_DESK_SETTINGS[name];
  };
  return {
    oneClickBetting: flag('oneClickBetting'),
    startAtLogin: flag('startAtLogin'),
    startHidden: flag('startHidden'),
  };
}

const noticeKey = (notice: string) => `notice.${notice}`;

/** True the first time it is called for `notice`; remembered in the store's settings. */
export function markNoticeShown(store: Store, notice: string): boolean {
  if (store.settings.get(noticeKey(notice)) !== undefined) return false;
  store.settings.set(noticeKey(notice), 'shown');
  return true;
}

export function writeDeskSettings(store: Store, change: Partial<DeskSettings>): DeskSettings {
  const next = { ...readDeskSettings(store), ...change };
  store.settings.set(DESK_KEY, JSON.stringify(next));
  return next;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = normalizeAlertSettings({
  levels: [...DEFAULT_LEVELS],
  margin: DEFAULT_MARGIN,
  notify: { near: true, knocked_out: true, filled: true, rejected: true, guard: true },
});

function parse(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
