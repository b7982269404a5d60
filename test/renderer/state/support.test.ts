import { expect, test } from 'vitest';
import { SupportState } from '../../../src/renderer/src/lib/state/support.svelte.js';
import { deferred, FakeBridge } from '../fake-bridge.js';

const TEXT = `Betdesk diagnostics\n${'x'.repeat(2100)}\n`;

function state(copy: (text: string) => Promise<boolean> = () => Promise.resolve(true)) {
  const bridge = new FakeBridge();
  bridge.answer('support:folders', { logs: '/home/ann/.local/state/betdesk/logs', data: '/d' });
  bridge.answer('support:diagnostics', { text: TEXT, bytes: 2_150, errors: 0 });
  return { bridge, support: new SupportState(bridge, copy) };
}

test('knows the logs folder once loaded', async () => {
  const { support } = state();
  expect(support.logsDir).toBeNull();
  expect(support.loaded).toBe(false);
  await support.load();
  expect(support.logsDir).toBe('/home/ann/.local/state/betdesk/logs');
  expect(support.loaded).toBe(true);
});

test('copies the diagnostics and says how much', async () => {
  const copied: string[] = [];
  const { support } = state((text) => {
    copied.push(text);
    return Promise.resolve(true);
  });
  await support.copyDiagnostics();
  expect(copied).toEqual([TEXT]);
  expect(support.outcome).toEqual({ tone: 'ok', words: 'Diagnostics copied: 2.1 KB.' });
  expect(support.manualCopy).toBeNull();
});

test('a refused clipboard offers the text to copy by hand', async () => {
  const { support } = state(() => Promise.resolve(false));
  await support.copyDiagnostics();
  expect(support.manualCopy).toBe(TEXT);
  expect(support.outcome?.tone).toBe('error');
  expect(support.outcome?.words).toMatch(/refused the clipboard/);
  support.closeManualCopy();
  expect(support.manualCopy).toBeNull();
});

test('a folder that could not be opened is named, with the reason', async () => {
  const { bridge, support } = state();
  bridge.answer('logs:open', {
    path: '/home/ann/.local/state/betdesk/logs',
    opened: false,
    error: 'xdg-open is not installed.',
  });
  await support.openLogsFolder();
  expect(support.outcome).toEqual({
    tone: 'error',
    words:
      'Could not open the folder: xdg-open is not installed. The logs are in /home/ann/.local/state/betdesk/logs',
  });
  expect(support.logsDir).toBe('/home/ann/.local/state/betdesk/logs');
});

test('an opened folder says so', async () => {
  const { bridge, support } = state();
  bridge.answer('logs:open', { path: '/logs', opened: true, error: null });
  await support.openLogsFolder();
  expect(support.outcome).toEqual({ tone: 'ok', words: 'Opened the logs folder: /logs' });
});

test('a failed call is told in words, and one press at a time', async () => {
  const { bridge, support } = state();
  const answer = deferred<{ text: string; bytes: number; errors: number }>();
  bridge.answer('support:diagnostics', () => answer.promise);
  const first = support.copyDiagnostics();
  expect(support.busy).toBe(true);
  await support.copyDiagnostics();
  expect(bridge.inputs('support:diagnostics')).toHaveLength(1);
  answer.reject(new Error('gone'));
  await first;
  expect(support.busy).toBe(false);
  expect(support.outcome).toEqual({
    tone: 'error',
    words: 'Betdesk could not complete that; please try again.',
  });
});
