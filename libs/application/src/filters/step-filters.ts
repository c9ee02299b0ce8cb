import { FILTER_OPERATORS, type FilterOperator } from '#common';

/** One condition of a step filter (the spec's FieldFilterPart). */
export interface StepFilterPart {
  on: 'subscriber' | 'payload' | 'tenant';
  field: string;
  operator: FilterOperator;
  value: string;
}

/** The spec's StepFilter: children combined with AND / OR, optionally negated. */
export interface StepFilter {
  isNegated?: boolean;
  type?: string;
  value?: 'AND' | 'OR';
  children?: StepFilterPart[];
}

export interface FilterContext {
  subscriber: object | null | undefined;
  payload: object | null | undefined;
  tenant?: object | null;
}

export interface FilterResult {
  passed: boolean;
  /** A sentence for the execution detail: which filter passed, or which conditions failed. */
  detail: string;
}

/** Operators whose value is a list (comma-separated or a JSON array). */
export const LIST_OPERATORS: ReadonlySet<FilterOperator> = new Set([
  'IN',
  'NOT_IN',
  'ALL_IN',
  'ANY_IN',
  'BETWEEN',
  'NOT_BETWEEN',
]);

/** Values one list condition may hold when saved; far above a hand-written list, far below a CPU concern. */
export const MAX_FILTER_LIST_VALUES = 1000;

const MISSING = Symbol('missing');
/** A value read from the filter's target: any JSON value, or MISSING when the path is absent. */
type Actual = unknown;

/**
 * A step runs when ANY of its filters passes; no filters → it runs. Stored filters are JSON, so the
 * input is read defensively: an unknown operator or target is a failing condition, never a throw.
 */
export function evaluateStepFilters(
  filters: readonly unknown[] | null | undefined,
  context: FilterContext,
): FilterResult {
  if (!filters?.length) return { passed: true, detail: 'Step has no filters' };
  const failures: string[] = [];
  for (const [index, raw] of filters.entries()) {
    const filter = (raw ?? {}) as StepFilter;
    const outcome = evaluateFilter(filter, context);
    const label = filters.length > 1 ? `Filter ${index + 1}` : 'Filter';
    if (outcome.passed) return { passed: true, detail: `${label} passed: ${outcome.reason}` };
    failures.push(`${label} failed: ${outcome.reason}`);
  }
  return { passed: false, detail: failures.join('; ') };
}

interface Outcome {
  passed: boolean;
  reason: string;
}

function evaluateFilter(filter: StepFilter, context: FilterContext): Outcome {
  const children = Array.isArray(filter.children) ? filter.children : [];
  const combinator = String(filter.value ?? 'AND').toUpperCase() === 'OR' ? 'OR' : 'AND';
  const results = children.map((child) => evaluateCondition(child ?? ({} as StepFilterPart), context));
  const inner = combine(results, combinator);
  if (filter.isNegated !== true) return inner;
  return {
    passed: !inner.passed,
    reason: `negated filter, and ${inner.passed ? 'it matched' : 'it did not match'}: ${inner.reason}`,
  };
}

/** AND names the conditions that failed; OR, when nothing matched, names them all. */
function combine(results: Outcome[], combinator: 'AND' | 'OR'): Outcome {
  if (!results.length) return { passed: true, reason: 'it has no conditions' };
  const passed = results.filter((r) => r.passed);
  const failed = results.filter((r) => !r.passed);
  if (combinator === 'AND') {
    return failed.length
      ? { passed: false, reason: failed.map((r) => r.reason).join(' and ') }
      : { passed: true, reason: passed.map((r) => r.reason).join(' and ') };
  }
  if (passed.length) return { passed: true, reason: passed[0].reason };
  return {
    passed: false,
    reason: failed.length > 1 ? `none of ${failed.map((r) => r.reason).join(' or ')}` : failed[0].reason,
  };
}

function evaluateCondition(part: StepFilterPart, context: FilterContext): Outcome {
  const target =
    part.on === 'subscriber' || part.on === 'payload' || part.on === 'tenant' ? context[part.on] : undefined;
  const actual = readPath(target, String(part.field ?? ''));
  const expected = part.value === undefined || part.value === null ? '' : String(part.value);
  const operator = String(part.operator) as FilterOperator;
  const shownActual = actual === MISSING ? 'missing' : JSON.stringify(actual);
  const sentence = `${part.on}.${part.field} ${operator} ${JSON.stringify(expected)} (actual: ${shownActual})`;
  if (!FILTER_OPERATORS.includes(operator)) return { passed: false, reason: `unknown operator in ${sentence}` };
  return { passed: applyOperator(operator, actual, expected), reason: sentence };
}

/** Dotted path with numeric segments for array items; `a[0].b` is read as `a.0.b`. */
function readPath(source: unknown, path: string): Actual {
  if (!path) return MISSING;
  let current: unknown = source;
  for (const segment of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return MISSING;
    current = (current as Record<string, unknown>)[segment];
  }
  return current === undefined ? MISSING : current;
}

