/**
 * The control API of docs/sandbox.md: /sandbox/*, only when an admin token is configured,
 * every call with `Authorization: Bearer <token>`. Not part of the public API: hidden from the
 * OpenAPI document, exempt from rate limits and faults. Errors use the same `{code, msg}` body;
 * a missing or wrong token answers -1023 (401 missing, 403 wrong).
 */
import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import Type from 'typebox';
import { DECIMAL_PATTERN } from '../../shared/money.js';
import type { ExchangeDomain } from '../domain/contract.js';
import { ApiError } from '../domain/errors.js';
import { FAULT_MODES, type FaultTable } from './faults.js';
import { ipRuleProblem } from './ip-allow.js';
import { ErrorCodes } from '../../shared/api/errors.js';

export interface ControlOptions {
  domain: ExchangeDomain;
  faults: FaultTable;
  /** "METHOD /path" of every public endpoint, the routes a fault may name. */
  publicRoutes: ReadonlySet<string>;
}

/** Returns the bearer-token check for the control routes. */
export function adminCheck(token: string): (request: FastifyRequest) => void {
  const want = createHash('sha256').update(token).digest();
  return (request) => {
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !/^Bearer\s+\S/i.test(header)) {
      throw new ApiError(
        ErrorCodes.INVALID_SESSION,
        'Authorization: "Bearer <admin token>" is required',
        {
          status: 401,
          headers: { 'www-authenticate': 'Bearer' },
        },
      );
    }
    const got = createHash('sha256')
      .update(header.replace(/^Bearer\s+/i, '').trim())
      .digest();
    if (!timingSafeEqual(got, want)) {
      throw new ApiError(ErrorCodes.INVALID_SESSION, 'Authorization: the admin token is wrong', {
        status: 403,
      });
    }
  };
}

const ContractParams = Type.Object({ contractId: Type.String({ minLength: 1, maxLength: 128 }) });
const KeyParams = Type.Object({ apiKey: Type.String({ minLength: 1, maxLength: 256 }) });

const NewKeyBody = Type.Object(
  {
    wallet: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }),
    permission: Type.Union([Type.Literal('read'), Type.Literal('trade')]),
    expiresAt: Type.Optional(Type.Integer({ minimum: 0 })),
    ipRestrictions: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 }),
    ),
  },
  { additionalProperties: false },
);

const NewFixtureBody = Type.Object(
  {
    homeTeam: Type.String({ pattern: '^[A-Za-z]{2,4}$' }),
    awayTeam: Type.String({ pattern: '^[A-Za-z]{2,4}$' }),
    league: Type.String({ minLength: 1, maxLength: 64 }),
    startsAt: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

const PriceBody = Type.Object(
  {
    outcome: Type.String({ minLength: 1, maxLength: 8 }),
    indexPrice: Type.String({ pattern: DECIMAL_PATTERN, maxLength: 40 }),
  },
  { additionalProperties: false },
);

const KickoffBody = Type.Object(
  { startsAt: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);

const ResolveBody = Type.Object(
  { winner: Type.String({ minLength: 1, maxLength: 8 }) },
  { additionalProperties: false },
);

const ClockBody = Type.Object(
  { advanceMs: Type.Integer({ minimum: 0, maximum: 10 * 365 * 86_400_000 }) },
  { additionalProperties: false },
);

const FaultBody = Type.Object(
  {
    route: Type.String({ minLength: 1, maxLength: 64 }),
    mode: Type.Union(FAULT_MODES.map((m) => Type.Literal(m))),
    count: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 120_000 })),
    code: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

export const controlRoutes: FastifyPluginCallbackTypebox<ControlOptions> = (app, opts, done) => {
  const { domain, faults, publicRoutes } = opts;
  const config = { control: true };
  const hide = { hide: true };

  app.post('/wallets', { config, schema: hide }, (_request, reply) => {
    reply.code(201);
    return { wallet: domain.createWallet() };
  });

  app.post('/keys', { config, schema: { ...hide, body: NewKeyBody } }, (request, reply) => {
    const body = request.body;
    for (const rule of body.ipRestrictions ?? []) {
      const problem = ipRuleProblem(rule);
      if (problem) throw new ApiError(ErrorCodes.BAD_PARAMETER, `ipRestrictions: ${problem}`);
    }
    if (body.permission === 'trade' && body.expiresAt === undefined) {
      throw new ApiError(
        ErrorCodes.BAD_PARAMETER,
        'expiresAt: is required for a key with trade permission',
      );
    }
    const key = domain.createKey(body);
    reply.code(201);
    return {
      apiKey: key.apiKey,
      secret: key.secret,
      permission: key.permission,
      expiresAt: key.expiresAt ?? null,
      wallet: key.wallet,
      ipRestrictions: key.ipRestrictions ?? [],
    };
  });

  app.post(
    '/keys/:apiKey/revoke-grant',
    { config, schema: { ...hide, params: KeyParams } },
    (request, reply) => {
      domain.revokeGrant(request.params.apiKey);
      reply.code(204);
      return reply.send();
    },
  );

  app.post('/fixtures', { config, schema: { ...hide, body: NewFixtureBody } }, (request, reply) => {
    const b = request.body;
    const fixture = domain.createFixture({
      ...b,
      homeTeam: b.homeTeam.toUpperCase(),
      awayTeam: b.awayTeam.toUpperCase(),
    });
    reply.code(201);
    return fixture;
  });

  app.post(
    '/fixtures/:contractId/price',
    { config, schema: { ...hide, params: ContractParams, body: PriceBody } },
    (request) =>
      domain.setPrice(request.params.contractId, request.body.outcome, request.body.indexPrice),
  );

  app.post(
    '/fixtures/:contractId/close',
    { config, schema: { ...hide, params: ContractParams } },
    (request) => domain.closeFixture(request.params.contractId),
  );

  app.post(
    '/fixtures/:contractId/kickoff',
    { config, schema: { ...hide, params: ContractParams, body: KickoffBody } },
    (request) => domain.setKickoff(request.params.contractId, request.body.startsAt),
  );

  app.post(
    '/fixtures/:contractId/resolve',
    { config, schema: { ...hide, params: ContractParams, body: ResolveBody } },
    (request) => domain.resolveFixture(request.params.contractId, request.body.winner),
  );

  app.post('/clock', { config, schema: { ...hide, body: ClockBody } }, (request) => {
    domain.advanceClock(request.body.advanceMs);
    return { serverTime: domain.now() };
  });

  app.post('/faults', { config, schema: { ...hide, body: FaultBody } }, (request) => {
    faults.set(request.body, publicRoutes);
    return request.body;
  });

  app.delete('/faults', { config, schema: hide }, (_request, reply) => {
    faults.clear();
    reply.code(204);
    return reply.send();
  });
  done();
};
