/**
 * Issue 20's upgrade with progress, end to end: a populated store of the previous schema
 * (schema 8, a year of settlements and their alerts: test/e2e/old-store.ts) opened by the
 * browser host. The page shows the start screen while the store is backed up and upgraded
 * (recorded by a MutationObserver from the page's first moment, as bench/start.ts watches the
 * markets), axe finds nothing on it, then the desk shows; every row is kept, and the host's
 * stderr said each phase.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnProgram, untilListening } from '../harness/processes.js';
import { axeProblems } from './a11y-checks.js';
import { expect, keepScreenshot, test } from './fixtures.js';
import { rowsOf, writeOldStore } from './old-store.js';

/** Settlements (and as many alerts): the backup and step take seconds here (docs/data.md). */
const ROWS = 300_000;

/** Installed before the page's own scripts: every distinct thing the start screen said. */
const WATCH_START = `
  window.startSaid = [];
  new MutationObserver(() => {
    const status = document.querySelector('[role="progressbar"][aria-label="Start progress"]');
    const words = status && status.getAttribute('aria-valuetext');
    const said = words && words.replace(/… \\d+ s$/, '').replace(/: \\d+% \\(.*\\)$/, '');
    if (said && window.startSaid.at(-1) !== said) window.startSaid.push(said);
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

test('a store of the previous schema is upgraded behind the start screen, every row kept', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'betdesk-e2e-upgrade-'));
  const host = { stop: () => Promise.resolve() } as { stop: () => Promise<unknown> };
  try {
    const old = writeOldStore(dataDir, ROWS);
    await page.addInitScript(WATCH_START);
    const program = spawnProgram(
      'npm',
      ['run', '--silent', 'serve', '--', '--port', '0', '--data-dir', dataDir],
      {
        env: {
          BETDESK_KEYCHAIN_SERVICE: `Betdesk-e2e-${randomBytes(6).toString('hex')}`,
          BETDESK_LOGS_DIR: join(dataDir, 'logs'),
          // Every phase on stderr, however long it took on this machine.
          BETDESK_START_SAY_AFTER_MS: '0',
        },
      },
    );
    host.stop = () => program.stop(5000);
    const listening = await untilListening(program, 'serve');
    await page.setViewportSize({ width: 1400, height: 800 });
    await page.goto(listening.url);

    // The start screen, while the store is worked on.
    const bar = page.getByRole('progressbar', { name: 'Start progress' });
    await expect(bar).toBeVisible();
    // Pictured and checked while the store is backed up or upgraded (a check may come first).
    await expect(page.getByRole('status')).toContainText(/Backing up|Upgrading/, {
      timeout: 60_000,
    });
    await keepScreenshot(page, testInfo, 'start-screen');
    expect(await axeProblems(page, 'start screen')).toEqual([]);

    // Then the desk: the start screen gone, the screens' navigation usable.
    await expect(bar).toBeHidden({ timeout: 120_000 });
    await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
    await keepScreenshot(page, testInfo, 'desk-after-upgrade');

    const said = await page.evaluate(
      () => (globalThis as unknown as { startSaid: string[] }).startSaid,
    );
    expect(said).toContain('Upgrading your store: step 1 of 2 (guardians)');
    expect(said).toContain('Upgrading your store: step 2 of 2 (realized P&L, again)');
    // In the start's order, never back.
    const order = [
      'Opening your store',
      'Checking your store',
      'Backing up your store before upgrading it',
      'Upgrading your store: step 1 of 2 (guardians)',
      'Upgrading your store: step 2 of 2 (realized P&L, again)',
      'Starting Betdesk',
    ];
    const places = said.map((s) => order.indexOf(s));
    expect(places.every((p) => p >= 0)).toBe(true);
    expect(places).toEqual([...places].sort((a, b) => a - b));

    await host.stop();
    expect(rowsOf(old.file)).toEqual({
      settlements: old.settlements,
      alerts: old.alerts,
      schema: 10,
    });
    const stderr = program.stderr();
    expect(stderr).toMatch(/betdesk serve: checking your store, \d+ s/);
    expect(stderr).toMatch(/betdesk serve: backing up your store before upgrading it, \d+ s/);
    expect(stderr).toMatch(/betdesk serve: upgrading your store: step 1 of 2 \(guardians\), \d+ s/);
    expect(stderr).toMatch(/betdesk serve: ready, \d+ s/);
  } finally {
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
