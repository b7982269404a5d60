// Builds better-sqlite3 for Electron's ABI into build/electron-native/better_sqlite3.node, which
// the shell hands to the store as better-sqlite3's `nativeBinding` (node_modules keeps the Node
// build the tests use). keytar needs nothing: it is N-API, the same binary for Node and Electron.
// Tries a prebuilt binary first (prebuild-install), then compiling (node-gyp with Electron's
// headers); both need the network the first time.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'build', 'electron-native');
const target = join(outDir, 'better_sqlite3.node');
const electron = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8'));
const sqliteDir = join(root, 'node_modules', 'better-sqlite3');

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  return r.status === 0;
}

const work = mkdtempSync(join(tmpdir(), 'betdesk-electron-native-'));
try {
  // A private copy, so the Node build in node_modules stays as it is.
  const pkg = join(work, 'better-sqlite3');
  cpSync(sqliteDir, pkg, { recursive: true, filter: (p) => !p.includes(`${sqliteDir}/build`) });
  const built = join(pkg, 'build', 'Release', 'better_sqlite3.node');
  const common = [`--target=${electron.version}`, `--arch=${process.arch}`];

  const prebuild = join(root, 'node_modules', 'prebuild-install', 'bin.js');
  let ok =
    existsSync(prebuild) &&
    run(process.execPath, [prebuild, '--runtime=electron', ...common, '--verbose'], pkg);

  if (!ok) {
    const npmDir = dirname(dirname(process.env.npm_execpath ?? ''));
    const gypCandidates = [
      join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
      join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
      join(
        dirname(process.execPath),
        '..',
        'lib',
        'node_modules',
        'npm',
        'node_modules',
        'node-gyp',
        'bin',
        'node-gyp.js',
      ),
    ];
    const gyp = gypCandidates.find((p) => existsSync(p));
    ok =
      gyp !== undefined &&
      run(
        process.execPath,
        [
          gyp,
          'rebuild',
          '--release',
          '--runtime=electron',
          ...common,
          '--dist-url=https://electronjs.org/headers',
        ],
        pkg,
      );
  }

  if (!ok || !existsSync(built)) {
    console.error(
      `Betdesk: could not fetch or build better-sqlite3 for Electron ${electron.version} (are you offline?). ` +
        'Run `node build/electron-native.mjs` again with network access; `npm run serve` works without it.',
    );
    process.exit(1);
  }
  mkdirSync(outDir, { recursive: true });
  cpSync(built, target);
  console.log(`Betdesk: better-sqlite3 for Electron ${electron.version} is in ${target}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
