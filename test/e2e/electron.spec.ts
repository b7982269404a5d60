/**
 * The desktop app itself, through Playwright's Electron driver. Skips, saying why, where no
 * Electron binary is installed (the npm package without its download).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

/** What require('electron') would give, without the download it starts when the binary is missing. */
function electronBinary(): string | null {
  const pkg = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = join(pkg, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (!relative && !override) return null;
  const full = override ? join(override, relative || 'electron') : join(pkg, 'dist', relative);
  return existsSync(full) ? full : null;
}

test('the desktop window opens in paper mode with markets and a locked-down bridge', async () => {
  const binary = electronBinary();
  if (!binary) {
    const reason = 'No Electron binary is installed (node_modules/electron has no dist); skipped.';
    console.log(reason);
    test.skip(true, reason);
    return;
  }
  const home = mkdtempSync(join(tmpdir(), 'betdesk-electron-'));
  const app = await electron.launch({
    executablePath: binary,
    args: [join(import.meta.dirname, '..', '..', 'out', 'main', 'index.js'), '--no-sandbox'],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_STATE_HOME: join(home, 'state'),
    },
  });
  try {
    const window = await app.firstWindow();
    await expect(
      window.getByRole('status', { name: 'Paper trading: no real money' }),
    ).toBeVisible();
    await expect(window.getByRole('listitem').first()).toBeVisible();
    const exposed = await window.evaluate(() => ({
      bridge: Object.keys((window as unknown as { betdesk: object }).betdesk).sort(),
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(exposed).toEqual({
      bridge: ['invoke', 'on'],
      require: 'undefined',
      process: 'undefined',
    });
  } finally {
    await app.close();
    rmSync(home, { recursive: true, force: true });
  }
});
