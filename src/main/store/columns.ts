/**
 * A row as the repos hand it out: each column under its camelCase name (`created_at` is
 * `createdAt`), its value as SQLite gave it. For the rows whose domain object is the row
 * renamed; a repo converts the columns that need more (a flag, JSON) after the spread.
 */
type CamelName<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelName<Tail>>}`
  : S;

export type CamelCased<Row> = { [K in keyof Row & string as CamelName<K>]: Row[K] };

export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    out[column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value;
  }
  return out as CamelCased<Row>;
}
