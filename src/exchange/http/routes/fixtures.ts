/** GET /fixtures: no key; the fixtures bucket is keyed by the caller's address. */
import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { FixtureList, FixturesQuery } from '../../../shared/api/schemas.js';
import type { ExchangeDomain } from '../../domain/contract.js';
import { COMMON_ERRORS, errors, ok, VersionHeader } from '../schemas.js';

export const fixtureRoutes: FastifyPluginCallbackTypebox<{ domain: ExchangeDomain }> = (
  app,
  { domain },
  done,
) => {
  app.get(
    '/fixtures',
    {
      config: { routeKey: 'GET /fixtures', group: 'fixtures' },
      schema: {
        summary: 'List fixtures',
        description:
          'Paged and filterable, ordered by kick-off then contractId (stable). Filters beyond those the API documents: `league` (exact, case insensitive) and `team` (home or away abbreviation). Rate limit: the fixtures bucket (120/min, burst 20) keyed by IP.',
        tags: ['fixtures'],
        headers: VersionHeader,
        querystring: FixturesQuery,
        response: {
          200: ok(FixtureList, 'A page of fixtures.', true),
          ...errors(COMMON_ERRORS, true),
        },
      },
    },
    (request) => domain.listFixtures(request.query),
  );
  done();
};
