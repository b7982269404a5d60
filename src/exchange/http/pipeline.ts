/**
 * What every request goes through before its handler:
 *
 *   onRequest      X-Api-Version echo and check (-1099), the per-IP cap (429)      every route
 *   preValidation  signature (-1022/-1021), wallet or IP bucket (429), price-feed   per route
 *                  budget (503), then a body that is not usable JSON (-1102)
 *   (validation)   the shared TypeBox schemas (-1102)
 *   preHandler     injected faults                                                  per route
 *
 * The per-route hooks are made once, when the route is registered, from its config (`signed`,
 * `group`, `routeKey`, `control`), so a request never looks its route's options up (Fastify's
 * `request.routeOptions` builds a new object on every read).
 *
 * A quota is spent as soon as a request passes the bucket, whatever happens to it afterwards
 * (docs/api.md 8.1: refused requests still spend quota).
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
} from 'fastify';
import type { LimitGroup } from '../../shared/api/limits.js';
import { priceFeedCost } from '../../shared/api/limits.js';
import { API_VERSION, HEADER_API_VERSION } from '../../shared/api/signing.js';
import type { ApiKeyRecord, ExchangeDomain, Permission } from '../domain/contract.js';
import { ApiError } from '../domain/errors.js';
import type { Authenticator } from './auth.js';
import { assertBodyUsable } from './body.js';
import { type ArmedFault, faultError, type FaultTable } from './faults.js';
import type { RateLimiter } from './rate-limits.js';
import { ErrorCodes } from '../../shared/api/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** "METHOD /path" of a public endpoint: the key of ROUTE_GROUPS and of injected faults. */
    routeKey?: string;
    /** The endpoint is signed and needs this permission. */
    signed?: Permission;
    /** The rate-limit group the endpoint draws from. */
    group?: LimitGroup;
    /** A /sandbox control endpoint: bearer token, no rate limits, no faults. */
    control?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated key of a signed request. */
    apiKeyRecord: ApiKeyRecord | null;
    /** The fault this request drew, when one was armed for its route. */
    fault: ArmedFault | null;
  }
}

export interface PipelineDeps {
  domain: ExchangeDomain;
  auth: Authenticator;
  /** Absent with --no-rate-limits. */
  limiter: RateLimiter | undefined;
  faults: FaultTable;
  /** Checks the control API's bearer token; absent when the control API is off. */
  checkAdmin: ((request: FastifyRequest) => void) | undefined;
  /** The logger for a line about one request (http/logging.ts). */
  requestLog: (request: FastifyRequest) => FastifyBaseLogger;
}

const VERSION = String(API_VERSION);
const CONTROL_PREFIX = '/sandbox/';

type RouteConfig = {
  routeKey?: string;
  signed?: Permission;
  group?: LimitGroup;
  control?: boolean;
};

export function registerPipeline(app: FastifyInstance, deps: PipelineDeps): void {
  const { domain, limiter } = deps;
  app.decorateRequest('apiKeyRecord', null);
  app.decorateRequest('fault', null);

  // Every request, known route or not: the version echo, the version check, the per-IP cap.
  const onRequest: onRequestHookHandler = (request, reply, done) => {
    reply.header('x-api-version', VERSION);
    if (limiter && !request.url.startsWith(CONTROL_PREFIX)) {
      try {
        limiter.takeIp(request.ip, domain.now());
      } catch (err) {
        // Rare path: only a refused request reads its route's options.
        const group = request.routeOptions.config.group;
        if (group) setLimitHeaders(reply, limiter.untouched(group));
        done(err as Error);
        return;
      }
    }
    const version = request.headers[HEADER_API_VERSION];
    if (version !== undefined && version !== VERSION) {
      const group = limiter ? request.routeOptions.config.group : undefined;
      if (limiter && group) setLimitHeaders(reply, limiter.untouched(group));
      done(
        new ApiError(
          ErrorCodes.UNKNOWN_API_VERSION,
          `X-Api-Version: unknown version ${JSON.stringify(String(version).slice(0, 20))}; the current version is ${VERSION}`,
        ),
      );
      return;
    }
    done();
  };
  app.addHook('onRequest', onRequest);

  app.addHook('onRoute', (options) => {
    const route = options as unknown as Record<string, unknown>;
    const config = (options.config ?? {}) as RouteConfig;
    if (config.control === true) {
      addHook(route, 'preValidation', controlGuard(deps));
    } else if (config.routeKey !== undefined) {
      // An unsigned GET with no rate limits has nothing to check: Fastify reads no GET body.
      const guarded =
        config.signed !== undefined || limiter !== undefined || options.method !== 'GET';
      if (guarded) addHook(route, 'preValidation', publicGuard(deps, config));
      addHook(route, 'preHandler', faultHook(deps, config.routeKey));
      addHook(route, 'onSend', dropHook(deps));
    }
  });
}

