import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { STORE_FILE } from '../../../src/main/data/store-file.js';
import { shortTime } from '../../../src/main/data/store-notices.js';
import { backupStore, listBackups } from '../../../src/main/store/backup.js';
import { overwritePages, seedStore, writeGarbage } from '../store/damage.js';
import { AppHarness } from './support.js';

const harness = new AppHarness('store-notice');
afterEach(harness.cleanup);

const TAKEN = Date.UTC(2026, 10, 25, 14, 2, 0);

describe('the app on a damaged store', () => {
  test('starts, says what it did until acknowledged, with local data back from the backup', async () => {
    const file = path.join(harness.dir, STORE_FILE);
    seedStore(file);
    await backupStore(file, path.join(harness.dir, 'backups'), { now: () => TAKEN });
    overwritePages(file, 2, 8);

    const { services } = await harness.start();
    const info = await services.call('app:info', {});
    const notice = info.storeNotice!;
    expect(notice.kind).toBe('recovered');
    expect(notice.movedTo).toMatch(
      /betdesk\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/,
    );
    expect(notice.restoredFrom).toBe(listBackups(path.join(harness.dir, 'backups'))[0]!.file);
    expect(notice.message).toBe(
      `Betdesk found its local store damaged and moved it to ${notice.movedTo}; your ` +
        'accounts, settings, alerts and unfinished orders came back from the backup of ' +
        `${shortTime(TAKEN)}; orders and history are being read again from the exchange.`,
    );
    // The accounts came back with their ids; the remembered active one is the live account.
    expect(
      (await services.call('accounts:list', {}).then((r) => r.accounts)).map((a) => [
        a.id,
        a.label,
      ]),
    ).toEqual([['1', 'main']]);

    // Still there after a restart, until acknowledged.
    await harness.stop(services);
    const again = (await harness.start()).services;
    expect((await again.call('app:info', {})).storeNotice).toEqual(notice);
    const after = await again.call('store:acknowledge', { at: notice.at });
    expect(after.storeNotice).toBeUndefined();
    expect((await again.call('app:info', {})).storeNotice).toBeUndefined();
  });

  test('with no backup starts empty and says the accounts must be added again', async () => {
    const file = path.join(harness.dir, STORE_FILE);
    seedStore(file);
    writeGarbage(file);
    const { services } = await harness.start();
    const notice = (await services.call('app:info', {})).storeNotice;
    expect(notice?.restoredFrom).toBeNull();
    expect(notice?.message).toMatch(/there was no backup .* so add your accounts again/);
    expect(await services.call('accounts:list', {}).then((r) => r.accounts)).toEqual([]);
  });

  test('a sound store has no notice', async () => {
    seedStore(path.join(harness.dir, STORE_FILE));
    const { services } = await harness.start();
    expect((await services.call('app:info', {})).storeNotice).toBeUndefined();
  });
});

test('shortTime names a backup in local time, as the notice says it', () => {
  const at = new Date(2026, 10, 25, 14, 2).getTime();
  expect(shortTime(at)).toBe('25 Nov 14:02');
});
