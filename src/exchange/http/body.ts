/**
 * Request bodies: read as raw bytes (the signature covers them byte for byte), at most 1 MB of
 * them (docs/api.md 8 rule 1: the rest is read and dropped, not rejected), then parsed as JSON.
 * A body that is not JSON, or not sent as application/json, is not refused here: the problem is
 * recorded and reported as -1102 after authentication, so a bad signature still answers -1022
 * first.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { BODY_LIMIT_BYTES } from '../../shared/api/limits.js';
import { ApiError } from '../domain/errors.js';
import { ErrorCodes } from '../../shared/api/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body bytes as received (at most 1 MB), or null when the request had none. */
    rawBody: Buffer | null;
    /** Why the body could not be used, reported as -1102 once the request is authenticated. */
    bodyProblem: string | null;
  }
}

export function registerBodyParser(app: FastifyInstance, limit = BODY_LIMIT_BYTES): void {
  app.decorateRequest('rawBody', null);
  app.decorateRequest('bodyProblem', null);
  app.removeAllContentTypeParsers();
  const parser: ContentTypeParser = (request, payload, done) => {
    readTruncated(payload, limit, (err, raw) => {
      if (err) {
        done(err, undefined);
        return;
      }
      request.rawBody = raw;
      done(null, parseBody(request, raw));
    });
  };
  // The same parser twice: Fastify remembers which parser a Content-Type found, except the
  // catch-all's, which it looks for again on every request (parsing the header each time), so
  // the usual type is named.
  app.addContentTypeParser('application/json', parser);
  app.addContentTypeParser('*', parser);
}

type ContentTypeParser = (
  request: FastifyRequest,
  payload: Readable,
  done: (err: Error | null, body?: unknown) => void,
) => void;

function readTruncated(
  stream: Readable,
  limit: number,
  cb: (err: Error | null, raw: Buffer) => void,
): void {
  // Only anonymous closures here: this runs per request, and a named one costs a defineProperty
  // call per request under tsx (esbuild keepNames), which shows in the benchmark's profile.
  const chunks: Buffer[] = [];
  let kept = 0;
  let settled = false;
  stream.on('data', (chunk: Buffer | string) => {
    if (kept >= limit) return; // drained and dropped
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const room = limit - kept;
    const piece = buf.length > room ? buf.subarray(0, room) : buf;
    chunks.push(piece);
    kept += piece.length;
  });
  stream.on('end', () => {
    if (settled) return;
    settled = true;
    cb(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, kept));
  });
  stream.on('error', () => {
    if (settled) return;
    settled = true;
    // The caller went away mid-body (or the socket failed): a 4xx, not a fault of the exchange.
    cb(
      new ApiError(
        ErrorCodes.BAD_PARAMETER,
        'body: the connection failed while the body was being read',
      ),
      Buffer.alloc(0),
    );
  });
}

function parseBody(request: FastifyRequest, raw: Buffer): unknown {
  if (raw.length === 0) return undefined; // reported by the schema as a missing body, if needed
  const type = request.headers['content-type'];
  if (!isJsonType(type)) {
    request.bodyProblem = `Content-Type: must be application/json (got ${describeType(type)})`;
    return undefined;
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (err) {
    request.bodyProblem = `body: is not valid JSON (${(err as Error).message.slice(0, 120)})`;
    return undefined;
  }
}

function isJsonType(type: string | undefined): boolean {
  if (!type) return false;
  const semi = type.indexOf(';');
  const media = (semi === -1 ? type : type.slice(0, semi)).trim().toLowerCase();
  if (media !== 'application/json') return false;
  if (semi === -1) return true;
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(type.slice(semi));
  return !charset || /^utf-?8$/i.test(charset[1] ?? '');
}

function describeType(type: string | undefined): string {
  if (!type) return 'none';
  return type.length > 60 ? `${type.slice(0, 60)}...` : type;
}

/** Throws the recorded body problem, if any, as -1102. */
export function assertBodyUsable(request: FastifyRequest): void {
  if (request.bodyProblem !== null) {
    throw new ApiError(ErrorCodes.BAD_PARAMETER, request.bodyProblem);
  }
}
