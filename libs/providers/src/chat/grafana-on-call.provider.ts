import { newId } from '#common';
import { optional } from '../http/credentials.js';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/**
 * Grafana OnCall formatted webhook: alert_uid, title, image_url, state, link_to_upstream_details and
 * message. Each field comes from the subscriber's channel credentials, else from the integration's.
 */
export class GrafanaOnCallProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'grafana-on-call';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const own = message.channelCredentials ?? {};
    const body = {
      alert_uid: own.alertUid ?? optional(credentials, 'alertUid'),
      title: own.title ?? optional(credentials, 'title'),
      image_url: own.imageUrl ?? optional(credentials, 'imageUrl'),
      state: own.state ?? optional(credentials, 'state'),
      link_to_upstream_details: own.externalUrl ?? optional(credentials, 'externalLink'),
      message: message.content,
    };
    await postToChatWebhook('Grafana OnCall', message.webhookUrl, body, options);
    return { id: body.alert_uid ?? newId(), date: new Date().toISOString() };
  }
}
