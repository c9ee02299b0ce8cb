import jsonLogic from 'json-logic-js';

/** A condition is written by hand: beyond this it is not a rule but a way to spend CPU on every step run. */
export const MAX_SKIP_CONDITION_BYTES = 16 * 1024;

/**
 * Why a v2 step's `skip` (a JSON Logic rule) cannot be saved, or undefined: too large, or an
 * operation JSON Logic does not know (found by running it once on empty data).
 */
export function skipConditionError(rule: unknown): string | undefined {
  if (Buffer.byteLength(JSON.stringify(rule) ?? '') > MAX_SKIP_CONDITION_BYTES)
    return `skip must be at most ${MAX_SKIP_CONDITION_BYTES} bytes as JSON`;
  try {
    jsonLogic.apply(rule as jsonLogic.RulesLogic, {});
    return undefined;
  } catch (error) {
    return `skip is not a JSON Logic rule: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Whether a step's `skip` rule holds for this run (the step is then skipped). An empty rule, or one
 * that fails on this run's data, skips nothing: the step runs as it would without a condition.
 */
export function skipConditionHolds(rule: unknown, data: Record<string, unknown>): boolean {
  if (typeof rule !== 'object' || rule === null || Object.keys(rule).length === 0) return false;
  try {
    return jsonLogic.truthy(jsonLogic.apply(rule, data));
  } catch {
    return false;
  }
}
