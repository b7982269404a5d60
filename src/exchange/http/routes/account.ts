/** The wallet's reads: GET /order, /orders, /orders/updates, /positions, /settlements. */
import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import {
  Order,
  OrderList,
  OrderQuery,
  OrdersQuery,
  OrderUpdates,
  PositionList,
  PositionsQuery,
  SettlementList,
  SettlementsQuery,
  UpdatesQuery,
} from '../../../shared/api/schemas.js';
import type { ExchangeDomain } from '../../domain/contract.js';
import { OrderJson } from '../order-json.js';
import { signedSchema } from '../schemas.js';
import { walletOf } from './trading.js';

export const accountRoutes: FastifyPluginCallbackTypebox<{ domain: ExchangeDomain }> = (
  app,
  { domain },
  done,
) => {
  const orderJson = new OrderJson();
  app.get(
    '/order',
    {
      config: { routeKey: 'GET /order', signed: 'read', group: 'reads' },
      schema: signedSchema(
        {
          summary: 'One order',
          description:
            'Exactly one of `orderId` or `clientOrderId` (otherwise -1102). No match: 404 -2025. `tx` may be empty shortly after submission; read `status`, and `error` for a failed order.',
          tags: ['orders'],
          querystring: OrderQuery,
        },
        { schema: Order, description: 'The order.', more: [404] },
      ),
    },
    // The domain refuses anything but exactly one of the two ids (-1102).
    (request) => domain.getOrder(walletOf(request.apiKeyRecord), request.query),
  );

  app.get(
    '/orders',
    {
      config: { routeKey: 'GET /orders', signed: 'read', group: 'reads' },
      schema: signedSchema(
        {
          summary: "The wallet's orders, newest first",
          description: 'Filters apply before paging; each page costs one call of the reads quota.',
          tags: ['orders'],
          querystring: OrdersQuery,
        },
        { schema: OrderList, description: 'A page of orders.' },
      ),
    },
    (request, reply) =>
      orderJson.list(reply, domain.listOrders(walletOf(request.apiKeyRecord), request.query)),
  );

  app.get(
    '/orders/updates',
    {
      config: { routeKey: 'GET /orders/updates', signed: 'read', group: 'reads' },
      schema: signedSchema(
        {
          summary: 'Orders changed since a cursor',
          description:
            'Omit `since` on the first call to get every order; pass the previous `cursor` as the next `since`. The cursor advances even when nothing changed; an older cursor replays more history.',
          tags: ['orders'],
          querystring: UpdatesQuery,
        },
        { schema: OrderUpdates, description: 'The changed orders and the next cursor.' },
      ),
    },
    (request, reply) =>
      orderJson.updates(
        reply,
        domain.orderUpdates(walletOf(request.apiKeyRecord), request.query.since),
      ),
  );

  app.get(
    '/positions',
    {
      config: { routeKey: 'GET /positions', signed: 'read', group: 'positions' },
      schema: signedSchema(
        {
          summary: "The wallet's open bets",
          description: 'Price-feed cost 28. Positions quota: 20 per minute, burst 5.',
          tags: ['positions'],
          querystring: PositionsQuery,
        },
        { schema: PositionList, description: 'A page of positions.' },
      ),
    },
    (request) => domain.positions(walletOf(request.apiKeyRecord), request.query),
  );

  app.get(
    '/settlements',
    {
      config: { routeKey: 'GET /settlements', signed: 'read', group: 'reads' },
      schema: signedSchema(
        {
          summary: "The wallet's finished bets",
          description: 'Rows of type CLOSED, KNOCKED_OUT or SETTLEMENT, newest first.',
          tags: ['positions'],
          querystring: SettlementsQuery,
        },
        { schema: SettlementList, description: 'A page of settlements.' },
      ),
    },
    (request) => domain.settlements(walletOf(request.apiKeyRecord), request.query),
  );
  done();
};
