/**
 * The start said as lines (start/say.ts): a step is said once it has lasted a second, one line
 * each (never one per page), a quick start says nothing, a slow one ends with "ready".
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sayStart, StartTracker } from '../../../src/main/start/index.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

function said(): { tracker: StartTracker; lines: string[]; stop: () => void } {
  const tracker = new StartTracker();
  const lines: string[] = [];
  const stop = sayStart(tracker, { prefix: 'betdesk serve: ', write: (l) => lines.push(l) });
  return { tracker, lines, stop };
}

describe('the start said on stderr', () => {
  it('says nothing of a quick start', () => {
    const { tracker, lines } = said();
    tracker.report({ phase: 'checking', message: 'Checking your store…' });
    vi.advanceTimersByTime(400);
    tracker.report({ phase: 'starting', message: 'Starting Betdesk…' });
    vi.advanceTimersByTime(400);
    tracker.report({ phase: 'ready', message: 'Ready.' });
    vi.advanceTimersByTime(5000);
    expect(lines).toEqual([]);
  });

  it('says each long step once, with the backup in percent and the upgrade by name', () => {
    const { tracker, lines } = said();
    const backingUp = 'Backing up your store before upgrading it…';
    tracker.report({ phase: 'backing-up', message: backingUp });
    for (let done = 0; done <= 400; done += 100) {
      tracker.report({ phase: 'backing-up', message: backingUp, done, total: 400, unit: 'pages' });
      vi.advanceTimersByTime(500);
    }
    tracker.report({
      phase: 'upgrading',
      message: 'Upgrading your store: step 1 of 2 (realized P&L)',
      done: 0,
      total: 2,
      unit: 'steps',
    });
    vi.advanceTimersByTime(3000);
    tracker.report({
      phase: 'upgrading',
      message: 'Upgrading your store: step 2 of 2 (guardians)',
      done: 1,
      total: 2,
      unit: 'steps',
    });
    vi.advanceTimersByTime(200);
    tracker.report({ phase: 'ready', message: 'Ready.' });
    expect(lines).toEqual([
      'betdesk serve: backing up your store before upgrading it: 25% of 400 pages, 1 s',
      'betdesk serve: upgrading your store: step 1 of 2 (realized P&L), 4 s',
      'betdesk serve: ready, 6 s',
    ]);
  });

  it('stops saying once stopped', () => {
    const { tracker, lines, stop } = said();
    tracker.report({ phase: 'upgrading', message: 'Upgrading your store: step 1 of 1 (x)' });
    stop();
    vi.advanceTimersByTime(2000);
    expect(lines).toEqual([]);
  });
});
