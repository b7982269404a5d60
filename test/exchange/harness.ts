/**
 * Test harness for the sandbox exchange, shared by every test that needs a real exchange: the
 * exchange's own HTTP tests, and the app's (client, governor, sync, trading, CLI) which talk to
 * it as the app does in paper mode. Not a mock: the real exchange, in-process, on a real socket.
 *
 *   const sb = await startSandbox();                 // in-process, real socket on 127.0.0.1:0
 *   const trader = await sb.newKey({ permission: 'trade' });
 *   const res = await sb.signed(trader, 'POST', '/order/rfq', { body: {...} });  // over HTTP
 *   const res2 = await sb.signedInject(trader, 'GET', '/orders', { query: { limit: 5 } });
 *   await sb.admin('POST', '/faults', {...});        // control API; throws unless 2xx
 *   await sb.close();
 *
 * Signing here is deliberately independent of the exchange's own code: node:crypto HMAC over
 * the string of docs/api.md 5.2, so a test signs the way any client would.
 */
import type { FastifyInstance } from 'fastify';
import { createHmac } from 'node:crypto';
import { request as undiciRequest } from 'undici';
import { startExchange, type ExchangeAppOptions } from '../../src/exchange/app.js';
import type { ExchangeDomain, Permission } from '../../src/exchange/domain/contract.js';

export const ADMIN_TOKEN = 'test-admin-token';

export interface Credentials {
  apiKey: string;
  secret: string;
  wallet: string;
  permission: Permission;
  expiresAt: number | null;
}

export interface SignOptions {
  /** Query parameters, sent and signed in this order. Or a raw query string (no "?"). */
  query?: Record<string, string | number | boolean | undefined> | string;
  /** A JSON value, serialized once; or a string / Buffer sent as is. */
  body?: unknown;
  /** Overrides: e.g. a stale timestamp, an odd recv window, a wrong signature. */
  timestamp?: number | string;
  recvWindow?: number | string;
  signature?: string;
  /** Extra or replacing headers (e.g. content-type, x-api-version). */
  headers?: Record<string, string>;
  /** Remote address for inject (ipRestrictions tests). */
  remoteAddress?: string;
}

