import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_SETTINGS,
  markNoticeShown,
  normalizeAlertSettings,
  readAlertSettings,
  readDeskSettings,
  writeAlertSettings,
  writeDeskSettings,
} from '../../../src/main/desk/alert-settings.js';
import { Refusal } from '../../../src/main/refusal.js';
import { tempStore } from '../store/support.js';

let done = () => {};
afterEach(() => done());

const notify = { near: true, knocked_out: true, filled: false, rejected: true, guard: true };

describe('alert settings', () => {
  it('default to the knockout watch’s levels, with every notification on', () => {
    expect(DEFAULT_ALERT_SETTINGS).toEqual({
      levels: ['0.1', '0.05', '0.02'],
      margin: '0.01',
      notify: { near: true, knocked_out: true, filled: true, rejected: true, guard: true },
    });
  });

  it('are kept per account and read back as written, widest level first', () => {
    const t = tempStore();
    done = t.done;
    const other = t.store.accounts.create({ label: 'b', baseUrl: 'http://x', apiKey: 'k2' });
    writeAlertSettings(t.store, t.accountId, { levels: ['0.03', '0.2'], margin: '0.005', notify });
    expect(readAlertSettings(t.store, t.accountId)).toEqual({
      levels: ['0.2', '0.03'],
      margin: '0.005',
      notify,
    });
    expect(readAlertSettings(t.store, other.id)).toEqual(DEFAULT_ALERT_SETTINGS);
  });

  it('fall back to the defaults when the stored value cannot be read', () => {
    const t = tempStore();
    done = t.done;
    t.store.settings.set(`alerts.${t.accountId}`, '{not json');
    expect(readAlertSettings(t.store, t.accountId)).toEqual(DEFAULT_ALERT_SETTINGS);
  });

  it('refuse repeated levels and a margin as wide as the widest level, in words', () => {
    for (const bad of [
      { levels: ['0.05', '0.05'], margin: '0.01', notify },
      { levels: ['0.05'], margin: '0.05', notify },
    ]) {
      let caught: unknown;
      try {
        normalizeAlertSettings(bad);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(Refusal);
      expect((caught as Refusal).kind).toBe('invalid-input');
    }
  });
});

describe('desk settings', () => {
  it('keep one-click betting off until it is turned on', () => {
    const t = tempStore();
    done = t.done;
    const off = { oneClickBetting: false, startAtLogin: false, startHidden: false };
    expect(readDeskSettings(t.store)).toEqual(off);
    expect(writeDeskSettings(t.store, { oneClickBetting: true })).toEqual({
      ...off,
      oneClickBetting: true,
    });
    expect(readDeskSettings(t.store)).toEqual({ ...off, oneClickBetting: true });
  });

  it('keep starting at login and hidden off until turned on, each on its own', () => {
    const t = tempStore();
    done = t.done;
    writeDeskSettings(t.store, { startAtLogin: true });
    expect(readDeskSettings(t.store)).toEqual({
      oneClickBetting: false,
      startAtLogin: true,
      startHidden: false,
    });
    writeDeskSettings(t.store, { startHidden: true, startAtLogin: false });
    expect(readDeskSettings(t.store)).toMatchObject({ startAtLogin: false, startHidden: true });
  });

  it('read a stored value of the wrong type as its default', () => {
    const t = tempStore();
    done = t.done;
    t.store.settings.set('desk', JSON.stringify({ startAtLogin: 'yes', oneClickBetting: true }));
    expect(readDeskSettings(t.store)).toEqual({
      oneClickBetting: true,
      startAtLogin: false,
      startHidden: false,
    });
  });
});

describe('one-time notices', () => {
  it('are shown the first time only, remembered in the store', () => {
    const t = tempStore();
    done = t.done;
    expect(markNoticeShown(t.store, 'tray')).toBe(true);
    expect(markNoticeShown(t.store, 'tray')).toBe(false);
    expect(markNoticeShown(t.store, 'other')).toBe(true);
  });
});
