import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

const API_KEY_SECURITY = 'api-key';

/**
 * OpenAPI document at /api-docs (UI) and /api-docs-json. The UI's static assets load through a dynamic
 * import that Jest's VM cannot run, so in-process tests serve the JSON only (the process tests cover the UI).
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
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('api-docs', app, document, { jsonDocumentUrl: 'api-docs-json', swaggerUiEnabled: options.ui });
}
