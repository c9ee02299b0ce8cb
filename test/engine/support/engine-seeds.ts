import { newId } from '#common';
import { SubscriberNotificationsService } from '#application';
import type { IntegrationRow, SubscriberRow } from '#dal';
import type { WorkflowResponse } from '#application';
import { CreateIntegrationDto } from '#api/integrations/dto/integration.dto.js';
import { CreateIntegrationUseCase } from '#api/integrations/use-cases/create-integration.use-case.js';
import { ListNotificationsQueryDto } from '#api/notifications/dto/list-notifications.query.js';
import { ListNotificationsUseCase } from '#api/notifications/use-cases/list-notifications.use-case.js';
import { PatchPreferencesDto } from '#api/preferences/dto/preferences.dto.js';
import { UpdateSubscriberPreferencesUseCase } from '#api/preferences/use-cases/update-subscriber-preferences.use-case.js';
import { ListNotificationsQueryDto as InboxQueryDto } from '#api/subscriber-notifications/dto/subscriber-notifications.dto.js';
import { UpdateCredentialsDto } from '#api/subscribers/dto/subscriber-v1.dto.js';
import { CreateSubscriberDto } from '#api/subscribers/dto/subscriber.dto.js';
import { SubscribersService } from '#api/subscribers/subscribers.service.js';
import { UpdateCredentialsUseCase } from '#api/subscribers/use-cases/update-credentials.use-case.js';
import { CreateWorkflowDto } from '#api/workflows/dto/workflow.dto.js';
import { WorkflowsService } from '#api/workflows/workflows.service.js';
import type { Body } from '../../support/untyped-json.js';
import type { Engine } from './engine-harness.js';
import { validated } from './validated.js';

/**
 * What a test sets up, through the use cases the api's routes call (each body validated as the
 * route would): the same rows as over HTTP, without the HTTP.
 */

/** POST /v2/subscribers. */
export async function createSubscriber(e: Engine, fields: Body = {}): Promise<SubscriberRow> {
  const body = await validated(CreateSubscriberDto, { subscriberId: `sub-${newId().slice(-12)}`, ...fields });
  return e.app.get(SubscribersService).upsert(e.auth, body);
}

/** DELETE /v2/subscribers/{subscriberId}. */
export async function deleteSubscriber(e: Engine, subscriberId: string): Promise<void> {
  await e.app.get(SubscribersService).delete(e.auth, subscriberId);
}

/** PATCH /v1/subscribers/{subscriberId}/credentials. */
export async function updateCredentials(e: Engine, subscriberId: string, fields: Body): Promise<SubscriberRow> {
  return e.app
    .get(UpdateCredentialsUseCase)
    .execute(e.auth, subscriberId, await validated(UpdateCredentialsDto, fields));
}

/** PATCH /v2/subscribers/{subscriberId}/preferences. */
export async function updatePreferences(e: Engine, subscriberId: string, fields: Body): Promise<void> {
  const body = await validated(PatchPreferencesDto, fields);
  await e.app.get(UpdateSubscriberPreferencesUseCase).execute(e.auth, subscriberId, body);
}

/** POST /v1/integrations, with empty credentials unless given. */
export async function createIntegration(
  e: Engine,
  fields: Body & { providerId: string; channel: string },
): Promise<IntegrationRow> {
  const body = await validated(CreateIntegrationDto, { credentials: {}, ...fields });
  return e.app.get(CreateIntegrationUseCase).execute(e.auth, body);
}

/** POST /v1/workflows: checked and stored as the route stores it. */
export async function saveWorkflow(e: Engine, fields: Body): Promise<WorkflowResponse> {
  return e.app.get(WorkflowsService).create(e.auth, await validated(CreateWorkflowDto, fields));
}

/** GET /v1/notifications, as the client reads the body (JSON). */
export async function listNotifications(e: Engine, query: Record<string, string>): Promise<Body[]> {
  const page = await e.app
    .get(ListNotificationsUseCase)
    .execute(e.auth, await validated(ListNotificationsQueryDto, query, 'query'));
  return (JSON.parse(JSON.stringify(page)) as Body).data as Body[];
}

/** GET /v2/subscribers/{subscriberId}/notifications, as the client reads the body (JSON). */
export async function inboxNotifications(e: Engine, subscriberId: string): Promise<Body[]> {
  const page = await e.app
    .get(SubscriberNotificationsService)
    .list(e.environment.id, subscriberId, await validated(InboxQueryDto, {}, 'query'));
  return (JSON.parse(JSON.stringify(page)) as Body).data as Body[];
}
