import { getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbExecutor } from '../database/database.js';

interface ColumnPlan {
  key: string;
  name: string;
  type: string;
  /** The column default, applied to rows that leave the column out. */
  fallback?: SQL;
  isDate: boolean;
}

const plans = new WeakMap<PgTable, ColumnPlan[]>();

function planOf(table: PgTable): ColumnPlan[] {
  let plan = plans.get(table);
  if (!plan) {
    plan = Object.entries(getTableColumns(table)).map(([key, column]) => ({
      key,
      name: column.name,
      type: column.getSQLType(),
      fallback:
        column.default === undefined ? undefined : is(column.default, SQL) ? column.default : sql`${column.default}`,
      isDate: column.dataType === 'date',
    }));
    plans.set(table, plan);
  }
  return plan;
}

export interface BulkInsertOptions<Row> {
  /** Keys of the unique index whose conflicts are skipped (ON CONFLICT DO NOTHING). */
  onConflictDoNothing?: (keyof Row & string)[];
  /** On a conflict with the unique index of `target`, overwrite the `set` columns with the new row's values. */
  onConflictUpdate?: { target: (keyof Row & string)[]; set: (keyof Row & string)[] };
  /** Keys of the inserted rows to return ('all': every column); none by default. */
  returning?: (keyof Row & string)[] | 'all';
  /** Values every row has, sent once instead of in each row (a fan-out chunk's event, workflow, step). */
  shared?: Partial<Row>;
  /** Inserts only the rows meeting this condition, written with `value(key)`: the row's value of a key. */
  where?: (value: (key: keyof Row & string) => SQL) => SQL;
}

/** Equal for sending once: the same primitive, object, Date or array of primitives. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => item === b[index]);
}

/** The rows as a JSON array of arrays holding `keys` in order (what is not shared; missing: null). */
function rowsJson(rows: Record<string, unknown>[], keys: string[]): string {
  return JSON.stringify(rows.map((row) => keys.map((key) => row[key] ?? null)));
}

/** Column `index` of a row sent by `rowsJson` (`r`, a JSON array), as the column's type; JSON null is NULL. */
function element(column: ColumnPlan, index: number): SQL {
  if (column.type === 'jsonb') return sql`NULLIF(r -> ${sql.raw(String(index))}, 'null'::jsonb)`;
  if (column.type.endsWith('[]')) {
    return sql`CASE WHEN jsonb_typeof(r -> ${sql.raw(String(index))}) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(r -> ${sql.raw(String(index))}))::${sql.raw(column.type)} END`;
  }
  return sql`(r ->> ${sql.raw(String(index))})::${sql.raw(column.type)}`;
}

/**
 * A multi-row INSERT that sends all rows as one JSON parameter (an array per row) instead of one
 * bind parameter per value: building a query of rows × columns parameters was the single
 * largest CPU cost of a busy worker. Rows are the table's insert objects (camelCase keys), each
 * completed by `shared`; a key left out (or undefined) takes the column default, as with Drizzle's
 * insert. A value every row has (the environment, a chunk's event and step, a step's detail
 * text) is found and sent once too: the bytes sent are most of what an insert costs both sides.
 * Returned rows carry the requested keys, timestamps as Dates.
 */
export async function bulkInsert<Row extends Record<string, unknown>, Returned = Partial<Row>>(
  executor: DbExecutor,
  table: PgTable,
  rows: Partial<Row>[],
  options: BulkInsertOptions<Row> = {},
): Promise<Returned[]> {
  if (rows.length === 0) return [];
  const plan = planOf(table);
  const shared: Record<string, unknown> = { ...options.shared };
  const present = new Set<string>();
  for (const row of rows) for (const key in row) if (row[key] !== undefined) present.add(key);
  if (rows.length > 1) {
    for (const key of present) {
      if (key !== 'id' && shared[key] === undefined && rows.every((row) => sameValue(row[key], rows[0][key])))
        shared[key] = rows[0][key];
    }
  }
  const fromRows = plan.filter((column) => present.has(column.key) && shared[column.key] === undefined);
  const fromShared = plan.filter((column) => shared[column.key] !== undefined);
  const columns = [...fromRows, ...fromShared];
  const fromRow = (column: ColumnPlan, index: number) =>
    column.fallback ? sql`COALESCE(${element(column, index)}, ${column.fallback})` : element(column, index);
  // One bind parameter each (sql.param: Drizzle would spread an array into a list); jsonb goes as
  // JSON text, since pg would send a JS array as a PostgreSQL array literal.
  const once = (column: ColumnPlan) => {
    const raw = shared[column.key];
    const value = sql`CAST(${sql.param(column.type === 'jsonb' && raw !== null ? JSON.stringify(raw) : raw)} AS ${sql.raw(column.type)})`;
    return column.fallback ? sql`COALESCE(${value}, ${column.fallback})` : value;
  };
  const byKey = new Map(plan.map((column) => [column.key, column]));
  const conflictTarget = (keys: string[]) =>
    sql.join(
      keys.map((key) => sql.identifier(byKey.get(key)!.name)),
      sql`, `,
    );
  const update = options.onConflictUpdate;
  const conflict = options.onConflictDoNothing
    ? sql` ON CONFLICT (${conflictTarget(options.onConflictDoNothing)}) DO NOTHING`
    : update
      ? sql` ON CONFLICT (${conflictTarget(update.target)}) DO UPDATE SET ${sql.join(
          update.set.map((key) => {
            const name = sql.identifier(byKey.get(key)!.name);
            return sql`${name} = EXCLUDED.${name}`;
          }),
          sql`, `,
        )}`
      : sql``;
  const valueOf = (key: string) => {
    const column = byKey.get(key)!;
    const index = fromRows.indexOf(column);
    return index >= 0 ? fromRow(column, index) : once(column);
  };
  const where = options.where ? sql` WHERE ${options.where(valueOf)}` : sql``;
  const returned = options.returning === 'all' ? plan : (options.returning ?? []).map((key) => byKey.get(key)!);
  const returning =
    returned.length > 0
      ? sql` RETURNING ${sql.join(
          returned.map((column) => sql`${sql.identifier(column.name)} AS ${sql.identifier(column.key)}`),
          sql`, `,
        )}`
      : sql``;
  const result = await executor.execute<Record<string, unknown>>(sql`
    INSERT INTO ${table} (${sql.join(
      columns.map((column) => sql.identifier(column.name)),
      sql`, `,
    )})
    SELECT ${sql.join([...fromRows.map(fromRow), ...fromShared.map(once)], sql`, `)}
    FROM jsonb_array_elements(${rowsJson(
      rows,
      fromRows.map((column) => column.key),
    )}::jsonb) AS r${where}${conflict}${returning}`);
  return withDates(returned, result.rows) as Returned[];
}

