// `npm run dist`: Betdesk's installable packages for this OS (electron-builder.config.mjs says
// which), in dist/. First a preflight: electron-builder needs Electron's zip for each target
// arch, from a local copy or from the download host; when it has neither, this says so in one
// line and stops before anything is built. Then electron-vite builds the app and electron-builder
// packs it. `--check` runs the preflight alone.
//
// Environment: BETDESK_ELECTRON_DIST (an unpacked Electron, a folder of Electron zips or one
// zip: electron-builder's `electronDist`), ELECTRON_CACHE (a folder holding Electron zips, flat
// or in @electron/get's cache layout), ELECTRON_MIRROR (where Electron is downloaded from, as
// @electron/get reads it).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EnvHttpProxyAgent, fetch } from 'undici';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/';
/** How long the download host may take to answer the probe. */
const PROBE_TIMEOUT_MS = 5_000;
/** electron-builder's platform key in the configuration, by Node's (and Electron's) name. */
const CONFIG_KEY = { linux: 'linux', darwin: 'mac', win32: 'win' };
/** The native modules electron-builder rebuilds in place for Electron (see saveNative). */
const NATIVE_MODULES = ['better-sqlite3', 'keytar'];

/** Stops with one line on stderr. */
function fail(message) {
  console.error(`betdesk dist: ${message}`);
  process.exit(1);
}

/** The archs this OS's targets are built for, e.g. ['x64', 'arm64'] for the macOS dmg. */
function targetArchs(config, platform) {
  const key = CONFIG_KEY[platform];
  if (key === undefined) fail(`no packages are configured for ${platform}.`);
  const targets = [config[key]?.target ?? []].flat();
  const archs = targets.flatMap((t) => (typeof t === 'string' ? [] : [t.arch ?? []].flat()));
  return archs.length > 0 ? [...new Set(archs)] : [process.arch];
}

/** @electron/get's cache root (env-paths('electron').cache), where electron-builder keeps zips. */
function electronGetCache() {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'electron');
  if (process.platform === 'win32') {
    return join(
      process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'),
      'electron',
      'Cache',
    );
  }
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'electron');
}

/** A local copy of `zip`: in one of the folders, directly or one level down (@electron/get's layout). */
function findZip(zip, folders) {
  for (const folder of folders) {
    if (existsSync(join(folder, zip))) return join(folder, zip);
    const subfolders = existsSync(folder)
      ? readdirSync(folder, { withFileTypes: true }).filter((e) => e.isDirectory())
      : [];
    for (const sub of subfolders) {
      if (existsSync(join(folder, sub.name, zip))) return join(folder, sub.name, zip);
    }
  }
  return undefined;
}

/** Whether the download host answers for `url`: null when it does, else why not. */
async function probe(url) {
  const host = new URL(url).host;
  try {
    const response = await fetch(url, {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      dispatcher: new EnvHttpProxyAgent(),
    });
    return response.status < 400 ? null : `${host} answered HTTP ${response.status}`;
  } catch {
    return `${host} unreachable`;
  }
}

/**
 * Where Electron comes from: BETDESK_ELECTRON_DIST (`given`), the local zips found (`zips`, by
 * the name electron-builder looks for), or neither when electron-builder can download it; `from`
 * says which for people. Stops with one line when there is no local copy and no download host.
 */
async function preflight(config, version) {
  const given = process.env.BETDESK_ELECTRON_DIST;
  if (given) {
    if (!existsSync(given)) fail(`BETDESK_ELECTRON_DIST=${given} does not exist.`);
    return { given: resolve(given), from: resolve(given) };
  }
  const platform = process.platform;
  const archs = targetArchs(config, platform);
  const zipName = (arch) => `electron-v${version}-${platform}-${arch}.zip`;
  const folders = [process.env.ELECTRON_CACHE, electronGetCache()].filter(Boolean);
  const found = new Map(archs.map((arch) => [arch, findZip(zipName(arch), folders)]));
  const missing = archs.filter((arch) => found.get(arch) === undefined);

  if (missing.length === 0) {
    const zips = new Map(archs.map((arch) => [zipName(arch), found.get(arch)]));
    return { zips, from: [...zips.values()].join(' and ') };
  }

  const mirror =
    process.env.ELECTRON_MIRROR || process.env.npm_config_electron_mirror || DEFAULT_MIRROR;
  const base = mirror.endsWith('/') ? mirror : `${mirror}/`;
  const why = await probe(`${base}v${version}/${zipName(missing[0])}`);
  if (why === null) return { from: new URL(base).host };
  const list = (items) => items.join(' and ');
  fail(
    `Electron ${version} for ${list(missing.map((a) => `${platform}-${a}`))} cannot be downloaded here ` +
      `(${why}); put ${list(missing.map(zipName))} in ELECTRON_CACHE=<dir>, or set ` +
      'BETDESK_ELECTRON_DIST=<an unpacked Electron> (electronDist), and run again.',
  );
}

/** A temporary folder holding the zips under their own names: electronDist for all archs. */
function zipFolder(zips) {
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-electron-dist-'));
  for (const [name, zip] of zips) {
    try {
      linkSync(zip, join(dir, name));
    } catch {
      copyFileSync(zip, join(dir, name));
    }
  }
  return dir;
}

/**
 * electron-builder rebuilds the native modules for Electron inside node_modules itself; the
 * tests, `npm run serve` and the CLI run them under Node. Returns a function that puts the Node
 * builds back.
 */
function saveNative() {
  const saved = [];
  for (const name of NATIVE_MODULES) {
    const dir = join(root, 'node_modules', name, 'build', 'Release');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.node'))) {
      saved.push({ path: join(dir, file), bytes: readFileSync(join(dir, file)) });
    }
  }
  return () => {
    for (const { path, bytes } of saved) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, bytes);
    }
  };
}

async function main() {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
  const { default: config } = await import('../electron-builder.config.mjs');
  const electron = JSON.parse(
    readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8'),
  );
  const { given, zips, from } = await preflight(config, electron.version);
  if (values.check) {
    console.log(`betdesk dist: Electron ${electron.version} from ${from}; ready to build.`);
    return;
  }

  const vite = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const built = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    fail(`electron-vite build failed (exit ${built.status}); its output is above.`);
  }

  const { build } = await import('electron-builder');
  const folder = zips === undefined ? undefined : zipFolder(zips);
  const electronDist = given ?? folder;
  const restoreNative = saveNative();
  const cleanUp = () => {
    restoreNative();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanUp();
    process.exit(130);
  });
  let failure;
  try {
    const artifacts = await build({
      projectDir: root,
      publish: 'never',
      config: electronDist === undefined ? config : { ...config, electronDist },
    });
    console.log(`betdesk dist: built ${artifacts.map((a) => basename(a)).join(', ')} in dist/`);
  } catch (error) {
    failure = error instanceof Error ? (error.stack ?? error.message) : String(error);
  } finally {
    cleanUp();
  }
  if (failure !== undefined) {
    console.error(failure);
    const first = failure.split('\n').find((line) => line.trim() !== '') ?? 'unknown error';
    const reason = first.trim().replace(/^Error: /, '');
    fail(`electron-builder failed: ${reason} (its log and the full error are above).`);
  }
}

await main();
