import { evaluateStepFilters } from '#application';
import type { StoredStep } from '#dal';
import { record, templateVariables, type StepContext } from './step-context.js';

/**
 * The context with the step's first variant whose filters pass for the subscriber, payload and
 * tenant: the job then runs that variant's template, metadata and reply callback under the step's
 * id. A variant without filters or turned off is never chosen: the step itself is the fallback.
 * Chosen again whenever the job runs (a resume after a provider retry or a schedule hold), since a
 * job keeps no copy of its choice; the same subscriber and payload choose the same variant.
 */
export function withVariant(context: StepContext): StepContext {
  const { step } = context.job;
  if (!step.variants?.length) return context;
  const variables = templateVariables(context);
  const index = step.variants.findIndex(
    (variant) =>
      variant.active !== false &&
      variant.filters?.length > 0 &&
      evaluateStepFilters(variant.filters, {
        subscriber: variables.subscriber,
        payload: variables.payload,
        tenant: variables.tenant,
      }).passed,
  );
  if (index < 0) return context;
  const variant = step.variants[index];
  const resolved: StoredStep = {
    ...step,
    template: variant.template,
    metadata: variant.metadata,
    replyCallback: variant.replyCallback,
  };
  return {
    ...context,
    job: { ...context.job, step: resolved },
    variant: { index, id: variant._id, name: variant.name },
  };
}

/** Names the variant a starting step runs in its execution details. */
export function recordVariant(context: StepContext): void {
  const { variant } = context;
  if (!variant) return;
  record(context, {
    status: 'Success',
    source: 'Internal',
    detail: `Variant ${variant.index} "${variant.name ?? variant.id}" (${variant.id}) selected: its filters matched`,
  });
}