export interface SignedRequest {
  method: string;
  /** Path plus query string, as sent. */
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

export function hmacHex(secret: string, message: string | Buffer): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

export function queryString(query: SignOptions['query']): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query;
  return Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

/** Builds a signed request as a client would: the bytes signed are the bytes sent. */
export function signRequest(
  creds: Pick<Credentials, 'apiKey' | 'secret'>,
  method: string,
  path: string,
  now: number,
  opts: SignOptions = {},
): SignedRequest {
  const qs = queryString(opts.query);
  let body: string | Buffer | undefined;
  if (opts.body !== undefined) {
    body =
      typeof opts.body === 'string' || Buffer.isBuffer(opts.body)
        ? opts.body
        : JSON.stringify(opts.body);
  }
  const timestamp = String(opts.timestamp ?? now);
  const recvWindow = String(opts.recvWindow ?? 5000);
  const payload = body !== undefined && body.length > 0 ? body : qs;
  const prefix = `${timestamp}${creds.apiKey}${recvWindow}${method.toUpperCase()}${path}`;
  const signature =
    opts.signature ??
    createHmac('sha256', creds.secret).update(prefix).update(payload).digest('hex');
  const headers: Record<string, string> = {
    'x-api-key': creds.apiKey,
    'x-timestamp': timestamp,
    'x-recv-window': recvWindow,
    'x-signature': signature,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, opts.headers ?? {});
  return { method, url: qs ? `${path}?${qs}` : path, headers, body };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface Sandbox {
  /** Base URL of the real socket, e.g. http://127.0.0.1:54321 */
  url: string;
  app: FastifyInstance;
  domain: ExchangeDomain;
  adminToken: string;
  /** Exchange clock (what X-Timestamp is compared with). */
  now(): number;
  /** A control API call through inject; any path, and the answer whatever its status. */
  control<T = unknown>(
    method: 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<HttpAnswer<T>>;
  /** A control API call (`path` under /sandbox) that throws unless it answers 2xx; its body. */
  admin<T = unknown>(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>;
  createWallet(): Promise<string>;
  /** Creates a key (and a wallet, unless one is given). Trade keys expire in a day by default. */
  newKey(opts?: {
    wallet?: string;
    permission?: Permission;
    expiresAt?: number;
    ipRestrictions?: string[];
  }): Promise<Credentials>;
  /** A fresh wallet with a key of the given permission (trade keys expire in a day). */
  newAccount(permission?: 'read' | 'trade'): Promise<Credentials>;
  /** The first seeded fixture open for betting. */
  openFixture(): Promise<{ contractId: string; homeTeam: string; awayTeam: string }>;
  advanceClock(ms: number): Promise<void>;
  /** A signed request over the real socket (undici). */
  signed<T = unknown>(
    creds: Credentials,
    method: string,
    path: string,
    opts?: SignOptions,
  ): Promise<HttpAnswer<T>>;
  /** The same request through app.inject (no socket). */
  signedInject<T = unknown>(
    creds: Credentials,
    method: string,
    path: string,
    opts?: SignOptions,
  ): Promise<HttpAnswer<T>>;
  /** An unsigned request over the real socket. */
  get<T = unknown>(path: string, headers?: Record<string, string>): Promise<HttpAnswer<T>>;
  close(): Promise<void>;
}

/**
 * Counts the placements the domain has received and not yet decided: a latency fault holds one
 * inside the exchange after the client has given up on its answer. Wait for `pending() === 0`
 * instead of guessing how long the hold lasts.
 */
export function trackPlacements(domain: ExchangeDomain): { pending(): number } {
  let pending = 0;
  const place = domain.placeOrder.bind(domain);
  domain.placeOrder = (...args) => {
    pending += 1;
    return place(...args).finally(() => (pending -= 1));
  };
  return { pending: () => pending };
}

export async function startSandbox(opts: ExchangeAppOptions = {}): Promise<Sandbox> {
  const adminToken = opts.adminToken ?? ADMIN_TOKEN;
  const running = await startExchange({ ...opts, adminToken, port: 0 });
  const { app, domain, url } = running;

  // Two identical requests signed in the same millisecond carry the same signature, and the
  // second is a replay (-1022). Like a careful client, the harness never reuses a timestamp.
  let lastTimestamp = 0;
  const stamp = () => {
    lastTimestamp = Math.max(domain.now(), lastTimestamp + 1);
    return lastTimestamp;
  };

  const sb: Sandbox = {
    url,
    app,
    domain,
    adminToken,
    now: () => domain.now(),

    async control<T>(method: 'POST' | 'DELETE', path: string, body?: unknown) {
      const res = await app.inject({
        method,
        url: path,
        headers: {
          authorization: `Bearer ${adminToken}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      return {
        status: res.statusCode,
        headers: res.headers,
        body: parse(res.body) as T,
        text: res.body,
      };
    },

    async admin<T>(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
      const res = await sb.control<T>(method, `/sandbox${path}`, body);
      if (res.status >= 300) {
        throw new Error(`control ${method} ${path} answered ${res.status}: ${res.text}`);
      }
      return res.body;
    },

    async createWallet() {
      const res = await sb.control<{ wallet: string }>('POST', '/sandbox/wallets');
      if (res.status !== 201) throw new Error(`createWallet: ${res.status} ${res.text}`);
      return res.body.wallet;
    },

    async newKey(o = {}) {
      const wallet = o.wallet ?? (await sb.createWallet());
      const permission = o.permission ?? 'trade';
      const expiresAt =
        o.expiresAt ?? (permission === 'trade' ? domain.now() + 86_400_000 : undefined);
      const res = await sb.control<Omit<Credentials, 'wallet'>>('POST', '/sandbox/keys', {
        wallet,
        permission,
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        ...(o.ipRestrictions ? { ipRestrictions: o.ipRestrictions } : {}),
      });
      if (res.status !== 201) throw new Error(`newKey: ${res.status} ${res.text}`);
      return { ...res.body, wallet };
    },

    newAccount: (permission = 'trade') => sb.newKey({ permission }),

    async openFixture() {
      const res = await sb.get<{
        fixtures: { contractId: string; homeTeam: string; awayTeam: string }[];
      }>('/fixtures?bettingOpen=true&limit=1');
      const f = res.body.fixtures[0];
      if (!f) throw new Error('the sandbox has no fixture open for betting');
      return { contractId: f.contractId, homeTeam: f.homeTeam, awayTeam: f.awayTeam };
    },

    async advanceClock(ms: number) {
      const res = await sb.control('POST', '/sandbox/clock', { advanceMs: ms });
      if (res.status !== 200) throw new Error(`advanceClock: ${res.status} ${res.text}`);
    },

    async signed<T>(creds: Credentials, method: string, path: string, o: SignOptions = {}) {
      const req = signRequest(creds, method, path, stamp(), o);
      const res = await undiciRequest(url + req.url, {
        method: req.method as 'GET' | 'POST',
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, body: parse(text) as T, text };
    },

    async signedInject<T>(creds: Credentials, method: string, path: string, o: SignOptions = {}) {
      const req = signRequest(creds, method, path, stamp(), o);
      const res = await app.inject({
        method: req.method as 'GET' | 'POST',
        url: req.url,
        headers: req.headers,
        ...(req.body !== undefined ? { payload: req.body } : {}),
        ...(o.remoteAddress !== undefined ? { remoteAddress: o.remoteAddress } : {}),
      });
      return {
        status: res.statusCode,
        headers: res.headers,
        body: parse(res.body) as T,
        text: res.body,
      };
    },

    async get<T>(path: string, headers: Record<string, string> = {}) {
      const res = await undiciRequest(url + path, { method: 'GET', headers });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, body: parse(text) as T, text };
    },

    close: () => running.close(),
  };
  return sb;
}
