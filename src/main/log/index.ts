/** The main process's log: where it lives, how it is opened, and how secrets are kept out. */
export { openAppLog, type AppLog, type AppLogOptions, type LogRecord } from './app-log.js';
export { defaultLogsDir } from './dirs.js';
export { REDACTED, scrubText } from './redact.js';
export { orStderr, stderrLine, type MainLogger } from './stderr.js';
