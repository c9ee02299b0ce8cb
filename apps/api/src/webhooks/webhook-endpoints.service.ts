import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, DomainError, isId } from '#common';
import { CredentialsCipher, newWebhookSecret, SECRET_ROTATION_OVERLAP_MS, WebhookOutbox } from '#application';
import {
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type WebhookDeliveryRow,
  type WebhookEndpointChanges,
  type WebhookEndpointRow,
} from '#dal';
import type { AuthContext } from '../auth/auth-context.js';
import type { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './dto/webhook-endpoint.dto.js';
import { checkedEndpointUrl, checkedHeaders, MAX_ENDPOINTS_PER_ENVIRONMENT } from './webhook-endpoint-rules.js';

/** The environment's webhook endpoints, their secrets and their deliveries. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly outbox: WebhookOutbox,
    private readonly cipher: CredentialsCipher,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(
    auth: AuthContext,
    body: CreateWebhookEndpointDto,
  ): Promise<{ row: WebhookEndpointRow; secret: string }> {
    const fields = {
      url: await checkedEndpointUrl(body.url, this.config.allowPrivateWebhookTargets),
      description: body.description ?? null,
      eventTypes: body.eventTypes ?? [],
      enabled: body.enabled ?? true,
      headers: checkedHeaders(body.headers ?? {}),
    };
    const secret = newWebhookSecret();
    const row = await this.endpoints.create(
      auth,
      fields,
      this.cipher.encrypt({ secret }),
      MAX_ENDPOINTS_PER_ENVIRONMENT,
    );
    if (!row)
      throw DomainError.validation(
        'url',
        `An environment has at most ${MAX_ENDPOINTS_PER_ENVIRONMENT} webhook endpoints: delete one first`,
      );
    return { row, secret };
  }

  list(auth: AuthContext): Promise<WebhookEndpointRow[]> {
    return this.endpoints.list(auth.environmentId);
  }

  async get(auth: AuthContext, id: string): Promise<WebhookEndpointRow> {
    const row = isId(id) ? await this.endpoints.find(auth.environmentId, id) : undefined;
    if (!row) throw new DomainError('NOT_FOUND', `Webhook endpoint ${id} not found`);
    return row;
  }

  async update(auth: AuthContext, id: string, body: UpdateWebhookEndpointDto): Promise<WebhookEndpointRow> {
    await this.get(auth, id);
    const changes: WebhookEndpointChanges & { failingSince?: null } = {};
    if (body.url !== undefined)
      changes.url = await checkedEndpointUrl(body.url, this.config.allowPrivateWebhookTargets);
    if (body.description !== undefined) changes.description = body.description;
    if (body.eventTypes !== undefined) changes.eventTypes = body.eventTypes;
    if (body.headers !== undefined) changes.headers = checkedHeaders(body.headers);
    if (body.enabled !== undefined) {
      changes.enabled = body.enabled;
      if (body.enabled) Object.assign(changes, { disabledReason: null, failingSince: null });
    }
    const row = await this.endpoints.update(auth.environmentId, id, changes);
    if (!row) throw new DomainError('NOT_FOUND', `Webhook endpoint ${id} not found`);
    if (body.enabled === false) await this.deliveries.cancelPending(auth.environmentId, id, this.clock.now());
    return row;
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    if (!isId(id) || !(await this.endpoints.delete(auth.environmentId, id)))
      throw new DomainError('NOT_FOUND', `Webhook endpoint ${id} not found`);
  }

  async rotateSecret(auth: AuthContext, id: string): Promise<{ secret: string; previousSecretExpiresAt: Date }> {
    await this.get(auth, id);
    const secret = newWebhookSecret();
    const previousSecretExpiresAt = new Date(this.clock.now().getTime() + SECRET_ROTATION_OVERLAP_MS);
    await this.endpoints.rotateSecret(auth.environmentId, id, this.cipher.encrypt({ secret }), previousSecretExpiresAt);
    return { secret, previousSecretExpiresAt };
  }

  async deliveriesOf(
    auth: AuthContext,
    id: string,
    page: { limit?: number; after?: string },
  ): Promise<{ rows: WebhookDeliveryRow[]; hasMore: boolean }> {
    await this.get(auth, id);
    return this.deliveries.list(auth.environmentId, id, page.limit ?? 20, page.after);
  }

  /** Sends the delivery's event again as a new delivery (same webhook-id), whatever became of the first. */
  async replay(auth: AuthContext, id: string, deliveryId: string): Promise<WebhookDeliveryRow> {
    const endpoint = await this.get(auth, id);
    const delivery = isId(deliveryId) ? await this.deliveries.find(auth.environmentId, id, deliveryId) : undefined;
    if (!delivery) throw new DomainError('NOT_FOUND', `Delivery ${deliveryId} not found`);
    if (!endpoint.enabled)
      throw new DomainError('CONFLICT', 'The endpoint is disabled: enable it before replaying a delivery');
    const replayed = await this.deliveries.replay(delivery, this.clock.now());
    await this.outbox.wake(auth.environmentId, [endpoint.id]);
    return replayed;
  }
}
