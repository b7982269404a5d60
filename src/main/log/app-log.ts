/**
 * The main process's log: pino writing JSON lines to a file that pino-roll rotates by size and by
 * day (`betdesk.2026-11-26.1.log`, the newest few kept), at info level, with secrets redacted
 * before a byte reaches the file (redact.ts). The app, the browser host and the services write
 * to one; warnings and errors can also be echoed to stderr as one `Betdesk: ...` line each.
 */
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pino, type Level } from 'pino';
import roll from 'pino-roll';
import { redactPaths, REDACTED, safeFields, scrubText } from './redact.js';
import { stderrLine, type MainLogger } from './stderr.js';

/** A warning or error as diagnostics show it: already redacted. */
export interface LogRecord {
  /** ISO 8601. */
  time: string;
  level: 'warn' | 'error';
  msg: string;
  fields?: Record<string, unknown>;
}

export interface AppLog extends MainLogger {
  /** The logs folder. */
  readonly dir: string;
  /** The file written now (it changes when the log rotates). */
  readonly file: string;
  /** The last warnings and errors of this run, oldest first, redacted as written. */
  recentErrors(): readonly LogRecord[];
  /** Never writes `value` (a secret, the host's token): replaced wherever it shows up in a line. */
  conceal(value: string): void;
  /** The text as a log line would be written: concealed values and secret-shaped runs removed. */
  redact(text: string): string;
  /** Writes what is buffered and closes the file; later lines are dropped. */
  close(): Promise<void>;
}

export interface AppLogOptions {
  dir: string;
  /** Default info. */
  level?: Level;
  /** Also write warnings and errors to stderr (or to this function), one line each. */
  echo?: boolean | ((line: string) => void);
  /** Size at which the file rotates, in pino-roll's words ('5m', '512k'). Default 5 MB. */
  size?: string;
  /** How many files are kept. Default 5. */
  count?: number;
}

/** The file name before pino-roll's `.<date>.<n>.log`. */
const BASE_NAME = 'betdesk';
const DATE_FORMAT = 'yyyy-MM-dd';
const FILE_PATTERN = /^betdesk\.(\d{4}-\d{2}-\d{2})\.(\d+)\.log$/;
const RECENT_ERRORS = 20;
const WARN = 40;
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export async function openAppLog(options: AppLogOptions): Promise<AppLog> {
  const dir = resolve(options.dir);
  const count = options.count ?? 5;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // pino-roll prunes only when it rotates: an app started each morning and quit each evening
  // never rotates by day, so the files of earlier runs are pruned here.
  await pruneOldFiles(dir, count - 1);
  const destination = await roll({
    file: join(dir, BASE_NAME),
    extension: '.log',
    size: options.size ?? '5m',
    frequency: 'daily',
    dateFormat: DATE_FORMAT,
    limit: { count, removeOtherLogFiles: true },
    mkdir: true,
    // While the disk is full, lines wait in memory for the next write; past this they are dropped.
    maxLength: MAX_BUFFERED_BYTES,
    // The user's own: account labels and exchange addresses are nobody else's business.
    mode: 0o600,
  });

  const echo = echoTo(options.echo);
  const concealed = new Set<string>();
  const recent: LogRecord[] = [];
  let closed = false;
  let failed = false;
  destination.on('error', (err: Error) => {
    // A full disk must not stop the app: say so once, go on without the file.
    if (failed) return;
    failed = true;
    (echo ?? stderrLine)(`Betdesk: the log file could not be written: ${err.message}`);
  });

  const logger = pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactPaths(), censor: REDACTED },
      hooks: {
        // The last line of defence: whatever got past the fields' redaction.
        streamWrite: (line) => {
          const safe = scrubText(line, concealed);
          remember(safe, recent);
          return safe;
        },
      },
    },
    destination,
  );

  const write = (level: 'debug' | 'info' | 'warn' | 'error') => {
    return (msg: string, fields?: Record<string, unknown>) => {
      if (closed) return;
      const safe = fields === undefined ? undefined : safeFields(fields);
      logger[level](safe ?? {}, msg);
      if (echo && (level === 'warn' || level === 'error')) {
        // A sentence that already names Betdesk ("Betdesk found its store damaged…") needs no prefix.
        const said = /^Betdesk\b/.test(msg) ? msg : `Betdesk: ${msg}`;
        echo(scrubText(`${said}${safe ? ` ${JSON.stringify(safe)}` : ''}`, concealed));
      }
    };
  };

  return {
    dir,
    get file() {
      return destination.file;
    },
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    recentErrors: () => recent.slice(),
    redact: (text) => scrubText(text, concealed),
    conceal: (value) => {
      if (value.length >= 4) concealed.add(value);
    },
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise<void>((done) => {
        destination.once('close', () => done());
        // end() writes what is buffered first. When that write fails (a full disk), SonicBoom
        // would never close: the lines it holds are dropped and the file closed without them.
        destination.once('error', () => destination.destroy());
        destination.end();
      });
    },
  };
}

function echoTo(echo: AppLogOptions['echo']): ((line: string) => void) | undefined {
  if (typeof echo === 'function') return echo;
  return echo === true ? stderrLine : undefined;
}

/** Keeps the line's record when it is a warning or an error. */
function remember(line: string, recent: LogRecord[]): void {
  const level = /^\{"level":(\d+)/.exec(line);
  if (!level || Number(level[1]) < WARN) return;
  try {
    const {
      level: n,
      time,
      pid: _pid,
      msg,
      ...fields
    } = JSON.parse(line) as Record<string, unknown>;
    const record: LogRecord = {
      time: String(time),
      level: Number(n) >= 50 ? 'error' : 'warn',
      msg: typeof msg === 'string' ? msg : '',
    };
    if (Object.keys(fields).length > 0) record.fields = fields;
    recent.push(record);
    if (recent.length > RECENT_ERRORS) recent.shift();
  } catch {
    // Not one JSON line: nothing to keep.
  }
}

/** Removes all but the newest `keep` log files of earlier runs. */
async function pruneOldFiles(dir: string, keep: number): Promise<void> {
  const files = (await readdir(dir))
    .map((name) => ({ name, match: FILE_PATTERN.exec(name) }))
    .filter((f) => f.match !== null)
    .sort((a, b) => {
      const byDate = a.match![1]!.localeCompare(b.match![1]!);
      return byDate !== 0 ? byDate : Number(a.match![2]) - Number(b.match![2]);
    });
  const old = files.slice(0, Math.max(0, files.length - keep));
  await Promise.allSettled(old.map((f) => unlink(join(dir, f.name))));
}
