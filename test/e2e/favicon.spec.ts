import { expect, test } from './fixtures.js';

test('the page loads its favicon, with no failed request or error in the console', async ({
  page,
  betdesk,
}) => {
  const failures: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') failures.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) failures.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  const favicon = page.waitForResponse((r) => new URL(r.url()).pathname === '/favicon.png', {
    timeout: 15_000,
  });

  await page.goto(betdesk.url);
  const response = await favicon;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/png');
  await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Up to date');
  expect(failures).toEqual([]);
});
