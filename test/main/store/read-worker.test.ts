/**
 * The store's read worker with real parts: a real SQLite file holding a seeded history (the
 * benchmark's year of settlements, cut short), the worker a real thread running the sources
 * through tsx, as the CLI and the tests run them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedSettlements } from '../../../bench/settlement-seed.js';
import { Refusal } from '../../../src/main/refusal.js';
import { UnknownTimeZoneError } from '../../../src/main/history/zoned-time.js';
import {
  ReadWorkerStoppedError,
  StoreReads,
  type StoreReadsOptions,
} from '../../../src/main/store/read-worker.js';
import { receiveError, sendError } from '../../../src/main/store/read-worker-messages.js';
import { STORE_READS } from '../../../src/main/store/read-worker-table.js';
import type { Logger } from '../../../src/shared/log.js';
import { settlement, tempStore } from './support.js';

/** Enough history that the menus take a while to read (every fixture of the seeded year). */
const ROWS = 20_000;
const NOW = Date.UTC(2025, 0, 1);

let seeded: ReturnType<typeof tempStore>;
beforeAll(() => {
  seeded = tempStore();
  seedSettlements(seeded.store, seeded.accountId, ROWS);
}, 120_000);
afterAll(() => seeded.done());

const opened: StoreReads[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
});

/** Warnings said, for the tests that count them. */
function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const none = () => {};
  return { logger: { debug: none, info: none, warn: (m) => warnings.push(m) }, warnings };
}

function reads(over: Partial<StoreReadsOptions> = {}): StoreReads {
  const r = new StoreReads({ file: seeded.file, fallback: seeded.store, ...over });
  opened.push(r);
  return r;
}

/** A worker entry that is not there: no worker can start. */
const NOWHERE = { url: pathToFileURL(join(import.meta.dirname, 'no-such-worker.js')) };

const summaryInput = () => ({
  accountId: seeded.accountId,
  filter: {},
  timeZone: 'Europe/London',
  now: NOW,
});

/**
 * How many turns the event loop takes while `work` runs: a chain of setImmediate callbacks
 * counts them, so a blocked loop counts none.
 */
async function loopTurnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    running = false;
  }
  return turns;
}

describe('the store read worker', () => {
  it('runs a read on another thread and answers as the read in this thread', async () => {
    const r = reads();
    const info = await r.run('readerInfo', undefined);
    expect(info.threadId).not.toBe(threadId);
    expect(info.schemaVersion).toBe(seeded.store.schemaVersion);

    const choices = await r.run('historyChoices', { accountId: seeded.accountId });
    expect(choices.fixtures.length).toBeGreaterThan(1000);
    expect(choices).toEqual(
      STORE_READS.historyChoices(seeded.store, { accountId: seeded.accountId }),
    );
    for (const filter of [{}, { league: 'Premier League' }, { type: 'CLOSED' as const }]) {
      const input = { ...summaryInput(), filter };
      expect(await r.run('historySummary', input)).toEqual(
        STORE_READS.historySummary(seeded.store, input),
      );
    }
  });

  it('sees what the app commits after it started', async () => {
    const r = reads();
    const before = await r.run('historySummary', summaryInput());
    const rows = Array.from({ length: 10 }, (_, i) => settlement(i));
    seeded.store.applySettlements(seeded.accountId, rows);
    const after = await r.run('historySummary', summaryInput());
    expect(after.totals.count).toBe(before.totals.count + 10);
  });

  it('keeps the main event loop turning during a slow read, which in this thread stops it', async () => {
    const onWorker = reads();
    const inThread = reads({ entry: NOWHERE });
    const choices = { accountId: seeded.accountId };
    await onWorker.run('readerInfo', undefined);
    await inThread.run('readerInfo', undefined);

    const turnsOnWorker = await loopTurnsDuring(() => onWorker.run('historyChoices', choices));
    const turnsInThread = await loopTurnsDuring(() => inThread.run('historyChoices', choices));
    expect(turnsInThread).toBe(0);
    expect(turnsOnWorker).toBeGreaterThan(100);
  });

  it('fails the read in flight when the worker dies, in words, and starts again for the next', async () => {
    const { logger, warnings } = recordingLogger();
    const r = reads({ logger });
    const first = await r.run('readerInfo', undefined);

    const inFlight = r.run('historyChoices', { accountId: seeded.accountId });
    await r.worker!.terminate();
    const err = await inFlight.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ReadWorkerStoppedError);
    expect((err as Error).message).toMatch(/stopped .* before it answered historyChoices; try/);
    expect(warnings).toEqual(['the store reader stopped; it starts again on the next read']);

    const again = await r.run('readerInfo', undefined);
    expect(again.threadId).not.toBe(first.threadId);
    expect(again.threadId).not.toBe(threadId);
    expect((await r.run('historyChoices', { accountId: seeded.accountId })).fixtures.length).toBe(
      STORE_READS.historyChoices(seeded.store, { accountId: seeded.accountId }).fixtures.length,
    );
  });

  it('reads in this thread when no worker can start, and says so once', async () => {
    const { logger, warnings } = recordingLogger();
    const r = reads({ entry: NOWHERE, logger });
    // Both asked before the worker failed: both answered here.
    const [info, summary] = await Promise.all([
      r.run('readerInfo', undefined),
      r.run('historySummary', summaryInput()),
    ]);
    expect(info.threadId).toBe(threadId);
    expect(summary).toEqual(STORE_READS.historySummary(seeded.store, summaryInput()));
    expect((await r.run('readerInfo', undefined)).threadId).toBe(threadId);
    expect(r.worker).toBeUndefined();
    expect(warnings).toEqual([
      'the store reader could not start a worker; heavy reads run on main',
    ]);
  });

  it('reads in this thread when the worker cannot open the store', async () => {
    const { logger, warnings } = recordingLogger();
    const r = reads({ nativeBinding: join(import.meta.dirname, 'no-such-binding.node'), logger });
    expect((await r.run('readerInfo', undefined)).threadId).toBe(threadId);
    expect(warnings).toHaveLength(1);
  });

  it('gives back a refused time zone as the error the bridge knows', async () => {
    const r = reads();
    const input = { ...summaryInput(), timeZone: 'Mars/Olympus_Mons' };
    await expect(r.run('historySummary', input)).rejects.toBeInstanceOf(UnknownTimeZoneError);
    const refusal = receiveError(sendError(new Refusal('conflict', 'Not now.', -7)));
    expect(refusal).toEqual(new Refusal('conflict', 'Not now.', -7));
    expect(refusal).toBeInstanceOf(Refusal);
  });

  it('closes its connection before the store, so the writer folds the WAL back in', async () => {
    const t = tempStore();
    try {
      t.store.applySettlements(t.accountId, [settlement(1), settlement(2)]);
      const r = new StoreReads({ file: t.file, fallback: t.store });
      await r.run('historyChoices', { accountId: t.accountId });
      await r.close();
      await expect(r.run('readerInfo', undefined)).rejects.toThrow(/closed/);
      t.store.close();
      expect(existsSync(`${t.file}-wal`)).toBe(false);
    } finally {
      t.done();
    }
  });

  it('lets a program under tsx end by itself after its reads, as the CLI does', () => {
    const script = join(import.meta.dirname, 'read-worker-program.ts');
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, seeded.file], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const said = JSON.parse(run.stdout) as { mainThread: number; readerThread: number };
    expect(said.readerThread).not.toBe(said.mainThread);
  });
});
