import type { Database } from '#dal';

/** A statement as the service sent it. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}

const nodeTypes = (node: PlanNode): string[] => [node['Node Type'], ...(node.Plans ?? []).flatMap(nodeTypes)];

/** The statements whose text matches `pattern` that the service ran on `db` during `action`. */
export async function statementsDuring(
  db: Database,
  pattern: RegExp,
  action: () => Promise<void>,
): Promise<SentStatement[]> {
  const pool = db.$client as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query;
  const seen: SentStatement[] = [];
  pool.query = function (this: unknown, config: unknown, values?: unknown, ...rest: unknown[]) {
    // pg takes a statement's text alone or in a config object.
    const statement = (typeof config === 'string' ? { text: config } : config) as Partial<SentStatement>;
    if (typeof statement?.text === 'string' && pattern.test(statement.text))
      seen.push({ text: statement.text, values: statement.values ?? (values as unknown[]) ?? [] });
    return original.call(this, config, values, ...rest);
  };
  try {
    await action();
  } finally {
    pool.query = original;
  }
  return seen;
}

/** The node types of the plan PostgreSQL makes for the statement with its values, outermost first. */
export async function planNodes(db: Database, statement: SentStatement): Promise<string[]> {
  const { rows } = await db.$client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `EXPLAIN (FORMAT JSON) ${statement.text}`,
    statement.values,
  );
  return nodeTypes(rows[0]['QUERY PLAN'][0].Plan);
}

interface AnalyzedNode extends PlanNode {
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: AnalyzedNode[];
}

const rowsScanned = (node: AnalyzedNode): number =>
  (/Scan$/.test(node['Node Type']) ? node['Actual Rows'] * node['Actual Loops'] : 0) +
  (node.Plans ?? []).reduce((sum, child) => sum + rowsScanned(child), 0);

/** Runs the statement with its values and counts the rows its scans returned (EXPLAIN ANALYZE). */
export async function rowsRead(db: Database, statement: SentStatement): Promise<number> {
  const { rows } = await db.$client.query<{ 'QUERY PLAN': { Plan: AnalyzedNode }[] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
    statement.values,
  );
  return rowsScanned(rows[0]['QUERY PLAN'][0].Plan);
}
