/**
 * A returning user's start (docs/desk.md, "Saved markets"): the markets the store holds show
 * at once, marked as saved in words, until the first sync of this start confirms them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBetdesk } from './processes.js';

/** What the page showed with its first market row: recorded as it happens, however brief. */
const WATCH_FIRST_ROW = `
  window.firstRow = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const row = document.querySelector('section[aria-label^="League "] li');
      if (!row) return;
      observer.disconnect();
      const status = [...document.querySelectorAll('[role="status"]')].map((s) =>
        s.textContent.replace(/\\s+/g, " ").trim(),
      );
      resolve({ row: row.getAttribute('aria-label'), status });
    });
    observer.observe(document, { subtree: true, childList: true });
  });
`;

interface FirstRow {
  row: string | null;
  status: string[];
}

test('a second start shows the stored markets as saved, then as confirmed', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'betdesk-e2e-saved-'));
  try {
    const saved = page.getByRole('status').filter({ hasText: 'Saved markets from' });
    const first = await startBetdesk({ dataDir });
    await page.goto(first.url);
    // A first start has nothing saved: its markets come from the first sync.
    await expect(page.getByRole('listitem').first()).toBeVisible();
    await expect(saved).toHaveCount(0);
    const names = await page.getByRole('listitem').first().getAttribute('aria-label');
    await first.stop();

    const again = await startBetdesk({ dataDir });
    try {
      await page.addInitScript(WATCH_FIRST_ROW);
      await page.goto(again.url);
      const seen = await page.evaluate(
        () => (globalThis as unknown as { firstRow: Promise<FirstRow> }).firstRow,
      );
      // The first row drawn is a stored one, and the words said so as it was drawn.
      expect(seen.row).toBe(names);
      expect(seen.status).toContainEqual(
        expect.stringMatching(/^Saved markets from \S+.* — checking with the exchange…$/),
      );
      // The first sync of this start reads them again: the words go, the rows stay.
      await expect(saved).toHaveCount(0);
      await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Up to date');
      await expect(page.getByRole('listitem').first()).toBeVisible();
    } finally {
      await again.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
