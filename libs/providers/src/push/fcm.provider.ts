import { GOOGLE_TOKEN_URI, GoogleTokenSource, parseServiceAccount } from '../auth/google-service-account.js';
import { apiBase, stringMap } from '../http/credentials.js';
import { httpFailure, providerRequest } from '../http/provider-request.js';
import { withOverrides } from '../http/request-overrides.js';
import {
  InvalidDeviceTokenError,
  type ProviderAdapter,
  type ProviderCredentials,
  type PushMessage,
  type SendOptions,
  type SendResult,
} from '../provider.js';

interface FcmError {
  error?: { status?: string; message?: string; details?: { errorCode?: string }[] };
}

/**
 * Firebase Cloud Messaging HTTP v1: POST /v1/projects/{project_id}/messages:send with an OAuth token
 * minted from the service-account JSON (`serviceAccount`; its token_uri is the token endpoint).
 * UNREGISTERED, or INVALID_ARGUMENT about the token, means the device token is dead.
 */
export class FcmProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'fcm';
  readonly channel = 'push' as const;
  private readonly tokens = new GoogleTokenSource('https://www.googleapis.com/auth/firebase.messaging');

  async send(message: PushMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const account = parseServiceAccount(credentials.serviceAccount);
    const { base, guard } = apiBase(credentials, 'https://fcm.googleapis.com');
    const accessToken = await this.tokens.accessToken(account, {
      ...options,
      guard: guard || account.token_uri !== GOOGLE_TOKEN_URI,
    });
    const { data, ...fields } = message.overrides?.fields ?? {};
    const dataOverride = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
    const request = {
      provider: 'FCM',
      url: `${base}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`,
      guard,
      headers: { authorization: `Bearer ${accessToken}` },
      json: {
        message: {
          token: message.deviceToken,
          notification: { title: message.title, body: message.content },
          // FCM data values are strings: override data joins the payload's, flattened alike.
          data: stringMap({ ...message.payload, ...dataOverride }),
        },
      },
      secrets: [account.private_key],
    };
    const call = withOverrides(request, message.overrides && { ...message.overrides, fields }, 'message');
    const answer = await providerRequest(call, options);
    if (!answer.ok) {
      const error = (answer.data as FcmError | undefined)?.error;
      const codes = [error?.status, ...(error?.details ?? []).map((detail) => detail.errorCode)];
      if (answer.status === 401) this.tokens.forget(account);
      if (
        codes.includes('UNREGISTERED') ||
        (codes.includes('INVALID_ARGUMENT') && /registration token/i.test(error?.message ?? ''))
      ) {
        throw new InvalidDeviceTokenError(
          `FCM rejected the device token: ${error?.message ?? codes.filter(Boolean).join(', ')}`,
          answer.text,
        );
      }
      throw httpFailure(call, answer);
    }
    return { id: (answer.data as { name?: string } | undefined)?.name ?? '', date: new Date().toISOString() };
  }
}
