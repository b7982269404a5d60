/**
 * The exchange's log (pino, JSON lines). By default it tells what happens to the server
 * (listening, stopping, internal errors, injected faults); a line for every request comes only
 * at debug level.
 *
 * Why: at info, Fastify's two synchronous JSON lines per request cost more than the request
 * itself (GET /health answered at 0.48x a bare Fastify hello-world, 55 against 29 µs of server
 * CPU with no logger; issue 10). Writing them asynchronously (pino.destination with sync: false)
 * would still build both lines on the server's core and could lose the last ones when the
 * process dies. Even a Fastify logger that writes nothing per request costs about 7 µs a request
 * (a child logger, and two listeners and two timestamps on every response), so above debug
 * Fastify gets no logger at all and the exchange writes its few lines through its own pino
 * instance. Every line is written synchronously: nothing is buffered, nothing is lost on exit.
 */
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { pino, type DestinationStream } from 'pino';

/** Where the log goes and from which level; false for no log at all. */
export type LogOption = false | { level: string; stream?: DestinationStream };

export interface ExchangeLog {
  /** The exchange's logger; undefined when there is no log. */
  log: FastifyBaseLogger | undefined;
  /** The logger Fastify gets: only when per-request lines are wanted. */
  fastifyLogger: FastifyBaseLogger | undefined;
  /** The logger for a line about one request (with its reqId when Fastify logs). */
  requestLog: (request: FastifyRequest) => FastifyBaseLogger;
}

export function exchangeLog(option: LogOption | undefined): ExchangeLog {
  if (option === undefined || option === false) {
    return { log: undefined, fastifyLogger: undefined, requestLog: (r) => r.log };
  }
  const log = pino({ level: option.level }, option.stream ?? process.stderr);
  if (log.isLevelEnabled('debug')) {
    return { log, fastifyLogger: log, requestLog: (r) => r.log };
  }
  return { log, fastifyLogger: undefined, requestLog: () => log };
}

/**
 * Fastify's per-request lines ("incoming request", "request completed", "Route ... not found")
 * at debug level instead of info; used when Fastify has a logger, i.e. at debug and trace.
 */
export class RequestLogAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error(
        { res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else {
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug(`Route ${request.raw.method}:${request.raw.url} not found`);
  }
}
