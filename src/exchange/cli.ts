/**
 * `npm run --silent exchange -- [options]`: the sandbox exchange as a standalone server.
 * Standard output carries exactly one line, {"event":"listening","url":...}, once it listens;
 * logs (JSON, pino) go to standard error. SIGTERM and SIGINT stop it within 2 seconds.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_PRICE_BUDGET_PER_SECOND } from '../shared/api/limits.js';
import { startExchange, type ExchangeAppOptions } from './app.js';

const USAGE = `Usage: npm run --silent exchange -- [options]

  --host H            address to listen on (default 127.0.0.1)
  --port N            port, 0 picks a free one (default 8787)
  --admin-token T     enable the /sandbox control API for "Authorization: Bearer T"
  --block-ms N        simulated block time in ms (default 1000)
  --seed N            seed of the generated fixtures and prices (default 1)
  --no-rate-limits    turn every rate limit off (load benchmarks only)
  --price-budget N    shared price-feed budget, cost units per second (default ${DEFAULT_PRICE_BUDGET_PER_SECOND})
  --data FILE         keep the exchange state in this SQLite file
  --log-level L       fatal, error, warn, info (default), debug, trace or silent
  -h, --help          show this help
`;

export interface CliOptions extends ExchangeAppOptions {
  host: string;
  port: number;
  logLevel: string;
}

class UsageError extends Error {}

function integer(
  name: string,
  raw: string | undefined,
  min: number,
  max: number,
  fallback: number,
): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

/** Parses the command line; throws UsageError with a readable message. */
export function parseCli(argv: string[]): CliOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'admin-token': { type: 'string' },
        'block-ms': { type: 'string' },
        seed: { type: 'string' },
        'no-rate-limits': { type: 'boolean' },
        'price-budget': { type: 'string' },
        data: { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new UsageError('--host must not be empty');
  const token = values['admin-token'];
  if (token !== undefined && token.length === 0) {
    throw new UsageError('--admin-token must not be empty');
  }
  const logLevel = values['log-level'] ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new UsageError(
      `--log-level must be one of fatal, error, warn, info, debug, trace, silent`,
    );
  }
  const data = values.data;
  if (data !== undefined && data.trim() === '') throw new UsageError('--data must name a file');
  return {
    host,
    port: integer('port', values.port, 0, 65535, 8787),
    ...(token !== undefined ? { adminToken: token } : {}),
    blockMs: integer('block-ms', values['block-ms'], 0, 3_600_000, 1000),
    seed: integer('seed', values.seed, 0, 2 ** 31 - 1, 1),
    rateLimits: values['no-rate-limits'] !== true,
    priceBudget: integer(
      'price-budget',
      values['price-budget'],
      1,
      1_000_000_000,
      DEFAULT_PRICE_BUDGET_PER_SECOND,
    ),
    ...(data !== undefined ? { dataFile: data } : {}),
    logLevel,
  };
}

async function main(): Promise<void> {
  let opts: CliOptions | 'help';
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`exchange: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (opts === 'help') {
    process.stderr.write(USAGE);
    return;
  }

  const { logLevel, ...appOpts } = opts;
  let running;
  try {
    running = await startExchange({
      ...appOpts,
      // Silent means no logger at all, not a logger that drops everything (cheaper per request).
      // Per-request lines are debug-level (see http/logging.ts) and every line is written
      // synchronously: the "stopping" line and any error are on stderr before process.exit
      // below, with nothing buffered to flush or lose.
      logger: logLevel === 'silent' ? false : { level: logLevel, stream: process.stderr },
    });
  } catch (err) {
    process.stderr.write(`exchange: could not start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify({ event: 'listening', url: running.url })}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.log.info({ signal }, 'stopping');
    // Never take longer than 2 s, whatever a connection or the state file does.
    const deadline = setTimeout(() => process.exit(0), 1_800);
    deadline.unref();
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        running.log.error({ err }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGHUP', () => stop('SIGHUP'));
  // `npm run exchange` dies on SIGTERM without passing it on, which would orphan this server.
  // A new parent means whoever started us is gone: stop as if we had been signalled.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('parent exited');
  }, 250).unref();
}

await main();
