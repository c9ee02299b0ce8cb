/**
 * Names for the statements a process sends again and again, so that each connection parses them once
 * and PostgreSQL may keep a plan for them instead of parsing and planning every execution (over the
 * partitioned activity tables, parse and plan cost as much as the run; see docs/cost-model.md).
 *
 * A text is named on its second use, so one-off statements never take a name. Each name stays prepared
 * on every connection that ran it, so names are capped per pool (a process has one). Texts whose length
 * follows their input (an IN list of parameters, multi-row VALUES) are never named: they would take a
 * name per length. Off until the pool is known to give each connection a session of its own.
 * Only statements that carry parameters are named: they already go through the extended protocol, where
 * one text is one statement (a parameterless text may hold several, which a name would refuse).
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Set<string>();
  /** Whether each connection has a session of its own, where a name prepared on one is free on the others. */
  enabled = false;

  constructor(
    private readonly maxNames = 64,
    /** Texts seen once, remembered until this many (then forgotten, and counted again). */
    private readonly maxSeen = 2_048,
  ) {}

  /** The name to send `text` under, if it has earned one. */
  nameFor(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= this.maxNames) return name;
    if (!this.seen.has(text)) {
      if (this.seen.size >= this.maxSeen) this.seen.clear();
      if (!VARIABLE_LENGTH.test(text)) this.seen.add(text);
      return undefined;
    }
    this.seen.delete(text);
    const assigned = `ns_${this.names.size}`;
    this.names.set(text, assigned);
    return assigned;
  }

  /**
   * `config` as pg's client.query receives it, named when its text has earned a name; unchanged when it
   * has none, already carries a name (an empty one is none), or is not a plain query (a cursor, a stream).
   */
  named(config: unknown, values: unknown): unknown {
    const query = typeof config === 'string' ? { text: config } : config;
    if (!this.enabled || !isPlainQuery(query) || query.name) return config;
    const parameters = Array.isArray(values) ? values : query.values;
    if (!Array.isArray(parameters) || parameters.length === 0) return config;
    const name = this.nameFor(query.text);
    return name === undefined ? config : { ...query, name };
  }
}

/** `in ($1, $2)` or `($1, $2), ($3, $4)`: a text built for the number of values it carries. */
const VARIABLE_LENGTH = /\bin \(\$\d|\), \(\$\d/i;

interface PlainQuery {
  text: string;
  name?: string;
  values?: unknown;
}

function isPlainQuery(config: unknown): config is PlainQuery {
  if (typeof config !== 'object' || config === null) return false;
  const candidate = config as { text?: unknown; submit?: unknown };
  return typeof candidate.text === 'string' && typeof candidate.submit !== 'function';
}
