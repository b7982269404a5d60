// `npm start`: builds Betdesk with electron-vite, then launches Electron on it. Where no Electron
// binary is installed (the npm package without its download), says so in one line and exits 1.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * The Electron executable, or null. Reads what require('electron') would return, without its
 * side effect: since Electron 36 that require starts a download when the binary is missing.
 */
function electronBinary() {
  const pkg = dirname(require.resolve('electron/package.json'));
  const pathFile = join(pkg, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!relative && !override) return null;
  const full = override ? join(override, relative || 'electron') : join(pkg, 'dist', relative);
  return existsSync(full) ? full : null;
}

const binary = electronBinary();
if (!binary) {
  console.error(
    'Betdesk: no Electron binary is installed here (node_modules/electron has no download); run `npm run serve` to use Betdesk in a browser instead.',
  );
  process.exit(1);
}

const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
const built = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;
const args = [root, ...process.argv.slice(2)];
if (process.getuid?.() === 0 && !args.includes('--no-sandbox')) {
  // Chromium refuses to run as root with its sandbox on.
  console.error('Betdesk: running as root, so Chromium’s sandbox is off (--no-sandbox).');
  args.push('--no-sandbox');
}
const app = spawn(binary, args, { cwd: root, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => app.kill(signal));
app.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
