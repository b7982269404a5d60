/**
 * The start screen says what main is doing to the store and how far it is, in words and with a
 * progress bar that carries the same words; a failed start is said in words as an alert. axe
 * finds nothing at 1024 and 1400 px, light and dark.
 */
import axe from 'axe-core';
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, expect, test } from 'vitest';
import { cdp, page } from 'vitest/browser';
import '../../../src/renderer/src/app.css';
import StartScreen from '../../../src/renderer/src/components/StartScreen.svelte';
import { coversDesk } from '../../../src/renderer/src/lib/start-words.js';
import type { StartProgress } from '../../../src/shared/ipc/contract.js';

const T0 = 1_700_000_000_000;

function progress(over: Partial<StartProgress> = {}): StartProgress {
  return {
    phase: 'upgrading',
    message: 'Upgrading your store: step 2 of 3 (realized P&L)',
    done: 1,
    total: 3,
    unit: 'steps',
    startedAt: T0,
    phaseStartedAt: T0 + 2000,
    ...over,
  };
}

let remove: (() => void) | null = null;
afterEach(() => {
  remove?.();
  remove = null;
});

function show(p: StartProgress, now = T0 + 14_000): void {
  const target = document.body.appendChild(document.createElement('div'));
  const screen = mount(StartScreen, { target, props: { progress: p, now } });
  flushSync();
  remove = () => {
    void unmount(screen);
    target.remove();
  };
}

const bar = () => page.getByRole('progressbar', { name: 'Start progress' });

test('an upgrade says its step by name, how far, and for how long', async () => {
  show(progress());
  await expect
    .element(page.getByRole('status'))
    .toHaveTextContent('Upgrading your store: step 2 of 3 (realized P&L)');
  await expect.element(bar()).toHaveAttribute('aria-valuenow', '33');
  await expect
    .element(bar())
    .toHaveAttribute('aria-valuetext', 'Upgrading your store: step 2 of 3 (realized P&L)… 12 s');
  await expect
    .element(page.getByText('Upgrading your store: step 2 of 3 (realized P&L)… 12 s'))
    .toBeVisible();
});

test('a backup says its pages in numbers', async () => {
  show(
    progress({
      phase: 'backing-up',
      message: 'Backing up your store before upgrading it…',
      done: 1024,
      total: 4096,
      unit: 'pages',
      phaseStartedAt: T0,
    }),
    T0 + 3400,
  );
  await expect.element(bar()).toHaveAttribute('aria-valuenow', '25');
  await expect
    .element(bar())
    .toHaveAttribute(
      'aria-valuetext',
      'Backing up your store before upgrading it: 25% (1,024 of 4,096 pages)… 3 s',
    );
});

test('a phase of unknown length has a bar without a value, still with its words', async () => {
  show(
    progress({ phase: 'rebuilding', message: 'Rebuilding…', done: null, total: null, unit: '' }),
  );
  await expect.element(bar()).not.toHaveAttribute('aria-valuenow');
  await expect.element(bar()).toHaveAttribute('aria-valuetext', 'Rebuilding… 12 s');
});

test('a failed start is said in words, as an alert', async () => {
  show(
    progress({
      phase: 'failed',
      message:
        'Betdesk could not back up its store before upgrading it (disk full); nothing was changed.',
    }),
  );
  await expect.element(page.getByRole('alert')).toHaveTextContent('Betdesk could not start');
  await expect
    .element(page.getByRole('alert'))
    .toHaveTextContent('could not back up its store before upgrading it (disk full)');
  await expect.element(bar()).not.toBeInTheDocument();
});

test('it covers the desk while the store is worked on, or a plain start is long with no desk', () => {
  const now = T0 + 500;
  expect(coversDesk(progress({ phase: 'upgrading' }), now, true)).toBe(true);
  expect(coversDesk(progress({ phase: 'backing-up' }), now, true)).toBe(true);
  expect(coversDesk(progress({ phase: 'failed' }), now, true)).toBe(true);
  expect(coversDesk(progress({ phase: 'checking' }), now, false)).toBe(false);
  expect(coversDesk(progress({ phase: 'checking' }), T0 + 1500, false)).toBe(true);
  expect(coversDesk(progress({ phase: 'checking' }), T0 + 1500, true)).toBe(false);
  expect(coversDesk(progress({ phase: 'ready' }), T0 + 9000, false)).toBe(false);
  expect(coversDesk(null, T0 + 9000, false)).toBe(false);
});

test('axe finds no WCAG 2.2 A/AA problem at 1024 and 1400 px, light and dark', async () => {
  for (const p of [progress(), progress({ phase: 'failed', message: 'The disk is full.' })]) {
    show(p);
    for (const width of [1024, 1400]) {
      await page.viewport(width, 768);
      for (const scheme of ['light', 'dark'] as const) {
        await cdp().send('Emulation.setEmulatedMedia', {
          features: [{ name: 'prefers-color-scheme', value: scheme }],
        });
        await new Promise((done) => requestAnimationFrame(done));
        const result = await axe.run(document.body, {
          runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'],
        });
        const problems = result.violations.flatMap((v) =>
          v.nodes.map((n) => `${width} ${scheme}: ${v.id} ${v.help}: ${n.target.join(' ')}`),
        );
        expect(problems, problems.join('\n')).toEqual([]);
      }
    }
    remove?.();
    remove = null;
  }
});
