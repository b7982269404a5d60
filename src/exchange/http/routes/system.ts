/** GET /, GET /health and GET /time: no key, no wallet quota, only the per-IP cap. */
import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Health, ServerTime } from '../../../shared/api/schemas.js';
import { API_VERSION } from '../../../shared/api/signing.js';
import type { ExchangeDomain } from '../../domain/contract.js';
import { COMMON_ERRORS, errors, ok, VersionHeader } from '../schemas.js';

export const systemRoutes: FastifyPluginCallbackTypebox<{ domain: ExchangeDomain }> = (
  app,
  { domain },
  done,
) => {
  app.get('/', { schema: { hide: true }, config: { routeKey: 'GET /' } }, () => ({
    name: 'Betdesk sandbox exchange',
    version: API_VERSION,
    docs: '/docs',
    openapi: '/openapi.yaml',
    swagger: '/swagger',
  }));

  app.get(
    '/health',
    {
      config: { routeKey: 'GET /health' },
      schema: {
        summary: 'Liveness probe',
        description:
          'Sandbox choice (the API leaves the body open): `{"status":"ok","version":0}`.',
        tags: ['system'],
        headers: VersionHeader,
        response: {
          200: ok(Health, 'The exchange is up.', false),
          ...errors(COMMON_ERRORS, false),
        },
      },
    },
    () => ({ status: 'ok' as const, version: API_VERSION }),
  );

  app.get(
    '/time',
    {
      config: { routeKey: 'GET /time' },
      schema: {
        summary: 'Server time',
        description:
          'Sandbox choice (the API leaves the body open): `{"serverTime": <ms since epoch>}`, the exchange clock that X-Timestamp, quote expiry and cursors use.',
        tags: ['system'],
        headers: VersionHeader,
        response: {
          200: ok(ServerTime, 'The exchange clock.', false),
          ...errors(COMMON_ERRORS, false),
        },
      },
    },
    () => ({ serverTime: domain.now() }),
  );
  done();
};
