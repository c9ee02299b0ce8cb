import { ApiError } from '../../api/client';
import type { WorkflowStep } from './workflow-types';

/**
 * A step's condition is `controlValues.skip`, a JSON Logic rule: the step is skipped when it holds. The form
 * edits it as JSON text; the API takes the object.
 */
export function conditionAsText(step: WorkflowStep): WorkflowStep {
  const { skip } = step.controlValues;
  // Always a string, '' for none: the form's field exists for every step, and an absent value would read as an edit.
  const text = skip === undefined ? '' : typeof skip === 'string' ? skip : JSON.stringify(skip);
  return { ...step, controlValues: { ...step.controlValues, skip: text } };
}

/** The controls with the condition's text read back as JSON (left out when empty); bad JSON is a 422 of its field. */
export function controlsWithCondition(step: WorkflowStep, index: number): Record<string, unknown> {
  const { skip, ...controls } = step.controlValues;
  if (typeof skip !== 'string') return step.controlValues;
  if (skip.trim() === '') return controls;
  try {
    return { ...controls, skip: JSON.parse(skip) as unknown };
  } catch {
    throw new ApiError(422, 'The condition is not valid JSON', {
      [`steps[${index}].controlValues.skip`]: [
        'must be a JSON Logic rule, e.g. {"==": [{"var": "payload.vip"}, true]}',
      ],
    });
  }
}
