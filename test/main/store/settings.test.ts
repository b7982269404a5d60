/** The settings repository: small named values kept across restarts, on a real SQLite file. */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { tempStore } from './support.js';

let done = () => {};
afterEach(() => done());

describe('settings', () => {
  it('answer undefined for a key never set, and the value once it is', () => {
    const t = tempStore();
    done = t.done;
    expect(t.store.settings.get('activeAccount')).toBeUndefined();
    t.store.settings.set('activeAccount', '7');
    expect(t.store.settings.get('activeAccount')).toBe('7');
  });

  it('replace a value set again, stamping the time of the change', () => {
    const t = tempStore();
    done = t.done;
    t.store.settings.set('theme', 'dark');
    const first = stamp(t.store.db, 'theme');
    t.store.settings.set('theme', 'light');
    expect(t.store.settings.get('theme')).toBe('light');
    expect(stamp(t.store.db, 'theme')).toBeGreaterThan(first);
    expect(t.store.db.prepare('SELECT count(*) FROM settings').pluck().get()).toBe(1);
  });

  it('delete a key, saying whether there was one', () => {
    const t = tempStore();
    done = t.done;
    t.store.settings.set('theme', 'dark');
    t.store.settings.set('activeAccount', '1');
    expect(t.store.settings.delete('theme')).toBe(true);
    expect(t.store.settings.delete('theme')).toBe(false);
    expect(t.store.settings.get('theme')).toBeUndefined();
    expect(t.store.settings.get('activeAccount')).toBe('1');
  });

  it('keep every value across a restart, the empty string included', () => {
    const t = tempStore();
    done = t.done;
    t.store.settings.set('activeAccount', '3');
    t.store.settings.set('empty', '');
    t.store.close();
    const again = openStore(t.file);
    try {
      expect(again.settings.get('activeAccount')).toBe('3');
      expect(again.settings.get('empty')).toBe('');
    } finally {
      again.close();
    }
  });
});

/** When the setting was last written (the store's clock). */
function stamp(db: Store['db'], key: string): number {
  return db.prepare('SELECT updated_at FROM settings WHERE key = ?').pluck().get(key) as number;
}
