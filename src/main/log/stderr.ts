/**
 * Where main's warnings go without a log file (tests, tools, a folder it may not write): stderr,
 * one `Betdesk: ...` line each. The one form of "the log, else stderr".
 */
import type { Logger } from '../../shared/log.js';

/** A logger with errors too: what the app's log (AppLog) is, and what stands in for it. */
export interface MainLogger extends Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function stderrLine(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** `log`, or when there is none, warnings and errors on stderr (debug and info dropped). */
export function orStderr(log: MainLogger | undefined): MainLogger {
  if (log) return log;
  const line = (msg: string, fields?: Record<string, unknown>) =>
    stderrLine(`Betdesk: ${msg}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  return { debug: () => {}, info: () => {}, warn: line, error: line };
}
