import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { WorkflowDefinition } from './workflow.definition.js';

/** `[ "steps[1].metadata.unit: unit must be one of ..." ]`, the paths the HTTP 422 uses too. */
function describeErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => `${path}: ${message}`);
    return [...own, ...describeErrors(error.children ?? [], path)];
  });
}

/** Validates a workflow definition outside HTTP (same rules as the global validation pipe). */
export function validateWorkflowDefinition(input: unknown): { definition?: WorkflowDefinition; errors: string[] } {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return { errors: ['the file must hold one workflow object'] };
  const definition = plainToInstance(WorkflowDefinition, input);
  const errors = describeErrors(validateSync(definition, { whitelist: true, forbidUnknownValues: false }));
  return errors.length ? { errors } : { definition, errors };
}
