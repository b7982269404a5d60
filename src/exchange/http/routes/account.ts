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
import { errors, ok, SIGNED_ERRORS, SignedHeaders } from '../schemas.js';
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
      schema: {
        summary: 'One order',
        description:
          'Exactly one of `orderId` or `clientOrderId` (otherwise -1102). No match: 404 -2025. `tx` may be empty shortly after submission; read `status`, and `error` for a failed order.',
        tags: ['orders'],
        headers: SignedHeaders,
        querystring: OrderQuery,
        response: { 200: ok(Order, 'The order.', true), ...errors([...SIGNED_ERRORS, 404], true) },
      },
    },
    // The domain refuses anything but exactly one of the two ids (-1102).
    (request) => domain.getOrder(walletOf(request.apiKeyRecord), request.query),
  );

  app.get(
    '/orders',
    {
      config: { routeKey: 'GET /orders', signed: 'read', group: 'reads' },
      schema: {
        summary: "The wallet's orders, newest first",
        description: 'Filters apply before paging; each page costs one call of the reads quota.',
        tags: ['orders'],
        headers: SignedHeaders,
        querystring: OrdersQuery,
        response: { 200: ok(OrderList, 'A page of orders.', true), ...errors(SIGNED_ERRORS, true) },
      },
    },
    (request, reply) =>
      orderJson.list(reply, domain.listOrders(walletOf(request.apiKeyRecord), request.query)),
  );

  app.get(
    '/orders/updates',
    {
      config: { routeKey: 'GET /orders/updates', signed: 'read', group: 'reads' },
      schema: {
        summary: 'Orders changed since a cursor',
        description:
          'Omit `since` on the first call to get every order; pass the previous `cursor` as the next `since`. The cursor advances even when nothing changed; an older cursor replays more history.',
        tags: ['orders'],
        headers: SignedHeaders,
        querystring: UpdatesQuery,
        response: {
          200: ok(OrderUpdates, 'The changed orders and the next cursor.', true),
          ...errors(SIGNED_ERRORS, true),
        },
      },
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
      schema: {
        summary: "The wallet's open bets",
        description: 'Price-feed cost 28. Positions quota: 20 per minute, burst 5.',
        tags: ['positions'],
        headers: SignedHeaders,
        querystring: PositionsQuery,
        response: {
          200: ok(PositionList, 'A page of positions.', true),
          ...errors(SIGNED_ERRORS, true),
        },
      },
    },
    (request) => domain.positions(walletOf(request.apiKeyRecord), request.query),
  );

  app.get(
    '/settlements',
    {
      config: { routeKey: 'GET /settlements', signed: 'read', group: 'reads' },
      schema: {
        summary: "The wallet's finished bets",
        description: 'Rows of type CLOSED, KNOCKED_OUT or SETTLEMENT, newest first.',
        tags: ['positions'],
        headers: SignedHeaders,
        querystring: SettlementsQuery,
        response: {
          200: ok(SettlementList, 'A page of settlements.', true),
          ...errors(SIGNED_ERRORS, true),
        },
      },
    },
    (request) => domain.settlements(walletOf(request.apiKeyRecord), request.query),
  );
  done();
};