type HookName = 'preValidation' | 'preHandler' | 'onSend';

function addHook(route: Record<string, unknown>, name: HookName, hook: unknown): void {
  const existing = route[name];
  route[name] =
    existing === undefined
      ? [hook]
      : [...(Array.isArray(existing) ? (existing as unknown[]) : [existing]), hook];
}

function controlGuard(deps: PipelineDeps): preValidationHookHandler {
  return (request, _reply, done) => {
    try {
      deps.checkAdmin?.(request);
      assertBodyUsable(request);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
}

/** Authentication, the group's bucket and the price-feed budget of one public route. */
function publicGuard(deps: PipelineDeps, config: RouteConfig): preValidationHookHandler {
  const { domain, auth, limiter } = deps;
  const { signed, group } = config;
  const routeKey = config.routeKey ?? '';
  const limited = limiter !== undefined && group !== undefined;
  // Only POST /order's cost depends on the request (with or without an rfqId).
  const fixedCost = priceFeedCost(routeKey, false);
  const costDependsOnBody = priceFeedCost(routeKey, true) !== fixedCost;

  return (request, reply, done) => {
    try {
      if (signed !== undefined) {
        // Until the wallet is known, a refusal shows the bucket's size and that nothing was taken.
        if (limited) setLimitHeaders(reply, limiter.untouched(group));
        const key = auth.authenticate(request, signed);
        request.apiKeyRecord = key;
        if (limited) {
          const now = domain.now();
          setLimitHeaders(reply, limiter.takeGroup(group, key.wallet, now));
          const cost = costDependsOnBody
            ? priceFeedCost(routeKey, hasRfqId(request.body))
            : fixedCost;
          limiter.takePriceFeed(cost, now);
        }
      } else if (limited) {
        // The fixtures bucket: no wallet, keyed by the caller's address.
        const now = domain.now();
        setLimitHeaders(reply, limiter.takeGroup(group, request.ip, now));
        limiter.takePriceFeed(fixedCost, now);
      }
      assertBodyUsable(request);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
}

function faultHook(deps: PipelineDeps, routeKey: string): preHandlerHookHandler {
  const { faults, requestLog } = deps;
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (faults.empty) {
      done();
      return;
    }
    const fault = faults.take(routeKey);
    if (!fault) {
      done();
      return;
    }
    requestLog(request).info({ route: routeKey, fault: fault.mode }, 'injected fault');
    switch (fault.mode) {
      case 'error':
        done(faultError(fault.code));
        return;
      case 'latency':
        // POST /order holds the placement inside the domain, so its clientOrderId is claimed
        // while the answer waits; every other route just answers late.
        if (routeKey === 'POST /order') {
          request.fault = fault;
          done();
        } else {
          setTimeout(done, fault.ms);
        }
        return;
      default:
        request.fault = fault;
        done();
    }
  };
}

function dropHook(deps: PipelineDeps): onSendHookHandler {
  return (request, reply, payload, done) => {
    if (request.fault?.mode === 'drop') {
      // The request was applied; the caller never hears about it.
      deps.requestLog(request).info('dropping the connection without answering (injected fault)');
      reply.raw.destroy();
    }
    done(null, payload);
  };
}

function setLimitHeaders(reply: FastifyReply, h: { limit: number; remaining: number }): void {
  reply.header('x-ratelimit-limit', h.limit);
  reply.header('x-ratelimit-remaining', h.remaining);
}

function hasRfqId(body: unknown): boolean {
  return (
    typeof body === 'object' && body !== null && (body as { rfqId?: unknown }).rfqId !== undefined
  );
}
