/**
 * The one logger shape the services take (client, sync, trading, alerts): three levels, a
 * message and optional structured fields. A caller that wants no logs passes `silentLogger`.
 */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

/** Drops every line: the default of each service that takes a logger. */
export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {} };
