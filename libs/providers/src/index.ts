export * from './provider.js';
export * from './provider-registry.js';
export * from './providers.module.js';
export * from './http/post-json.js';
export * from './http/target-guard.js';
export { credentialFormatErrors } from './http/credential-formats.js';
export {
  httpFailure,
  providerRequest,
  redact,
  type ProviderAnswer,
  type ProviderCall,
} from './http/provider-request.js';
export { postEvent, type EventPostAnswer } from './http/post-event.js';
export {
  credentialsWithoutSecrets,
  PROVIDER_CATALOGUE,
  type CredentialField,
  type ProviderSummary,
} from './provider-catalogue.js';
