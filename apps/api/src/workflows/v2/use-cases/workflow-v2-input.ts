import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import {
  controlKindErrors,
  controlPath,
  normalizedLevel,
  preferenceColumns,
  skipConditionError,
  slugify,
  stepIdOf,
  stepShapeFromControls,
  WorkflowWriter,
  type StepInput,
  type StoredPreferences,
  type WorkflowInput,
} from '#application';
import { DomainError, type FieldErrors } from '#common';
import type { StoredStep, WorkflowRow } from '#dal';
import { StepDefinition } from '../../dto/step.definition.js';
import type { CreateWorkflowV2Dto, UpdateWorkflowV2Dto, WorkflowV2StepDto } from '../dto/workflow-v2-request.dto.js';
import type { WorkflowV2PreferencesRequestDto } from '../dto/workflow-v2-preferences.dto.js';

/** class-validator's nested errors as `{ 'template.subject': messages }`. */
function flatten(errors: ValidationError[], parent = ''): Record<string, string[]> {
  return Object.assign(
    {},
    ...errors.map((error) => {
      const path = /^\d+$/.test(error.property)
        ? `${parent}[${error.property}]`
        : parent
          ? `${parent}.${error.property}`
          : error.property;
      const own = Object.values(error.constraints ?? {});
      return { ...(own.length ? { [path]: own } : {}), ...flatten(error.children ?? [], path) };
    }),
  ) as Record<string, string[]>;
}

function fail(errors: FieldErrors): never {
  const entries = Object.entries(errors);
  throw new DomainError(
    'VALIDATION_FAILED',
    entries.map(([path, { messages }]) => `${path}: ${messages.join('; ')}`).join('; '),
    errors,
  );
}

/**
 * A v2 body becomes the WorkflowInput every door writes through WorkflowWriter: each step's controls
 * are checked for their JSON kinds, turned into the stored template and metadata, and those are held
 * to the same rules as a /v1/workflows step (StepDefinition, template parsing), every error named by
 * its v2 path (`steps[0].controlValues.body`).
 */
@Injectable()
export class WorkflowV2Input {
  constructor(private readonly writer: WorkflowWriter) {}

  fromCreate(body: CreateWorkflowV2Dto): WorkflowInput {
    return this.fromBody(body, body.workflowId, []);
  }

  /** The full workflow, replacing the current one (its step ids are kept by stepId). */
  fromUpdate(body: UpdateWorkflowV2Dto, current: WorkflowRow): WorkflowInput {
    return this.fromBody(body, body.workflowId ?? current.identifier, current.steps);
  }

  /** One step's controls as its stored shape, for a preview of controls not saved; errors name `controlValues.*`. */
  stepFromControls(type: string, controls: Record<string, unknown>): StepInput {
    const built = this.buildSteps([{ name: type, type, controlValues: controls } as WorkflowV2StepDto], []);
    const errors = Object.fromEntries(
      Object.entries(built.errors).map(([path, error]) => [path.replace(/^steps\[0\]\./, ''), error]),
    );
    if (Object.keys(errors).length) fail(errors);
    return built.steps[0];
  }

  private fromBody(
    body: CreateWorkflowV2Dto | UpdateWorkflowV2Dto,
    identifier: string,
    previous: StoredStep[],
  ): WorkflowInput {
    const { steps, errors } = this.buildSteps(body.steps, previous);
    if (Object.keys(errors).length) fail(errors);
    const preferences = storedPreferences(body.preferences);
    const active = body.active ?? false;
    return {
      name: body.name,
      identifier,
      description: body.description ?? '',
      tags: body.tags ?? [],
      active,
      draft: !active,
      steps,
      origin: 'novu-cloud',
      payloadSchema: body.payloadSchema ?? null,
      validatePayload: body.validatePayload ?? false,
      ...(body.isTranslationEnabled !== undefined ? { isTranslationEnabled: body.isTranslationEnabled } : {}),
      preferences: preferences as Record<string, unknown> | null,
      ...preferenceColumns(preferences ?? {}),
    };
  }

  private buildSteps(dtos: WorkflowV2StepDto[], previous: StoredStep[]): { steps: StepInput[]; errors: FieldErrors } {
    const errors: FieldErrors = {};
    const seen = new Set<string>();
    const steps = dtos.map((dto, index) => {
      const path = `steps[${index}]`;
      const stepId = dto.stepId ?? slugify(dto.name);
      if (!stepId)
        errors[`${path}.stepId`] = { messages: ['stepId is required when the name has no letters or digits'] };
      else if (seen.has(stepId))
        errors[`${path}.stepId`] = { messages: [`stepId ${stepId} is used by an earlier step`], value: stepId };
      seen.add(stepId);
      const controls = dto.controlValues ?? {};
      Object.assign(errors, controlKindErrors(dto.type, controls, `${path}.controlValues`));
      if (controls.skip !== undefined) {
        const skipError = skipConditionError(controls.skip);
        if (skipError) errors[`${path}.controlValues.skip`] = { messages: [skipError] };
      }
      const kept =
        previous.find((step) => dto._id !== undefined && step._id === dto._id) ??
        previous.find((step) => stepIdOf(step) === stepId);
      return {
        _id: kept?._id,
        name: dto.name,
        stepId,
        controlValues: controls,
        ...stepShapeFromControls(dto.type, controls),
      } satisfies StepInput;
    });
    if (Object.keys(errors).length) return { steps, errors };
    steps.forEach((step, index) => {
      const instance = plainToInstance(StepDefinition, { template: step.template, metadata: step.metadata });
      const found = flatten(validateSync(instance, { whitelist: true, forbidUnknownValues: false }));
      for (const [storedPath, messages] of Object.entries(found))
        errors[`steps[${index}].controlValues.${controlPath(storedPath)}`] = { messages };
    });
    if (Object.keys(errors).length) return { steps, errors };
    for (const [storedPath, error] of Object.entries(this.writer.templateErrors(steps))) {
      const [, index, rest] = /^steps\[(\d+)\]\.(.*)$/.exec(storedPath) ?? [];
      errors[index === undefined ? storedPath : `steps[${index}].controlValues.${controlPath(rest)}`] = error;
    }
    return { steps, errors };
  }
}

function storedPreferences(body: WorkflowV2PreferencesRequestDto | undefined): StoredPreferences | null {
  if (!body) return null;
  return { user: normalizedLevel(body.user), workflow: normalizedLevel(body.workflow) };
}