/** Drizzle's raw execute leaves timestamps as the server's text: the row types promise Dates. */
function withDates(columns: ColumnPlan[], rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const dates = columns.filter((column) => column.isDate);
  for (const row of rows) {
    for (const column of dates)
      if (typeof row[column.key] === 'string') row[column.key] = new Date(row[column.key] as string);
  }
  return rows;
}

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Every column of a table as `"db_name" AS "key"`, qualified by `alias`: a raw statement returning
 * it yields the table's row objects without Drizzle's per-row mapping. Pass the rows to `tableRows`.
 * JSON columns come as text, for `tableRows` to parse each distinct document once.
 */
export function selectListText(table: PgTable, alias: string): string {
  return planOf(table)
    .map(
      (column) =>
        `${quoted(alias)}.${quoted(column.name)}${column.type === 'jsonb' ? '::text' : ''} AS ${quoted(column.key)}`,
    )
    .join(', ');
}

/** `selectListText` as a fragment of a Drizzle statement. */
export const selectList = (table: PgTable, alias: string): SQL => sql.raw(selectListText(table, alias));

/** Ids as the text of a `uuid[]` literal, for a raw statement's parameter (see `uuids`). */
const uuidArrayLiteral = (ids: string[]): string => `{${ids.join(',')}}`;

/**
 * Ids as one `uuid[]` parameter, its literal built by a join: pg's generic array serializer escapes
 * element by element, a visible cost for the 500-id lists of the hot statements. Only for ids (the
 * database rejects anything that is not a UUID).
 */
export const uuids = (ids: string[]): SQL => sql`${sql.param(uuidArrayLiteral(ids))}::uuid[]`;

/**
 * The name given to drizzle's prepared queries, which are built once and run with placeholder values:
 * none, so StatementNames names the text as it names every repeated statement (and never on the
 * embedded database, where a name would collide between connections).
 */
export const UNNAMED = '';

/**
 * Newest first, as the tables' time indexes are declared: `(…, created_at DESC NULLS LAST, id DESC
 * NULLS LAST)`. A plain DESC sorts NULLs first, an order no index provides (PostgreSQL does not use
 * NOT NULL to equate the two), so it would read and sort every matching row — all of a subscriber's
 * messages for one inbox page — instead of the page's few from the index.
 */
export const newestFirst = (createdAt: PgColumn, id: PgColumn): SQL[] => [
  sql`${createdAt} DESC NULLS LAST`,
  sql`${id} DESC NULLS LAST`,
];

/**
 * A condition checked on the rows a statement found by their keys, never used to find them. Hot
 * statements look rows up by primary key and check the environment (and status) on what they
 * find; written as plain `=`, those checks invite the planner to scan an (environment_id, …) index
 * instead — the whole environment per batch, which it picks whenever its statistics lag a burst of
 * inserts (a fresh or fast-growing table). `IS TRUE` keeps the meaning and no index matches it.
 */
export const checkOnly = (condition: SQL): SQL => sql`(${condition}) IS TRUE`;

/**
 * The rows of a raw statement that selected `selectList(table)`, timestamps as Dates. Equal JSON
 * documents of one result (a fan-out chunk's jobs all carry the same step) are parsed
 * once and shared between rows: treat them as read-only.
 */
export function tableRows<Row>(table: PgTable, rows: Record<string, unknown>[]): Row[] {
  const plan = planOf(table);
  const documents = plan.filter((column) => column.type === 'jsonb').map((column) => column.key);
  const parsed = new Map<string, unknown>();
  for (const row of rows) {
    for (const key of documents) {
      const text = row[key];
      if (typeof text !== 'string') continue;
      let value = parsed.get(text);
      if (value === undefined) parsed.set(text, (value = JSON.parse(text)));
      row[key] = value;
    }
  }
  return withDates(plan, rows) as Row[];
}
