/**
 * The browser host: the built renderer over HTTP and the bridge over a WebSocket, for running
 * Betdesk in a browser (and for the end-to-end tests). It listens on 127.0.0.1 only and answers
 * only someone who holds its random token: the page and the socket both need it, the socket also
 * needs our own Origin, and every request needs our own Host (against DNS rebinding).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { contentSecurityPolicy } from '../../shared/ipc/csp.js';
import { TOKEN_PARAM, WS_PATH } from '../../shared/ipc/ws-protocol.js';
import type { ExportDownloads } from '../export/downloads.js';
import type { Bridged } from '../ipc/handlers.js';
import { stderrLine } from '../log/stderr.js';
import { contentTypeOf, rendererFile } from './renderer-files.js';
import { downloadId, serveDownload } from './download-route.js';
import { WsIpcTransport } from './ws-transport.js';

export interface HostOptions {
  /**
   * The services behind the bridge, or the promise of them: the host then listens and serves
   * the page at once, and lets a socket in once they are ready (`npm run serve` starts them
   * while the browser loads the page).
   */
  services: Bridged | Promise<Bridged>;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Random when absent. */
  token?: string;
  validateOutput?: boolean;
  log?: (message: string) => void;
  /**
   * The exports the page downloads (`/export/<id>.csv`): the same object the services got as
   * their export destination. The host attaches its token to it.
   */
  downloads?: ExportDownloads;
}

export interface RunningHost {
  /** The address to open, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /**
   * Settles once a page's first script has been sent: the host may then take the thread for
   * longer work while the browser runs the script (serve.ts).
   */
  pageLoading: Promise<void>;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const LOOPBACK = new Set(['127.0.0.1', '::ffff:127.0.0.1', '::1']);
const MAX_FRAME_BYTES = 1024 * 1024;

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const log = options.log ?? stderrLine;
  const token = options.token ?? randomBytes(24).toString('base64url');
  const transport = new WsIpcTransport(log);
  // The bridge (the handlers and the contract's validators) is loaded only once the services
  // are there, so the address is out before either.
  const bridge = Promise.resolve(options.services).then(async (services) => {
    const { registerHandlers } = await import('../ipc/handlers.js');
    return registerHandlers(transport, services, {
      validateOutput: options.validateOutput ?? true,
      log,
    });
  });
  // Whoever gave the services hears of their failure; here a socket is just refused.
  bridge.catch(() => {});
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  let scriptServed!: () => void;
  const pageLoading = new Promise<void>((resolve) => (scriptServed = resolve));

  let port = 0;
  const origins = () => [`http://${HOST}:${port}`, `http://localhost:${port}`];
  const hostOk = (req: IncomingMessage) =>
    origins().some((o) => o === `http://${req.headers.host ?? ''}`);

  const server = createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => {
      log(`Betdesk host: ${req.method ?? '?'} failed: ${String(err)}`);
      if (!res.headersSent) send(res, 500, 'Betdesk could not serve this page.');
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const remote = req.socket.remoteAddress ?? '';
    if (!LOOPBACK.has(remote) || !hostOk(req)) {
      send(res, 403, 'Betdesk answers only its own address on this computer.');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      send(res, 405, 'Betdesk serves pages with GET only.');
      return;
    }
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    const exportId = downloadId(url.pathname);
    if (exportId !== null) {
      await serveDownload(req, res, exportId, {
        downloads: options.downloads,
        tokenOk: tokenMatches(url.searchParams.get(TOKEN_PARAM), token),
        send,
      });
      return;
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (!tokenMatches(url.searchParams.get(TOKEN_PARAM), token)) {
        send(res, 403, 'Open Betdesk with the address it printed, including its token.');
        return;
      }
      const html = await readFile(join(options.rendererDir, 'index.html'));
      securityHeaders(res, port);
      res.writeHead(200, {
        'Content-Type': contentTypeOf('index.html'),
        'Cache-Control': 'no-store',
        'Content-Length': html.length,
      });
      res.end(req.method === 'HEAD' ? undefined : html);
      return;
    }
    // The built scripts and styles hold no data, so they need no token.
    const file = rendererFile(options.rendererDir, url.pathname);
    const info = file ? await stat(file).catch(() => null) : null;
    if (!file || !info?.isFile()) {
      send(res, 404, 'There is no such page in Betdesk.');
      return;
    }
    securityHeaders(res, port);
    res.writeHead(200, {
      'Content-Type': contentTypeOf(file),
      'Content-Length': info.size,
      'Cache-Control': 'no-cache',
    });
    if (file.endsWith('.js')) res.once('finish', scriptServed);
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    const remote = req.socket.remoteAddress ?? '';
    const allowed =
      LOOPBACK.has(remote) &&
      hostOk(req) &&
      url.pathname === WS_PATH &&
      origins().includes(req.headers.origin ?? '') &&
      tokenMatches(url.searchParams.get(TOKEN_PARAM), token);
    if (!allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // Every call is checked and answered by the bridge: no socket before it is ready.
    bridge.then(
      () => {
        if (!socket.destroyed) wss.handleUpgrade(req, socket, head, (ws) => transport.attach(ws));
      },
      () => socket.destroy(),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://${HOST}:${port}`;
  const detachDownloads = options.downloads?.attach(token);

  return {
    url: `${origin}/?${TOKEN_PARAM}=${encodeURIComponent(token)}`,
    origin,
    port,
    token,
    pageLoading,
    async close() {
      detachDownloads?.();
      const unregister = await bridge.catch(() => undefined);
      unregister?.();
      transport.closeAll();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function tokenMatches(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function securityHeaders(res: ServerResponse, port: number): void {
  res.setHeader(
    'Content-Security-Policy',
    contentSecurityPolicy({ connect: [`ws://${HOST}:${port}`, `ws://localhost:${port}`] }),
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The page's address carries the token: never send it anywhere as a referrer.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(text);
}
