/**
 * The `errorId` of every message written with an `errorText`: a closed set of codes a client can
 * branch on, while `errorText` stays free to say more (provider answers change wording). The codes
 * are channel-neutral because the message's `channel` already names the channel. Adding a code is an
 * API change: the table of docs/spec-coverage.md lists them.
 */
export const MESSAGE_ERROR_IDS = {
  /** warning (email, sms): the subscriber has no email address or phone number, and no override `to`. */
  missingAddress: 'missing_address',
  /** warning (chat, push): the subscriber has no channel entry of the channel bound to an active integration. */
  missingChannel: 'missing_channel',
  /** error: the address (the subscriber's or an override's) is not one valid address; nothing was sent. */
  invalidAddress: 'invalid_address',
  /** error: no integration was left to send through. */
  noActiveIntegration: 'no_active_integration',
  /** error: the integration's provider has no delivery adapter in this service. */
  providerUnsupported: 'provider_unsupported',
  /** error: the integration's credentials are missing, cannot be decrypted, or the provider refused them. */
  invalidCredentials: 'invalid_credentials',
  /** error: a client-supplied URL (a chat webhook, a *-webhook endpoint) is invalid or points at a private address. */
  targetRefused: 'target_refused',
  /** error (push): the provider called the device token unknown or expired; it was removed from the subscriber. */
  invalidDeviceToken: 'invalid_device_token',
  /** error: the provider answered with a refusal that trying again would not change (a 4xx answer). */
  providerRejected: 'provider_rejected',
  /** error: every attempt ended in a timeout, a network error or a server error of the provider. */
  providerUnavailable: 'provider_unavailable',
  /** error: the endpoint's circuit was open for the last attempt, so it was not called (it kept failing). */
  circuitOpen: 'circuit_open',
} as const;

export type MessageErrorId = (typeof MESSAGE_ERROR_IDS)[keyof typeof MESSAGE_ERROR_IDS];
