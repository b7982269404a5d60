/**
 * `npm run serve -- [--port N] [--data-dir DIR] [--logs-dir DIR]`: Betdesk in a browser. Serves
 * the built renderer (building it first when out/renderer is missing) and the bridge on 127.0.0.1,
 * then prints exactly one line on stdout,
 * `{"event":"listening","url":"http://127.0.0.1:PORT/?token=..."}`.
 * Everything else goes to stderr. SIGINT and SIGTERM stop the services and exit. The services
 * log to the app's rotating log file (src/main/log, the OS's logs folder unless --logs-dir or
 * BETDESK_LOGS_DIR says otherwise); its warnings and errors are also printed on stderr.
 *
 * The line goes out as soon as the page can be served: the services (the composition root, the
 * store, paper mode) are loaded and started while the browser loads the page. Its socket
 * connects at once, through the start gate (ipc/start-gate.ts): until the services are up it
 * answers where the start is (the start screen) and what the early bridge can (root/early.ts).
 * A phase of the start that lasts over a second is said on stderr (start/say.ts). Services that
 * cannot start are reported on stderr and the host exits 1.
 */
import { spawnSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../data/data-dir.js';
import { ExportDownloads } from '../export/downloads.js';
import type { Bridged } from '../ipc/handlers.js';
import type { Services } from '../root/services.js';
import { SAY_AFTER_MS, sayStart, StartTracker } from '../start/index.js';
import { defaultLogsDir } from '../log/dirs.js';
import type { AppLog } from '../log/index.js';
import { startHost } from './server.js';

/** The project folder: the nearest one up with a package.json (from src/main/host or out/main). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '../../..');
  }
}

const root = projectRoot(import.meta.dirname);
/** How long the services' start waits at most for the page to take its stored markets. */
const EARLY_FIRST_MS = 400;
/** How long the bridge's loading waits for a page's first script to go out. */
const PAGE_FIRST_MS = 150;

function fail(message: string): never {
  console.error(`betdesk serve: ${message}`);
  process.exit(2);
}

function options(): { port: number; dataDir: string; logsDir: string; build: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: process.env['BETDESK_PORT'] ?? '0' },
        'data-dir': { type: 'string' },
        'logs-dir': { type: 'string' },
        build: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    fail(`--port must be a whole number from 0 to 65535, not "${values.port}".`);
  }
  // The one data folder of the app, the host and the CLI (BETDESK_DATA_DIR, else the OS's).
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const logsDir = resolve(
    values['logs-dir'] || process.env['BETDESK_LOGS_DIR'] || defaultLogsDir(),
  );
  return { port, dataDir, logsDir, build: values.build };
}

