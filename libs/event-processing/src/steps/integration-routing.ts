import { evaluateStepFilters, type FilterContext } from '#application';
import type { IntegrationRow } from '#dal';
import { templateVariables, type StepContext } from './step-context.js';
import type { StepDetail } from './step-outcome.js';

const hasConditions = (integration: IntegrationRow) =>
  Array.isArray(integration.conditions) && integration.conditions.length > 0;

/** What integration conditions read: the subscriber, the payload and the trigger's tenant (identifier, data). */
function conditionContext(context: StepContext): FilterContext {
  const variables = templateVariables(context);
  const tenant = context.tenant ? { identifier: context.tenant.identifier, data: context.tenant.data ?? {} } : null;
  return { subscriber: variables.subscriber, payload: variables.payload, tenant };
}

function matchedFor(context: StepContext): string {
  return context.tenant ? `conditions matched for tenant ${context.tenant.identifier}` : 'conditions matched';
}

const named = (integration: IntegrationRow) => `${integration.identifier} (${integration.providerId})`;

/** The integrations whose conditions pass (and those without any), in the order given. */
function eligibleIntegrations(context: StepContext, integrations: IntegrationRow[]): IntegrationRow[] {
  const conditioned = integrations.filter(hasConditions);
  if (conditioned.length === 0) return integrations;
  const filterContext = conditionContext(context);
  return integrations.filter(
    (integration) => !hasConditions(integration) || evaluateStepFilters(integration.conditions, filterContext).passed,
  );
}

/**
 * email and sms: the first active integration whose conditions pass (by priority) goes ahead of the
 * primary, then the others that may serve the message in failover order; an integration whose
 * conditions fail is left out. When the channel has conditioned integrations, the detail says which
 * one leads and why.
 */
export function routeDirect(
  context: StepContext,
  integrations: IntegrationRow[],
): { integrations: IntegrationRow[]; detail?: StepDetail } {
  // Without conditions the failover order is the routing, and the sending details tell it.
  if (!integrations.some(hasConditions)) return { integrations };
  const eligible = eligibleIntegrations(context, integrations);
  const chosen = eligible.find(hasConditions);
  const ordered = chosen ? [chosen, ...eligible.filter((row) => row !== chosen)] : eligible;
  const lead = ordered[0];
  const why = chosen
    ? matchedFor(context)
    : lead?.primary
      ? 'no conditions matched, it is the primary integration'
      : 'no conditions matched, it is first in failover order';
  const detail: StepDetail = lead
    ? {
        status: 'Pending',
        source: 'Internal',
        providerId: lead.providerId,
        detail: `Integration ${named(lead)} chosen: ${why}`,
      }
    : {
        status: 'Failed',
        source: 'Credentials',
        detail: `No active ${context.job.type} integration serves this message: the conditions of every one failed`,
      };
  return { integrations: ordered, detail };
}

/** chat and push: why a subscriber channel entry's integration is not used, or undefined when it is. */
export function conditionsRefusal(context: StepContext, integration: IntegrationRow): string | undefined {
  if (!hasConditions(integration)) return undefined;
  const result = evaluateStepFilters(integration.conditions, conditionContext(context));
  return result.passed
    ? undefined
    : `Integration ${named(integration)} skipped: its conditions did not match (${result.detail})`;
}

/** The detail of a chat or push integration chosen by its conditions. */
export function conditionsChosen(context: StepContext, integration: IntegrationRow): StepDetail | undefined {
  if (!hasConditions(integration)) return undefined;
  return {
    status: 'Pending',
    source: 'Internal',
    providerId: integration.providerId,
    detail: `Integration ${named(integration)} chosen: ${matchedFor(context)}`,
  };
}
