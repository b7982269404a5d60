/**
 * Every answer an in-process exchange sends, by route and status, read off its HTTP server
 * (independent of the client under test), and the requests it has not answered yet.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface RequestLog {
  /** Answers seen since the counter started (or was reset): "GET /positions" -> count. */
  count(route: string, status?: number): number;
  /** Every answer with this HTTP status. */
  withStatus(status: number): number;
  /** Requests received and not yet answered or dropped (a latency fault holds them). */
  inFlight(): number;
  /** Forgets the answers seen; requests in flight stay counted. */
  reset(): void;
  detach(): void;
}

/** Counts every answer the server sends, by "METHOD /path" (query dropped) and status. */
export function countRequests(server: Server): RequestLog {
  let seen: { route: string; status: number }[] = [];
  let open = 0;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const route = `${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}`;
    open += 1;
    res.on('finish', () => seen.push({ route, status: res.statusCode }));
    // 'close' follows 'finish', and also comes alone when the connection is dropped unanswered.
    res.on('close', () => (open -= 1));
  };
  server.on('request', onRequest);
  return {
    count: (route, status) =>
      seen.filter((s) => s.route === route && (status === undefined || s.status === status)).length,
    withStatus: (status) => seen.filter((s) => s.status === status).length,
    inFlight: () => open,
    reset: () => {
      seen = [];
    },
    detach: () => server.off('request', onRequest),
  };
}
