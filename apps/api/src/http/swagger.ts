import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

const API_KEY_SECURITY = 'api-key';

/**
 * OpenAPI document at /api-docs (UI) and /api-docs-json. The UI's static assets load through a dynamic
 * import that Jest's VM cannot run, so in-process tests serve the JSON only (the process tests cover the UI).
 * The document is built on its first request, not at boot: scanning every route's metadata costs a boot
 * time nobody waits for unless they read the docs.
 */
export function setupSwagger(app: INestApplication, options: { ui: boolean }): void {
  const config = new DocumentBuilder()
    .setTitle('Notification service API')
    .setDescription(
      'Novu-compatible notification API: triggers, workflows, subscribers, preferences, integrations, messages.',
    )
    .setVersion('1.0')
    .addSecurity(API_KEY_SECURITY, {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'Send `ApiKey <key>`',
    })
    .addSecurityRequirements(API_KEY_SECURITY)
    .build();
  SwaggerModule.setup('api-docs', app, () => SwaggerModule.createDocument(app, config), {
    jsonDocumentUrl: 'api-docs-json',
    swaggerUiEnabled: options.ui,
  });
}
