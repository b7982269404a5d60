/** POST /order/rfq and POST /order: signed; quotes need read, orders need trade. */
import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { readLegs } from '../../../shared/api/leg.js';
import { Order, OrderRequest, Quote, RfqRequest } from '../../../shared/api/schemas.js';
import type { ExchangeDomain, PlacementFault } from '../../domain/contract.js';
import { ApiError, legRefusal } from '../../domain/errors.js';
import type { ArmedFault } from '../faults.js';
import { signedSchema } from '../schemas.js';
import { ErrorCodes } from '../../../shared/api/errors.js';

export const tradingRoutes: FastifyPluginCallbackTypebox<{ domain: ExchangeDomain }> = (
  app,
  { domain },
  done,
) => {
  app.post(
    '/order/rfq',
    {
      config: { routeKey: 'POST /order/rfq', signed: 'read', group: 'quotes' },
      schema: signedSchema(
        {
          summary: 'Quote a trade without placing it',
          description:
            'Prices a trade by exactly the rules POST /order applies. The quote is live for 30 s (see `expiresAt`) and executes at most once. Exactly one leg; two or more answer 501 -2026. Price-feed cost 2.',
          tags: ['trading'],
          body: RfqRequest,
        },
        { schema: Quote, description: 'The quote.', more: [409, 501] },
      ),
    },
    (request) => {
      assertOneLeg(request.body.legs);
      return domain.requestQuote(walletOf(request.apiKeyRecord), request.body);
    },
  );

  app.post(
    '/order',
    {
      config: { routeKey: 'POST /order', signed: 'trade', group: 'orders' },
      schema: signedSchema(
        {
          summary: 'Place an order',
          description:
            'Either an inline bet (legs, qty, marketUnit) or an rfqId, never both. Answers 202 once the transaction is broadcast (status SUBMITTED); any other status means nothing was placed. A 202 may carry error -5004 (sent but not confirmed; the order stands). Price-feed cost 1 with an rfqId, 2 without.',
          tags: ['trading'],
          body: OrderRequest,
        },
        {
          status: 202,
          schema: Order,
          description: 'Accepted and broadcast: status SUBMITTED.',
          more: [409, 410, 501],
        },
      ),
    },
    async (request, reply) => {
      assertOneLeg(request.body.legs);
      const key = request.apiKeyRecord;
      if (key && !key.grantActive) {
        throw new ApiError(
          ErrorCodes.GRANT_REVOKED,
          "The key can no longer sign for the wallet: the wallet's grant was removed. Create a new API key.",
        );
      }
      const order = await domain.placeOrder(
        walletOf(key),
        request.body,
        placementFault(request.fault),
      );
      reply.code(202);
      return order;
    },
  );
  done();
};

/**
 * docs/api.md 2.1: exactly one leg; two or more are understood but not servable (501 -2026),
 * answered before any business rule. The domain reads the leg itself with the same parser.
 */
function assertOneLeg(legs: readonly unknown[] | undefined): void {
  // Fewer than two legs cannot be too many: the domain's own reading says the rest.
  if (legs === undefined || legs.length < 2) return;
  // Two or more legs read as too-many-legs whatever they hold.
  const read = readLegs(legs);
  if (!read.ok) throw legRefusal(read.problem);
}

export function walletOf(key: { wallet: string } | null): string {
  if (!key) throw new ApiError(ErrorCodes.INVALID_AUTH, 'The request is not authenticated');
  return key.wallet;
}

function placementFault(fault: ArmedFault | null): PlacementFault | undefined {
  if (!fault) return undefined;
  switch (fault.mode) {
    case 'latency':
      return { delayMs: fault.ms };
    case 'revert':
      return { outcome: 'revert' };
    case 'congested':
      return { outcome: 'congested' };
    default:
      return undefined;
  }
}
