/**
 * How Betdesk's tests and benchmarks start Chromium on these machines: Debian's own binary
 * (Playwright cannot download one here) and no background traffic to hosts the closed network
 * refuses.
 */
export const chromiumLaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
