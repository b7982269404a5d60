/**
 * The sandbox exchange as a Fastify app: the domain (state and rules) behind the HTTP layer
 * (authentication, rate limits, validation, faults, documentation). `buildExchangeApp` gives an
 * app ready for `inject` or `listen`; `startExchange` also listens and reports its URL.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_PRICE_BUDGET_PER_SECOND } from '../shared/api/limits.js';
import type { ExchangeDomain } from './domain/contract.js';
import { createDomain } from './domain/index.js';
import { Authenticator } from './http/auth.js';
import { registerBodyParser } from './http/body.js';
import { adminCheck, controlRoutes } from './http/control.js';
import { clientErrorHandler, registerErrorHandling } from './http/errors.js';
import { FaultTable } from './http/faults.js';
import { serializeOnFirstUse, validateOnFirstUse } from './http/first-use.js';
import { exchangeLog, type LogOption, RequestLogAtDebug } from './http/logging.js';
import { registerPipeline } from './http/pipeline.js';
import { RateLimiter } from './http/rate-limits.js';
import { accountRoutes } from './http/routes/account.js';
import { fixtureRoutes } from './http/routes/fixtures.js';
import { systemRoutes } from './http/routes/system.js';
import { tradingRoutes } from './http/routes/trading.js';
import { registerSharedSchemas } from './http/schemas.js';
import { validatorCompiler } from './http/validation.js';

export interface ExchangeAppOptions {
  /** Use this domain instead of creating one (the caller then owns and closes it). */
  domain?: ExchangeDomain;
  /** Seed of the generated fixtures and prices (default 1). */
  seed?: number;
  /** Simulated block time in ms (default 1000). */
  blockMs?: number;
  /** SQLite file holding the state; in memory when absent. */
  dataFile?: string;
  /** Enables the /sandbox control API for `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** The rate limits of docs/api.md 8.1 (default on). */
  rateLimits?: boolean;
  /** Capacity of the shared price-feed budget, cost units per second. */
  priceBudget?: number;
  /** The log: its level and stream (pino, JSON lines); none by default. See http/logging.ts. */
  logger?: LogOption;
  /** Whole-request timeout in ms (default 30 s). */
  requestTimeoutMs?: number;
  /**
   * Started inside Betdesk (paper mode): no /docs, /openapi.yaml or /swagger (nothing links to
   * them; their modules are not even loaded), and each route's schemas compiled on its first
   * request instead of at start (http/first-use.ts).
   */
  embedded?: boolean;
}

export interface ExchangeApp {
  app: FastifyInstance;
  domain: ExchangeDomain;
  /** The injected faults of /sandbox/faults, for an in-process owner (paper mode's practice). */
  faults: FaultTable;
  /** "METHOD /path" of every public route: the routes a fault may name. */
  publicRoutes: ReadonlySet<string>;
  /** The exchange's log (Fastify's own logger when there is none). */
  log: FastifyBaseLogger;
}

/** Apps whose Fastify has the logger, and so logs its own "Server listening at" line. */
const fastifyLogs = new WeakSet<FastifyInstance>();

export async function buildExchangeApp(opts: ExchangeAppOptions = {}): Promise<ExchangeApp> {
  const ownsDomain = opts.domain === undefined;
  const domain =
    opts.domain ??
    (await createDomain({
      seed: opts.seed ?? 1,
      blockMs: opts.blockMs ?? 1000,
      ...(opts.dataFile !== undefined ? { dataFile: opts.dataFile } : {}),
    }));

  const requestTimeout = opts.requestTimeoutMs ?? 30_000;
  const logs = exchangeLog(opts.logger);
  const app = Fastify({
    // Fastify logs only when per-request lines are wanted (debug, trace): see http/logging.ts.
    ...(logs.fastifyLogger !== undefined
      ? { loggerInstance: logs.fastifyLogger }
      : { logger: false }),
    logController: new RequestLogAtDebug(),
    // Headers and a body must arrive within requestTimeout; an idle keep-alive socket is closed.
    connectionTimeout: requestTimeout * 2,
    requestTimeout,
    keepAliveTimeout: 10_000,
    maxRequestsPerSocket: 0,
    forceCloseConnections: true,
    return503OnClosing: true,
    exposeHeadRoutes: false,
    clientErrorHandler,
    routerOptions: { maxParamLength: 256 },
    ...(opts.embedded === true ? { schemaController: serializeOnFirstUse() } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(
    opts.embedded === true ? validateOnFirstUse(validatorCompiler) : validatorCompiler,
  );
  if (logs.fastifyLogger !== undefined) fastifyLogs.add(app);

  const rateLimits = opts.rateLimits ?? true;
  const priceBudget = opts.priceBudget ?? DEFAULT_PRICE_BUDGET_PER_SECOND;
  const faults = new FaultTable();
  const publicRoutes = new Set<string>();
  app.addHook('onRoute', (route) => {
    const key = route.config?.routeKey;
    if (key !== undefined && route.config?.control !== true) publicRoutes.add(key);
  });

  registerBodyParser(app);
  registerErrorHandling(app, logs.requestLog);
  registerSharedSchemas(app);
  registerPipeline(app, {
    domain,
    auth: new Authenticator(domain),
    limiter: rateLimits ? new RateLimiter(priceBudget) : undefined,
    faults,
    checkAdmin: opts.adminToken !== undefined ? adminCheck(opts.adminToken) : undefined,
    requestLog: logs.requestLog,
  });

  const docs = opts.embedded !== true;
  if (docs) await (await import('./http/openapi.js')).registerOpenApi(app);
  await app.register(systemRoutes, { domain });
  await app.register(fixtureRoutes, { domain });
  await app.register(tradingRoutes, { domain });
  await app.register(accountRoutes, { domain });
  if (docs) {
    await app.register((await import('./http/docs.js')).docsRoutes, {
      rateLimits,
      priceBudget,
      controlApi: opts.adminToken !== undefined,
    });
  }
  if (opts.adminToken !== undefined) {
    await app.register(controlRoutes, { prefix: '/sandbox', domain, faults, publicRoutes });
  }

  if (ownsDomain) app.addHook('onClose', async () => domain.close());
  await app.ready();
  return { app, domain, faults, publicRoutes, log: logs.log ?? app.log };
}

export interface RunningExchange extends ExchangeApp {
  url: string;
  close(): Promise<void>;
}

/** Builds the app and listens on `host:port` (port 0 picks a free one). */
export async function startExchange(
  opts: ExchangeAppOptions & { host?: string; port?: number } = {},
): Promise<RunningExchange> {
  const built = await buildExchangeApp(opts);
  const host = opts.host ?? '127.0.0.1';
  await built.app.listen({ host, port: opts.port ?? 8787 });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 8787);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;
  // Fastify says so itself when it has the logger (debug, trace).
  if (!fastifyLogs.has(built.app)) built.log.info(`Server listening at ${url}`);
  return { ...built, url, close: () => built.app.close() };
}
