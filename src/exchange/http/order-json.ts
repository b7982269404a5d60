/**
 * The JSON of order lists (GET /orders, GET /orders/updates), each order written once per change.
 *
 * Writing an order is most of the cost of a page of them (about twenty numbers and strings, each
 * converted and escaped), yet an order changes only a few times in its life. Every change of an
 * order is stamped with a new, strictly increasing `updatedAt` (the domain's `touchOrder`, the
 * same stamp GET /orders/updates relies on to miss nothing), and orderIds are random 128-bit
 * values, so (orderId, updatedAt) names one exact content: its JSON is kept under that pair and
 * reused until the order changes again.
 *
 * Each order is written by the serializer Fastify compiles from the shared Order schema, and
 * the page's own fields as that serializer writes integers, so the bytes are exactly those of
 * the route's response schema.
 */
import type { FastifyReply } from 'fastify';
import type { Order, OrderList, OrderUpdates } from '../../shared/api/schemas.js';

type Serialize = (order: Order) => string;

/** The shared Order schema (registered by registerSharedSchemas), by reference. */
const ORDER_REF = { $ref: 'Order#' };
const JSON_TYPE = 'application/json; charset=utf-8';
/** Orders whose JSON is kept; past this the cache starts afresh (the exchange holds them all). */
const MAX_KEPT = 100_000;

interface Kept {
  updatedAt: number;
  json: string;
}

export class OrderJson {
  private readonly kept = new Map<string, Kept>();

  /** Answers `list` with the cached order JSON; call once the list is final (no error after). */
  list(reply: FastifyReply, list: OrderList): OrderList {
    const write = this.serializer(reply);
    reply.header('content-type', JSON_TYPE);
    reply.serializer((value: OrderList) => {
      return `{"orders":${this.orders(write, value.orders)},"total":${int(value.total)},"limit":${int(value.limit)},"offset":${int(value.offset)}}`;
    });
    return list;
  }

  updates(reply: FastifyReply, updates: OrderUpdates): OrderUpdates {
    const write = this.serializer(reply);
    reply.header('content-type', JSON_TYPE);
    reply.serializer((value: OrderUpdates) => {
      return `{"orders":${this.orders(write, value.orders)},"cursor":${int(value.cursor)}}`;
    });
    return updates;
  }

  private serializer(reply: FastifyReply): Serialize {
    // Compiled once per route (Fastify keeps it by schema object).
    return reply.compileSerializationSchema(ORDER_REF);
  }

  private orders(write: Serialize, orders: readonly Order[]): string {
    let out = '[';
    for (let i = 0; i < orders.length; i++) {
      if (i > 0) out += ',';
      out += this.json(write, orders[i]!);
    }
    return `${out}]`;
  }

  private json(write: Serialize, order: Order): string {
    const kept = this.kept.get(order.orderId);
    if (kept !== undefined && kept.updatedAt === order.updatedAt) return kept.json;
    const json = write(order);
    if (kept !== undefined) {
      kept.updatedAt = order.updatedAt;
      kept.json = json;
    } else {
      if (this.kept.size >= MAX_KEPT) this.kept.clear();
      this.kept.set(order.orderId, { updatedAt: order.updatedAt, json });
    }
    return json;
  }
}

/** An integer as fast-json-stringify writes one (the schema's `Type.Integer()` fields). */
function int(n: number): string {
  if (Number.isInteger(n)) return `${n}`;
  const t = Math.trunc(n);
  if (!Number.isFinite(t)) throw new Error(`The value "${n}" cannot be converted to an integer.`);
  return `${t}`;
}