function ensureRenderer(rendererDir: string, force: boolean): void {
  if (!force && existsSync(join(rendererDir, 'index.html'))) return;
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  console.error('betdesk serve: building the renderer (electron-vite build)...');
  // Its output goes to stderr: stdout carries only the listening line.
  const built = spawnSync(process.execPath, [cli, 'build'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0 || !existsSync(join(rendererDir, 'index.html'))) {
    fail('the renderer could not be built; run `npx electron-vite build` to see why.');
  }
}

/** Open once main has it, so a failure can be written to it. */
let appLog: AppLog | undefined;
/** What the host's own messages start with; the log's echo puts its own. */
const PREFIX = /^Betdesk(?: host)?: /;

/** The app's log; without one (a folder it may not write) the host goes on, on stderr only. */
async function openLog(dir: string): Promise<AppLog | undefined> {
  try {
    // Loaded once the address is out: pino and pino-roll take about 70 ms to load, which the
    // page's first request need not wait for.
    const { openAppLog } = await import('../log/app-log.js');
    return await openAppLog({ dir, echo: true });
  } catch (err) {
    console.error(`betdesk serve: no log file in ${dir} (${String(err)}); warnings go here only.`);
    return undefined;
  }
}

async function main(): Promise<void> {
  const opts = options();
  const rendererDir = join(root, 'out', 'renderer');
  ensureRenderer(rendererDir, opts.build);
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });

  // The start's progress from the first moment: the page's start screen and the lines below.
  const tracker = new StartTracker();
  // BETDESK_START_SAY_AFTER_MS=0 says every phase at once (the e2e test), as in the CLI.
  const afterMs = Number(process.env['BETDESK_START_SAY_AFTER_MS'] ?? SAY_AFTER_MS);
  const stopSaying = sayStart(tracker, {
    prefix: 'betdesk serve: ',
    write: (line) => process.stderr.write(`${line}\n`),
    ...(Number.isFinite(afterMs) ? { afterMs } : {}),
  });

  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const keychainService = process.env['BETDESK_KEYCHAIN_SERVICE'];
  // Exports are downloads the host streams; the services register them, the host serves them.
  const downloads = new ExportDownloads();
  // The services start once the log is open, which is once the address is out (below).
  let logOpened!: (log: AppLog | undefined) => void;
  const logReady = new Promise<AppLog | undefined>((resolve) => (logOpened = resolve));
  const starting: Promise<Services> = logReady.then((log) =>
    import('../root/services.js').then(({ createServices }) =>
      createServices({
        dataDir: opts.dataDir,
        host: 'browser',
        ...(keychainService ? { keychainService } : {}),
        versions: { app: pkg.version, node: process.versions.node, electron: null, chrome: null },
        exports: { kind: 'download', downloads },
        ...(log ? { log } : {}),
        start: tracker,
      }),
    ),
  );
  // Heard below, once the address is out; until then nothing may count it as unhandled.
  starting.catch(() => {});
  void starting.finally(stopSaying).catch(() => {});
  // The bridge the page's socket gets: the start gate (ipc/start-gate.ts), made once the address
  // is out, with the early bridge (root/early.ts): loading and reading those need not delay it.
  let openGate!: (bridge: Bridged) => void;
  const gate = new Promise<Bridged>((resolve) => (openGate = resolve));
  const host = await startHost({
    services: gate,
    rendererDir,
    port: opts.port,
    downloads,
    // Faults of the bridge and the pages: into the log (echoed on stderr), or on stderr alone
    // until the log is open.
    log: (message: string) =>
      appLog ? appLog.error(message.replace(PREFIX, '')) : console.error(message),
  });
  process.stdout.write(`${JSON.stringify({ event: 'listening', url: host.url })}\n`);
  // The page's first script goes out before the bridge is loaded (about 50 ms of the thread),
  // which then loads while the browser runs the script; no page within PAGE_FIRST_MS, no wait.
  await Promise.race([host.pageLoading, delay(PAGE_FIRST_MS)]);
  // The markets the store already holds answer while the services start (root/early.ts).
  const [{ earlyBridge }, { startGate }] = await Promise.all([
    import('../root/early.js'),
    import('../ipc/start-gate.js'),
  ]);
  const early = earlyBridge({ dataDir: opts.dataDir });
  openGate(startGate({ tracker, services: starting, early: early.handlers }));
  // A returning user's page gets the stored markets before the log and the services take the
  // thread, or after EARLY_FIRST_MS when no page asks for them yet (none: no wait).
  await Promise.race([early.answered, delay(EARLY_FIRST_MS)]);
  const log = (appLog = await openLog(opts.logsDir));
  // The page's address is a credential: no line of the log may carry it. Set before the first
  // line: nothing writes to the log before this.
  log?.conceal(host.token);
  logOpened(log);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`betdesk serve: ${signal}, stopping.`);
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    void host
      .close()
      .then(() => starting)
      .then((services) => services.stop())
      .then(() => log?.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(`betdesk serve: stopping failed: ${String(err)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  try {
    await starting;
  } catch (err) {
    stopping = true;
    await host.close();
    throw err;
  }
}

main().catch(async (err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`betdesk serve: ${message}`);
  appLog?.error('the browser host could not start', { reason: message });
  await appLog?.close();
  process.exit(1);
});
