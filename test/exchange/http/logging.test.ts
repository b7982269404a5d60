/**
 * The exchange's log: what happens to the server at info, a line per request only at debug
 * (docs/sandbox.md, "Starting it": two lines per request at info cost more than the request).
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildExchangeApp } from '../../../src/exchange/app.js';
import { ErrorCodes } from '../../../src/shared/api/errors.js';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
}

/** An exchange whose pino log at `level` is collected as parsed lines. */
async function loggedExchange(level: string) {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line !== '') lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  const built = await buildExchangeApp({ rateLimits: false, logger: { level, stream } });
  return { ...built, lines };
}

describe('request logging', () => {
  it('writes no line per request at info', async () => {
    const { app, log, lines } = await loggedExchange('info');
    try {
      for (const url of ['/health', '/time', '/no-such-route']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode).toBeLessThan(500);
      }
      expect(lines.filter((l) => l.reqId !== undefined)).toEqual([]);
      // The log itself works: a line at info is there.
      log.info('marker');
      expect(lines.map((l) => l.msg)).toContain('marker');
    } finally {
      await app.close();
    }
  });

  it('writes "incoming request" and "request completed" at debug, with the request id', async () => {
    const { app, lines } = await loggedExchange('debug');
    try {
      const res = await app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(200);
      const perRequest = lines.filter((l) => l.reqId !== undefined);
      expect(perRequest.map((l) => [l.level, l.msg])).toEqual([
        [20, 'incoming request'],
        [20, 'request completed'],
      ]);
      expect(perRequest[0]?.reqId).toBe(perRequest[1]?.reqId);
    } finally {
      await app.close();
    }
  });

  it('still writes what happens to a request at info: an injected fault', async () => {
    const { app, faults, publicRoutes, lines } = await loggedExchange('info');
    try {
      faults.set(
        { route: 'GET /health', mode: 'error', code: ErrorCodes.INTERNAL, count: 1 },
        publicRoutes,
      );
      const res = await app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(500);
      expect(lines.map((l) => [l.level, l.msg])).toContainEqual([30, 'injected fault']);
    } finally {
      await app.close();
    }
  });
});
