/**
 * The orders table, spelled once: each column with how an Order fills it and how it fills an
 * Order back. The INSERT and UPDATE column lists, their placeholders, the bound values and the
 * row mapping are all derived from ORDER_COLUMNS, and `satisfies` checks at compile time that
 * it has exactly the columns of OrderRow, each of the right type: a column added to one and not
 * the other does not compile. The order is the table's own (migration 001): `orderParams`
 * binds in it.
 */
import { Order as OrderSchema, type Order, type OrderStatus } from '../../../shared/api/schemas.js';

/** A row of the orders table as SQLite returns it. */
export interface OrderRow {
  account_id: number;
  order_id: string;
  client_order_id: string;
  contract_id: string;
  outcome: string;
  side: Order['side'];
  status: OrderStatus;
  contracts: number;
  entry_price: string;
  cost: string;
  max_win: string;
  knockout: string | null;
  deadline: number;
  tx: string;
  error_code: number | null;
  error_msg: string | null;
  order_type: Order['orderType'];
  market_unit: Order['marketUnit'];
  qty: string;
  boost: number;
  proceeds: string | null;
  rfq_id: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * A column that is one field of the Order. `value` is never set: it only makes the column's
 * type invariant, so the check below fails whether the field or the column is the wider type.
 */
interface FieldColumn<V> {
  readonly field: keyof Order;
  /** NULL in the table when the Order lacks the field. */
  readonly optional: boolean;
  readonly value?: (v: V) => V;
  readonly mutable?: true;
}

/** A column the Order holds some other way (or not at all), with its own code both ways. */
interface CustomColumn<V> {
  /** The value an order of this account binds to the column. */
  readonly bind: (o: Order, accountId: number) => V;
  /** Puts the stored value back on an order read from a row; absent when the Order has none. */
  readonly load?: (o: Order, value: V, row: OrderRow) => void;
  /** The Order field `load` sets (where it goes in the Order's key order). */
  readonly field?: keyof Order;
  readonly mutable?: true;
}

type Column<V> = FieldColumn<V> | CustomColumn<V>;

type OptionalKey = { [F in keyof Order]-?: undefined extends Order[F] ? F : never }[keyof Order];
type RequiredKey = Exclude<keyof Order, OptionalKey>;

/** The column is this required field of the Order, as it is. */
function field<F extends RequiredKey>(name: F): FieldColumn<Order[F]> {
  return { field: name, optional: false };
}

/** The column is this optional field of the Order: NULL when the field is absent. */
function optional<F extends OptionalKey>(
  name: F,
): FieldColumn<Exclude<Order[F], undefined> | null> {
  return { field: name, optional: true };
}

const mutable = { mutable: true } as const;

export const ORDER_COLUMNS = {
  account_id: { bind: (_o: Order, accountId: number) => accountId },
  order_id: field('orderId'),
  client_order_id: field('clientOrderId'),
  contract_id: field('contractId'),
  outcome: field('outcome'),
  side: field('side'),
  status: { ...field('status'), ...mutable },
  contracts: { ...field('contracts'), ...mutable },
  entry_price: { ...field('entryPrice'), ...mutable },
  cost: { ...field('cost'), ...mutable },
  max_win: { ...field('maxWin'), ...mutable },
  knockout: { ...optional('knockout'), ...mutable },
  deadline: { ...field('deadline'), ...mutable },
  tx: { ...field('tx'), ...mutable },
  error_code: {
    field: 'error',
    bind: (o: Order) => (o.error ? o.error.code : null),
    load: (o: Order, code: number | null, row: OrderRow) => {
      if (code !== null) o.error = { code, msg: row.error_msg ?? '' };
    },
    ...mutable,
  },
  // Loaded with error_code: the two are one field of the Order.
  error_msg: { bind: (o: Order) => (o.error ? o.error.msg : null), ...mutable },
  order_type: field('orderType'),
  market_unit: field('marketUnit'),
  qty: field('qty'),
  boost: field('boost'),
  proceeds: { ...optional('proceeds'), ...mutable },
  rfq_id: { ...optional('rfqId'), ...mutable },
  created_at: field('createdAt'),
  updated_at: { ...field('updatedAt'), ...mutable },
} satisfies { readonly [K in keyof OrderRow]: Column<OrderRow[K]> };

export type OrderColumn = keyof OrderRow;

const columnOf = (c: OrderColumn): Column<unknown> => ORDER_COLUMNS[c] as Column<unknown>;
const isField = (d: Column<unknown>): d is FieldColumn<unknown> => !('bind' in d);

/** Every column, in the table's order. */
export const COLUMNS = Object.keys(ORDER_COLUMNS) as OrderColumn[];

/**
 * What a later report of the same order may change. The rest (ids, contract, outcome, side,
 * sizing, boost, createdAt) is fixed when the order is accepted; leaving it out of the UPDATE
 * also spares SQLite rewriting the index entries built on it.
 */
export const MUTABLE_COLUMNS = COLUMNS.filter((c) => columnOf(c).mutable === true);

// ---------------------------------------------------------------- the mapping, compiled once
//
// orderParams runs for every order a sync applies, so both directions are compiled once from
// the table into straight-line code, the same code a hand-written list would be: a loop over
// per-column functions measured about 15 times slower (megamorphic calls), a few percent of
// the whole write. The names come from the table above (typed keys, never input).

/**
 * The Order's fields in the order a store read has always had them (a JSON line of
 * `betdesk orders` shows it): the API schema's, the fields an order may lack last.
 */
function fieldRank(key: keyof Order): number {
  const at = Object.keys(OrderSchema.properties).indexOf(key);
  return (OrderSchema.required as readonly string[]).includes(key) ? at : 1000 + at;
}

const custom = COLUMNS.map((c) => {
  const d = columnOf(c);
  return isField(d) ? undefined : d;
});

function bindExpr(c: OrderColumn, i: number): string {
  const d = columnOf(c);
  if (!isField(d)) return `custom[${i}].bind(o, accountId)`;
  return d.optional ? `o.${d.field} ?? null` : `o.${d.field}`;
}

function loadCode(): string {
  const loaded = COLUMNS.map((c, i) => ({ c, i, d: columnOf(c) }))
    .filter(({ d }) => d.field !== undefined)
    .sort((a, b) => fieldRank(a.d.field!) - fieldRank(b.d.field!));
  const plain = loaded.filter(({ d }) => isField(d) && !d.optional);
  const rest = loaded.filter(({ d }) => !(isField(d) && !d.optional));
  const literal = plain.map(({ c, d }) => `${d.field}: r.${c}`).join(', ');
  const statements = rest.map(({ c, i, d }) =>
    isField(d)
      ? `if (r.${c} !== null) o.${d.field} = r.${c};`
      : `custom[${i}].load?.(o, r.${c}, r);`,
  );
  return `const o = { ${literal} };\n${statements.join('\n')}\nreturn o;`;
}

type Compiled<F> = (custom: readonly (CustomColumn<unknown> | undefined)[]) => F;

// eslint-disable-next-line @typescript-eslint/no-implied-eval -- see "compiled once" above
const compileParams = new Function(
  'custom',
  `return (accountId, o) => [${COLUMNS.map(bindExpr).join(', ')}];`,
) as Compiled<(accountId: number, o: Order) => unknown[]>;

// eslint-disable-next-line @typescript-eslint/no-implied-eval -- see "compiled once" above
const compileLoad = new Function('custom', `return (r) => {\n${loadCode()}\n};`) as Compiled<
  (row: OrderRow) => Order
>;

/** The values of a row in COLUMNS order; bound positionally (faster than named parameters). */
export const orderParams: (accountId: number, o: Order) => unknown[] = compileParams(custom);

/** The Order a row holds. */
export const toOrder: (row: OrderRow) => Order = compileLoad(custom);
