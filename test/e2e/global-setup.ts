/** Builds main, preload and renderer once, so every spec runs against the current sources. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export default function globalSetup(): void {
  const root = join(import.meta.dirname, '..', '..');
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const built = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('electron-vite build failed; the e2e tests need out/.');
}
