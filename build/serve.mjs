// `npm run serve`: runs the browser host from its bundle (out/main/serve.js), building the app
// with electron-vite first when the bundle is missing or any source file is newer than it.
// Build output goes to stderr: stdout carries only the host's listening line.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'out', 'main', 'serve.js');
const outputs = [bundle, join(root, 'out', 'renderer', 'index.html')];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = Math.max(
  newestMtime(join(root, 'src')),
  statSync(join(root, 'electron.vite.config.ts')).mtimeMs,
  statSync(join(root, 'package-lock.json')).mtimeMs,
);
const stale = outputs.some((file) => !existsSync(file) || statSync(file).mtimeMs < sources);
if (stale) {
  console.error('betdesk serve: building the app (electron-vite build)...');
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const built = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (built.status !== 0 || outputs.some((file) => !existsSync(file))) {
    console.error('betdesk serve: the build failed; run `npx electron-vite build` to see why.');
    process.exit(2);
  }
}

await import(pathToFileURL(bundle).href);
