import jsonLogic from 'json-logic-js';
import { DomainError } from '#common';

/** A JSON Logic rule as stored: one operator object at the root. */
export type SubscriptionCondition = Record<string, unknown>;

/** Bounds of a stored condition: it runs once per member of a topic per trigger, so its cost must stay small. */
export const MAX_CONDITION_BYTES = 4 * 1024;
export const MAX_CONDITION_DEPTH = 10;

/**
 * The operators a condition may use. Left out: `method` (calls methods of the data's objects),
 * `map`/`filter`/`reduce`/`merge` (build arrays, so nested ones grow with the product of the
 * payload's arrays), `cat` (a 4 KB rule repeating one large payload string builds a string hundreds
 * of times its size, for every member) and `log`.
 */
const ALLOWED_OPERATORS = new Set([
  'var',
  'missing',
  'missing_some',
  'if',
  '?:',
  '==',
  '===',
  '!=',
  '!==',
  '!',
  '!!',
  'and',
  'or',
  '<',
  '<=',
  '>',
  '>=',
  'in',
  'substr',
  '+',
  '-',
  '*',
  '/',
  '%',
  'min',
  'max',
  'some',
  'all',
  'none',
]);

/** Operators that run their rule once per item of an array: at most one on any path, so the cost stays linear. */
const ITERATING_OPERATORS = new Set(['some', 'all', 'none']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a condition at save: a JSON Logic rule of at most 4 KB of JSON and 10 levels, using only
 * allowed operators. Throws a 422 naming `path` (e.g. `preferences.1.condition`) and what is wrong.
 */
export function assertValidCondition(condition: unknown, path: string): asserts condition is SubscriptionCondition {
  const fail = (message: string): never => {
    throw DomainError.validation(path, message, condition);
  };
  if (!isPlainObject(condition)) fail(`${path} must be a JSON Logic rule (an object)`);
  if (Buffer.byteLength(JSON.stringify(condition)) > MAX_CONDITION_BYTES)
    fail(`${path} must be at most ${MAX_CONDITION_BYTES} bytes of JSON`);
  const problem = ruleProblem(condition, 1, 0);
  if (problem) fail(`${path}: ${problem}`);
}

function ruleProblem(node: unknown, depth: number, iterating: number): string | undefined {
  if (depth > MAX_CONDITION_DEPTH) return `rules may nest at most ${MAX_CONDITION_DEPTH} levels`;
  if (Array.isArray(node)) {
    for (const item of node) {
      const problem = ruleProblem(item, depth + 1, iterating);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isPlainObject(node)) return undefined;
  const keys = Object.keys(node);
  if (keys.length !== 1) return 'each rule must be an object with exactly one operator';
  const [operator] = keys;
  if (!ALLOWED_OPERATORS.has(operator)) return `operator "${operator}" is not allowed`;
  const nested = ITERATING_OPERATORS.has(operator) ? iterating + 1 : iterating;
  if (nested > 1) return `${[...ITERATING_OPERATORS].join(', ')} may not be nested inside one another`;
  return ruleProblem(node[operator], depth + 1, nested);
}

/** What a condition reads: the trigger's payload, actor and context, and the member as a subscriber. */
export interface ConditionData {
  payload: Record<string, unknown>;
  subscriber: Record<string, unknown>;
  actor: Record<string, unknown> | null;
  context: Record<string, unknown>;
}

/** A condition that throws at run time (a stored rule checked before the allow-list changed) does not hold. */
export function conditionHolds(condition: SubscriptionCondition, data: ConditionData): boolean {
  try {
    return jsonLogic.truthy(jsonLogic.apply(condition, data));
  } catch {
    return false;
  }
}
