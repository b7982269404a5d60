/**
 * Every failure answers `{code, msg}` (docs/api.md 7). Bad input of any kind is -1102 with a 4xx
 * status and never a 5xx; only a fault of the exchange itself is -1000 with 500.
 */
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../domain/errors.js';
import { ErrorCodes } from '../../shared/api/errors.js';

export function registerErrorHandling(
  app: FastifyInstance,
  requestLog: (request: FastifyRequest) => FastifyBaseLogger = (request) => request.log,
): void {
  app.setErrorHandler((err: FastifyError | ApiError | Error, request, reply) => {
    const api = toApiError(err);
    if (api.code === ErrorCodes.INTERNAL) {
      requestLog(request).error({ err }, 'internal error');
    } else if (api.status >= 500) {
      requestLog(request).warn({ code: api.code, msg: api.message }, 'upstream error answered');
    }
    reply.code(api.status);
    for (const [name, value] of Object.entries(api.headers)) reply.header(name, value);
    return api.toBody();
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    reply.code(404);
    return {
      code: ErrorCodes.BAD_PARAMETER,
      msg: `No endpoint ${request.method} ${truncate(path, 200)}; the endpoints are listed at GET /docs`,
    };
  });
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as Partial<FastifyError> & Error;
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(ErrorCodes.BAD_PARAMETER, `Content-Type: must be application/json`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(ErrorCodes.BAD_PARAMETER, 'body: is larger than 1 MB');
    case 'FST_ERR_CTP_INVALID_TYPE':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(ErrorCodes.BAD_PARAMETER, `body: ${e.message}`);
    default:
      break;
  }
  if (status >= 400 && status < 500) {
    return new ApiError(ErrorCodes.BAD_PARAMETER, truncate(e.message || 'malformed request', 300));
  }
  return new ApiError(
    ErrorCodes.INTERNAL,
    'Internal error; the outcome of a write is unknown, read it back.',
    { status: 500 },
  );
}

/**
 * Errors of the HTTP parser itself (malformed request line or headers, headers too large, a
 * request not received within requestTimeout) never reach Fastify's routes: answer them here in
 * the same `{code, msg}` shape, then close the connection as Node does.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let msg = 'Malformed HTTP request (request line or headers)';
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    msg = 'The request was not received in time';
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    msg = 'headers: larger than the 16 KB the exchange reads';
  }
  const body = JSON.stringify({ code: ErrorCodes.BAD_PARAMETER, msg });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Api-Version: 0\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}...` : s;
}