function applyOperator(operator: FilterOperator, actual: Actual, expected: string): boolean {
  switch (operator) {
    case 'EQUAL':
      return equals(actual, expected);
    case 'NOT_EQUAL':
      return !equals(actual, expected);
    case 'LARGER':
      return compare(actual, expected, (c) => c > 0);
    case 'SMALLER':
      return compare(actual, expected, (c) => c < 0);
    case 'LARGER_EQUAL':
      return compare(actual, expected, (c) => c >= 0);
    case 'SMALLER_EQUAL':
      return compare(actual, expected, (c) => c <= 0);
    case 'IN':
      return isScalar(actual) && parseList(expected).some((item) => equals(actual, item));
    case 'NOT_IN':
      return !(isScalar(actual) && parseList(expected).some((item) => equals(actual, item)));
    case 'ALL_IN': {
      if (!Array.isArray(actual)) return false;
      const elements = new ValueIndex(actual);
      return parseList(expected).every((item) => elements.contains(item));
    }
    case 'ANY_IN': {
      if (!Array.isArray(actual)) return false;
      const elements = new ValueIndex(actual);
      return parseList(expected).some((item) => elements.contains(item));
    }
    case 'BETWEEN':
      return between(actual, expected);
    case 'NOT_BETWEEN':
      return !between(actual, expected);
    case 'LIKE':
      return like(actual, expected);
    case 'NOT_LIKE':
      return !like(actual, expected);
  }
}

function isScalar(value: Actual): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function toTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value.trim())) return undefined;
  const time = Date.parse(value.trim());
  return Number.isNaN(time) ? undefined : time;
}

/** Filter values are strings; numbers and booleans in the data are compared by meaning, not by type. */
function equals(actual: Actual, expected: string): boolean {
  if (actual === MISSING || actual === null || !isScalar(actual)) return false;
  const a = toNumber(actual);
  const e = toNumber(expected);
  if (a !== undefined && e !== undefined) return a === e;
  if (typeof actual === 'boolean') return String(actual) === expected.trim().toLowerCase();
  return String(actual) === expected;
}

/**
 * The elements of an array field, indexed so that "does any element equal this filter value" (as
 * `equals` decides it) is a few set lookups: ALL_IN and ANY_IN are linear in the array and the
 * list, where comparing every pair froze the process on a 10,000 × 14,000 filter.
 */
class ValueIndex {
  private readonly numbers = new Set<number>();
  private readonly booleans = new Set<string>();
  private readonly texts = new Set<string>();

  constructor(elements: readonly unknown[]) {
    for (const element of elements) {
      if (!isScalar(element)) continue;
      const number = toNumber(element);
      if (number !== undefined) this.numbers.add(number);
      else if (typeof element === 'boolean') this.booleans.add(String(element));
      else this.texts.add(String(element));
    }
  }

  /** `equals(element, expected)` for some element: numbers by value, booleans by their text, text exactly. */
  contains(expected: string): boolean {
    const number = toNumber(expected);
    if (number !== undefined) return this.numbers.has(number);
    return this.booleans.has(expected.trim().toLowerCase()) || this.texts.has(expected);
  }
}

/** Numbers when both sides are numbers, instants when both are ISO dates, otherwise text order. */
function order(actual: Actual, expected: string): number | undefined {
  if (actual === MISSING || !isScalar(actual) || typeof actual === 'boolean') return undefined;
  const a = toNumber(actual);
  const e = toNumber(expected);
  if (a !== undefined && e !== undefined) return Math.sign(a - e);
  const at = toTime(actual);
  const et = toTime(expected);
  if (at !== undefined && et !== undefined) return Math.sign(at - et);
  if (a !== undefined || e !== undefined) return undefined;
  const text = String(actual);
  return text < expected ? -1 : text > expected ? 1 : 0;
}

function compare(actual: Actual, expected: string, test: (ordering: number) => boolean): boolean {
  const ordering = order(actual, expected);
  return ordering !== undefined && test(ordering);
}

/** A JSON array, or a comma-separated list with the items trimmed. */
export function parseList(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
    } catch {
      // Not JSON after all: read it as a comma-separated list.
    }
  }
  if (trimmed === '') return [];
  return trimmed.split(',').map((item) => item.trim());
}

function between(actual: Actual, expected: string): boolean {
  const bounds = parseList(expected);
  if (bounds.length !== 2) return false;
  const [low, high] = bounds;
  const aboveLow = order(actual, low);
  const belowHigh = order(actual, high);
  return aboveLow !== undefined && belowHigh !== undefined && aboveLow >= 0 && belowHigh <= 0;
}

function like(actual: Actual, expected: string): boolean {
  if (actual === MISSING || actual === null || !isScalar(actual)) return false;
  return String(actual).toLowerCase().includes(expected.toLowerCase());
}
